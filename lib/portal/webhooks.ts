/**
 * Reward delivery in the portal (live ops): a game's webhook endpoints, the delivery log and replays,
 * through the offers service's admin API. Every change is audited; a signing secret passes through
 * to the one answer that shows it and is never written to the audit log.
 *
 * Writes are not tied to the browser's request: once sent, a change completes (and is audited) even
 * if the page that asked for it has gone. A change, rotation or delete names the endpoint's ETag
 * (If-Match, passed through): the offers service refuses a stale one with the current ETag.
 */
import "server-only";
import { recordAudit, type AuditContext, type AuditEntryInput } from "./audit";
import type { WebhookEndpointChange, WebhookEndpointSettings, WebhookLogQuery, WebhookReplayRange } from "./offers-admin";
import type { PortalServices } from "./services";

type Services = Pick<PortalServices, "offersAdmin" | "db">;

/** Every change here is made in the offers service: audited right after it answered. */
const audited = (services: Services, by: AuditContext, entry: AuditEntryInput) => recordAudit(() => services.db(), by, entry, "after-remote-change");

export function webhooksOverview(services: Services, gameId: string, signal?: AbortSignal) {
  return services.offersAdmin().webhooks(gameId, signal);
}

export function webhookEndpoint(services: Services, gameId: string, endpointId: string, signal?: AbortSignal) {
  return services.offersAdmin().webhookEndpoint(gameId, endpointId, signal);
}

export function deliveryLog(services: Services, gameId: string, query: WebhookLogQuery, signal?: AbortSignal) {
  return services.offersAdmin().webhookDeliveries(gameId, query, signal);
}

/** The settings an audit entry keeps of an endpoint (never its secret). */
const settingsOf = (e: { url: string; description: string; eventTypes: string[]; enabled: boolean }) => ({
  url: e.url,
  description: e.description,
  eventTypes: e.eventTypes,
  enabled: e.enabled,
});

export async function addEndpoint(services: Services, by: AuditContext, gameId: string, input: WebhookEndpointSettings) {
  const created = await services.offersAdmin().createWebhookEndpoint(gameId, input);
  await audited(services, by, {
    action: "webhook.create",
    targetType: "webhook",
    target: `${gameId}/${created.endpointId}`,
    summary: `added webhook endpoint ${created.url} to ${gameId}${created.enabled ? "" : " (disabled)"}`,
    after: settingsOf(created),
  });
  return created;
}

export async function changeEndpoint(services: Services, by: AuditContext, gameId: string, endpointId: string, change: WebhookEndpointChange, ifMatch: string) {
  const admin = services.offersAdmin();
  const before = (await admin.webhooks(gameId)).endpoints.find((e) => e.endpointId === endpointId);
  const updated = await admin.updateWebhookEndpoint(gameId, endpointId, change, ifMatch);
  const what =
    change.enabled !== undefined && Object.keys(change).length === 1 ? (change.enabled ? "enabled" : "disabled") : `changed (${Object.keys(change).join(", ")})`;
  await audited(services, by, {
    action: "webhook.update",
    targetType: "webhook",
    target: `${gameId}/${endpointId}`,
    summary: `${what} webhook endpoint ${updated.url} of ${gameId}`,
    before: before ? settingsOf(before) : null,
    after: settingsOf(updated),
  });
  return updated;
}

/** Deletes an endpoint (its deliveries go with it); the audit entry keeps its settings as they were. */
export async function deleteEndpoint(services: Services, by: AuditContext, gameId: string, endpointId: string, ifMatch: string) {
  const admin = services.offersAdmin();
  const before = (await admin.webhooks(gameId)).endpoints.find((e) => e.endpointId === endpointId);
  const deleted = await admin.deleteWebhookEndpoint(gameId, endpointId, ifMatch);
  await audited(services, by, {
    action: "webhook.delete",
    targetType: "webhook",
    target: `${gameId}/${endpointId}`,
    summary: `deleted webhook endpoint ${before?.url ?? endpointId} of ${gameId}`,
    before: before ? settingsOf(before) : null,
    after: null,
  });
  return { endpointId, ...deleted };
}

export async function rotateSecret(services: Services, by: AuditContext, gameId: string, endpointId: string, ifMatch: string) {
  const rotated = await services.offersAdmin().rotateWebhookSecret(gameId, endpointId, ifMatch);
  await audited(services, by, {
    action: "webhook.rotate-secret",
    targetType: "webhook",
    target: `${gameId}/${endpointId}`,
    summary: `rotated the signing secret of webhook endpoint ${endpointId} of ${gameId} (the previous one signs until ${rotated.previousSecretExpiresAt})`,
    after: { previousSecretExpiresAt: rotated.previousSecretExpiresAt },
  });
  return rotated;
}

export async function sendTestEvent(services: Services, by: AuditContext, gameId: string, endpointId: string) {
  const sent = await services.offersAdmin().sendWebhookTest(gameId, endpointId);
  await audited(services, by, {
    action: "webhook.test",
    targetType: "webhook",
    target: `${gameId}/${endpointId}`,
    summary: `sent a test event to webhook endpoint ${endpointId} of ${gameId}`,
    after: sent,
  });
  return sent;
}

export async function replayDelivery(services: Services, by: AuditContext, gameId: string, deliveryId: number) {
  const replayed = await services.offersAdmin().replayWebhookDelivery(gameId, deliveryId);
  await audited(services, by, {
    action: "webhook.replay",
    targetType: "webhook",
    target: `${gameId}/delivery/${deliveryId}`,
    summary: `replayed delivery ${deliveryId} of ${gameId}`,
    after: { deliveryId, replayed: replayed.replayed },
  });
  return replayed;
}

export async function replayFailed(services: Services, by: AuditContext, gameId: string, range: WebhookReplayRange) {
  const replayed = await services.offersAdmin().replayFailedWebhooks(gameId, range);
  await audited(services, by, {
    action: "webhook.replay",
    targetType: "webhook",
    target: range.endpointId ? `${gameId}/${range.endpointId}` : gameId,
    summary: `replayed ${replayed.replayed} failed deliver${replayed.replayed === 1 ? "y" : "ies"} of ${gameId} from ${range.from} to ${range.to}`,
    after: { ...range, replayed: replayed.replayed },
  });
  return replayed;
}
