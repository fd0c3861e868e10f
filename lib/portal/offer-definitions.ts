/**
 * Live ops' changes of offer definitions (create, edit, activate, pause, archive, restore to draft), made
 * in the offers service through its admin API and audited right after it answers: one entry when the
 * definition changed, with the fields that changed before and after (a creation: all of it after).
 */
import "server-only";
import type { AdminDefinitionChange, DefinitionAction, OfferDefinition, OfferDefinitionInput } from "../offers-client/schemas";
import { recordAudit, type AuditContext } from "./audit";
import { changedFields } from "./audit-store";
import type { DefinitionCreateInput } from "./offers-admin";
import type { PortalServices } from "./services";

type Services = Pick<PortalServices, "offersAdmin" | "db">;

export async function createDefinition(services: Services, by: AuditContext, gameId: string, input: DefinitionCreateInput, signal?: AbortSignal): Promise<AdminDefinitionChange> {
  const change = await services.offersAdmin().createDefinition(gameId, input, signal);
  await auditDefinitionChange(services, by, gameId, "create", change);
  return change;
}

/** Replaces the definition whose ETag `ifMatch` names. */
export async function updateDefinition(
  services: Services,
  by: AuditContext,
  gameId: string,
  offerId: string,
  input: OfferDefinitionInput,
  ifMatch: string,
  signal?: AbortSignal,
): Promise<AdminDefinitionChange> {
  const change = await services.offersAdmin().updateDefinition(gameId, offerId, input, ifMatch, signal);
  await auditDefinitionChange(services, by, gameId, "update", change);
  return change;
}

export async function changeDefinitionStatus(
  services: Services,
  by: AuditContext,
  gameId: string,
  offerId: string,
  action: DefinitionAction,
  ifMatch: string,
  signal?: AbortSignal,
): Promise<AdminDefinitionChange> {
  const change = await services.offersAdmin().changeDefinitionStatus(gameId, offerId, action, ifMatch, signal);
  await auditDefinitionChange(services, by, gameId, action, change);
  return change;
}

/** What an offer definition is, for the log: its content, status and version, without the service's timestamps and ETag. */
function definitionContent(definition: OfferDefinition): Record<string, unknown> {
  const { createdAt: _created, updatedAt: _updated, gameId: _game, offerId: _offer, etag: _etag, ...content } = definition;
  return content;
}

async function auditDefinitionChange(services: Services, by: AuditContext, gameId: string, action: "create" | "update" | DefinitionAction, change: AdminDefinitionChange): Promise<void> {
  if (!change.changed) return;
  const { definition, before } = change;
  const diff = before ? changedFields(definitionContent(before), definitionContent(definition)) : null;
  const job = change.job ? { job: { id: change.job.id, reason: change.job.reason, status: change.job.status } } : {};
  const verbs = { create: "created", update: "edited", activate: "activated", pause: "paused", archive: "archived", restore: "restored to draft" } as const;
  const what = action === "update" && diff ? `: ${diff.fields.slice(0, 5).join(", ")}${diff.fields.length > 5 ? ` and ${diff.fields.length - 5} more` : ""}` : "";
  await recordAudit(
    () => services.db(),
    by,
    {
      action: `offer-definition.${action}`,
      targetType: "offer-definition",
      target: `${gameId}/${definition.offerId}`,
      summary: `${verbs[action]} offer ${definition.offerId} (${definition.name}) of ${gameId}${what}`,
      before: diff ? diff.before : null,
      after: diff ? { ...diff.after, ...job } : { ...definitionContent(definition), ...job },
    },
    "after-remote-change",
  );
}
