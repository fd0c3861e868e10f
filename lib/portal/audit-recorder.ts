/**
 * Audit calls of the route handlers: one line after a change succeeded, e.g.
 *   await auditComponentUpdate(services, request, user, name, result);
 * Each takes the handler's services (the portal database, and the catalog's repository for what a
 * commit changed), the request id (x-request-id or a new one) and writes one entry.
 *
 * Best effort by decision: the change has already happened when the entry is written, so a failed
 * audit write is logged loudly (console.error, with the whole entry) and never turns a success into
 * an error answer. See docs/decisions.md.
 */
import "server-only";
import { parseDocument } from "yaml";
import type { PortalServices } from "./services";
import type { UpdateResult } from "../catalog/catalog";
import type { ConfigWriteResult } from "./gitops/environment-config";
import { listReleases, type Release } from "./gitops/releases";
import type { ImportResult } from "./gitops/import";
import type { ScmMergeRequest } from "../scm/types";
import type { Review } from "./gitops/reviews";
import type { ComponentEditResult } from "./component-edits";
import type { AdminDefinitionChange, DefinitionAction, OfferDefinition } from "../offers-client/schemas";
import { changedFields, requestIdOf, writeAudit, type AuditActor, type AuditInput } from "./audit-store";

export type AuditEntryInput = Omit<AuditInput, "actor" | "requestId">;

/** What the audit calls read: the database is opened inside, so a failed open is logged, not thrown. */
export type AuditServices = Pick<PortalServices, "db" | "catalog">;

/** Writes one entry for the request's user; never throws. */
export async function recordAudit(services: AuditServices, request: Request, user: AuditActor, entry: AuditEntryInput): Promise<void> {
  const full: AuditInput = { ...inTestEnvironment(request, entry), actor: { id: user.id, name: user.name }, requestId: requestIdOf(request) };
  try {
    const db = await services.db();
    await writeAudit(db, full);
  } catch (e) {
    console.error(`[portal] audit entry not written (${(e as Error).message}):`, JSON.stringify(full));
  }
}

/**
 * A change made in a game's test environment (an offers route called with environment=test) says so
 * in its target and summary, so nobody reads it as a change of live offers.
 */
function inTestEnvironment(request: Request, entry: AuditEntryInput): AuditEntryInput {
  if (new URL(request.url).searchParams.get("environment") !== "test") return entry;
  return { ...entry, target: `${entry.target} (test)`, summary: `[test environment] ${entry.summary}` };
}

/** The YAML file at <commit>^ in the config repository, as data; null when it cannot be read. */
async function previousVersion(services: AuditServices, commit: string | undefined | null, file: string): Promise<unknown> {
  if (!commit) return null;
  try {
    const catalog = await services.catalog();
    const text = await catalog.repo.git.show([`${commit}^:${file}`]);
    return parseDocument(text).toJS() as unknown;
  } catch {
    return null;
  }
}

/** PUT/PATCH /api/components/:name */
export async function auditComponentUpdate(services: AuditServices, request: Request, user: AuditActor, name: string, result: UpdateResult): Promise<void> {
  if (!result.changed) return;
  const before = await previousVersion(services, result.commit, result.entry.file);
  const diff = changedFields(before ?? {}, result.entry.component);
  await recordAudit(services, request, user, {
    action: "component.update",
    targetType: "component",
    target: name,
    component: name,
    summary: `edited ${name}: ${diff.fields.slice(0, 5).join(", ") || "record"}${diff.fields.length > 5 ? ` and ${diff.fields.length - 5} more` : ""}`,
    before: before === null ? null : diff.before,
    after: { ...diff.after, commit: result.commit ?? null },
  });
}

/** POST / DELETE /api/components/:name/favorite (only when the star changed). */
export async function auditFavorite(services: AuditServices, request: Request, user: AuditActor, name: string, favorite: boolean, changed: boolean): Promise<void> {
  if (!changed) return;
  await recordAudit(services, request, user, {
    action: favorite ? "favorite.add" : "favorite.remove",
    targetType: "component",
    target: name,
    component: name,
    summary: `${favorite ? "starred" : "unstarred"} ${name}`,
    before: { favorite: !favorite },
    after: { favorite },
  });
}

/** POST /api/cache/refresh */
export async function auditCacheRefresh(services: AuditServices, request: Request, user: AuditActor, outcome: { name?: string; components: number; errorCount: number; pull?: { ok: boolean; message: string } }): Promise<void> {
  await recordAudit(services, request, user, {
    action: "cache.refresh",
    targetType: outcome.name ? "component" : "catalog",
    target: outcome.name ?? "catalog",
    component: outcome.name ?? null,
    summary: outcome.name ? `refreshed ${outcome.name}` : `refreshed the catalog: ${outcome.components} components, ${outcome.errorCount} errors`,
    after: { components: outcome.components, errors: outcome.errorCount, pull: outcome.pull ?? null },
  });
}

async function configBefore(services: AuditServices, name: string, result: ConfigWriteResult): Promise<Record<string, unknown> | null> {
  if (result.mode === "current") return null;
  const out: Record<string, unknown> = {};
  for (const env of Object.keys(result.environments)) {
    const file = `config/${name}/${env}.yaml`;
    if (result.mode === "commit") {
      if (!result.commit) return null;
      out[env] = (await previousVersion(services, result.commit, file)) ?? {};
    } else {
      // A merge request changes nothing yet: "before" is the default branch now.
      try {
        const catalog = await services.catalog();
        out[env] = parseDocument(await catalog.repo.git.show([`HEAD:${file}`])).toJS() ?? {};
      } catch {
        out[env] = {};
      }
    }
  }
  return out;
}

/** POST /api/components/:name/config and /config/bulk */
export async function auditConfigWrite(services: AuditServices, request: Request, user: AuditActor, name: string, result: ConfigWriteResult): Promise<void> {
  if (result.mode !== "merge_request" && !result.changed) return;
  const envs = Object.keys(result.environments).join(", ");
  const how = result.mode === "commit" ? `committed ${result.commit?.slice(0, 8) ?? ""}` : result.mode === "merge_request" ? `proposed in merge request !${result.mergeRequest.iid}` : "set live (current)";
  await recordAudit(services, request, user, {
    action: "config.write",
    targetType: "component",
    target: name,
    component: name,
    summary: `config of ${name} (${result.view}: ${envs}) ${how}`.trim(),
    before: await configBefore(services, name, result),
    after: {
      view: result.view,
      mode: result.mode,
      environments: result.environments,
      ...(result.mode === "commit" ? { commit: result.commit } : {}),
      ...(result.mode === "merge_request" ? { mergeRequest: result.mergeRequest.iid } : {}),
    },
  });
}

/** POST /api/components/:name/releases */
export async function auditRelease(services: AuditServices, request: Request, user: AuditActor, name: string, release: Release): Promise<void> {
  let previousVersion: string | null | undefined;
  try {
    const db = await services.db();
    previousVersion = (await listReleases(db, name, release.environment)).find((r) => r.id !== release.id && r.releasedAt <= release.releasedAt)?.version ?? null;
  } catch {
    previousVersion = undefined;
  }
  await recordAudit(services, request, user, {
    action: "release.create",
    targetType: "component",
    target: name,
    component: name,
    summary: `released ${name} ${release.version} to ${release.environment}`,
    before: previousVersion === undefined ? null : { version: previousVersion },
    after: { environment: release.environment, version: release.version, tag: release.tag, commit: release.commitSha },
  });
}

/** POST /api/import/components: one entry per component imported or proposed. */
export async function auditImport(services: AuditServices, request: Request, user: AuditActor, result: { results: ImportResult[]; commit: string | null; mergeRequest: ScmMergeRequest | null }): Promise<void> {
  for (const r of result.results) {
    if ((r.status !== "imported" && r.status !== "proposed") || !r.name) continue;
    await recordAudit(services, request, user, {
      action: "import.components",
      targetType: "component",
      target: r.name,
      component: r.name,
      summary: `${r.status === "imported" ? "imported" : "proposed the import of"} ${r.repository} as ${r.name}`,
      before: null,
      after: { repository: r.repository, kind: r.kind, status: r.status, commit: result.commit, mergeRequest: result.mergeRequest?.iid ?? null },
    });
  }
}

/** POST /api/tokens (never the token itself). */
export async function auditTokenCreated(services: AuditServices, request: Request, user: AuditActor, token: { id: string; name: string; prefix?: string }): Promise<void> {
  await recordAudit(services, request, user, {
    action: "token.create",
    targetType: "token",
    target: token.id,
    summary: `created API token "${token.name}"`,
    after: { name: token.name, prefix: token.prefix ?? null },
  });
}

/** DELETE /api/tokens/:id */
export async function auditTokenRevoked(services: AuditServices, request: Request, user: AuditActor, id: string): Promise<void> {
  await recordAudit(services, request, user, {
    action: "token.revoke",
    targetType: "token",
    target: id,
    summary: `revoked API token ${id}`,
    before: { revoked: false },
    after: { revoked: true },
  });
}

/** PUT/PATCH /api/components/:name by someone who may not commit: the edit became a merge request. */
export async function auditComponentProposal(services: AuditServices, request: Request, user: AuditActor, name: string, edit: Extract<ComponentEditResult, { mode: "merge_request" }>): Promise<void> {
  const diff = changedFields(edit.entry.component, edit.proposed);
  await recordAudit(services, request, user, {
    action: "merge-request.propose",
    targetType: "component",
    target: name,
    component: name,
    summary: `proposed a change to ${name} (${diff.fields.slice(0, 5).join(", ") || "record"}) in merge request !${edit.mergeRequest.iid}`,
    before: diff.before,
    after: { ...diff.after, mergeRequest: edit.mergeRequest.iid },
  });
}

/** POST /api/merge-requests/:id/{approve,merge,close} */
export async function auditReviewDecision(services: AuditServices, request: Request, user: AuditActor, action: "approve" | "merge" | "close", review: Review): Promise<void> {
  const component = review.scope.kind === "component" ? review.scope.component : null;
  const verb = action === "approve" ? "approved" : action === "merge" ? "merged" : "closed";
  await recordAudit(services, request, user, {
    action: `merge-request.${action}`,
    targetType: "merge-request",
    target: `!${review.iid}`,
    component,
    summary: `${verb} merge request !${review.iid} "${review.title}"${action === "close" && review.closeReason ? `: ${review.closeReason}` : ""}`,
    before: { state: "opened" },
    after: { state: review.state, author: review.author, sourceBranch: review.sourceBranch, approvals: review.approvals.map((a) => a.by), reason: review.closeReason },
  });
}

/** What an offer definition is, for the log: its content, status and version, without the service's timestamps and ETag. */
function definitionContent(definition: OfferDefinition): Record<string, unknown> {
  const { createdAt: _created, updatedAt: _updated, gameId: _game, offerId: _offer, etag: _etag, ...content } = definition;
  return content;
}

/**
 * POST /api/offers/games/:gameId/definitions (create), PUT …/:offerId (update) and POST …/:offerId/{activate,pause,archive,restore}:
 * one entry when the definition changed, with the fields that changed before and after (a creation: all of it after).
 */
export async function auditDefinitionChange(
  services: AuditServices,
  request: Request,
  user: AuditActor,
  gameId: string,
  action: "create" | "update" | DefinitionAction,
  change: AdminDefinitionChange,
): Promise<void> {
  if (!change.changed) return;
  const { definition, before } = change;
  const diff = before ? changedFields(definitionContent(before), definitionContent(definition)) : null;
  const job = change.job ? { job: { id: change.job.id, reason: change.job.reason, status: change.job.status } } : {};
  const verbs = { create: "created", update: "edited", activate: "activated", pause: "paused", archive: "archived", restore: "restored to draft" } as const;
  const what = action === "update" && diff ? `: ${diff.fields.slice(0, 5).join(", ")}${diff.fields.length > 5 ? ` and ${diff.fields.length - 5} more` : ""}` : "";
  await recordAudit(services, request, user, {
    action: `offer-definition.${action}`,
    targetType: "offer-definition",
    target: `${gameId}/${definition.offerId}`,
    summary: `${verbs[action]} offer ${definition.offerId} (${definition.name}) of ${gameId}${what}`,
    before: diff ? diff.before : null,
    after: diff ? { ...diff.after, ...job } : { ...definitionContent(definition), ...job },
  });
}
