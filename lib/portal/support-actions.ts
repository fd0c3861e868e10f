/**
 * Support's acts on one player's offers and deliveries in the portal: expire, revoke, extend or make
 * claimable an offer, re-offer a definition, re-send the player's deliveries. The offers service keeps
 * the state and the rules (its status machine; the history records cause support, who and why); the
 * actor is always the signed-in user. Every act is audited with its reason, before and after.
 */
import "server-only";
import { recordAudit, type AuditContext } from "./audit";
import type { PortalServices } from "./services";
import type { ExtendOfferBody, OfferActionBody, ReofferBody, ResendDeliveriesBody } from "./support-shapes";
import type { AdminPlayerState, SupportOfferAction } from "../offers-client/schemas";

type Services = Pick<PortalServices, "offersAdmin" | "db">;
type OfferView = Pick<AdminPlayerState["offers"][number], "offerId" | "instanceId" | "status" | "expiresAt">;

/** What the audit entry keeps of an offer. */
const stateOf = (o: OfferView) => ({ offerId: o.offerId, instanceId: o.instanceId, status: o.status, expiresAt: o.expiresAt });

const DONE: Record<SupportOfferAction, string> = { expire: "expired", revoke: "revoked", extend: "extended", "make-claimable": "made claimable" };

/** The offer as it is now, for the audit's before (null when the service does not show it). */
async function offerBefore(services: Services, gameId: string, playerId: string, instanceId: string): Promise<OfferView | null> {
  const state = await services.offersAdmin().playerState(gameId, playerId);
  return state.offers.find((o) => o.instanceId === instanceId) ?? null;
}

/**
 * Expires, revokes, extends or makes claimable one of the player's offers. A repeat (the offer already
 * is where the action leads) changes nothing and is not audited again.
 */
export async function actOnOffer(
  services: Services,
  by: AuditContext,
  target: { gameId: string; playerId: string; instanceId: string },
  action: SupportOfferAction,
  body: OfferActionBody | ExtendOfferBody,
) {
  const { gameId, playerId, instanceId } = target;
  const admin = services.offersAdmin();
  const before = await offerBefore(services, gameId, playerId, instanceId);
  const request = { actor: by.actor.id, reason: body.reason };
  const result =
    action === "extend"
      ? await admin.supportExtendOffer(gameId, playerId, instanceId, { ...request, expiresAt: (body as ExtendOfferBody).expiresAt })
      : await admin.supportOfferAction(gameId, playerId, instanceId, action, request);
  if (result.changed) {
    const until = action === "extend" ? ` until ${result.offer.expiresAt}` : "";
    await recordAudit(() => services.db(), by, {
      action: `support-offer.${action}`,
      targetType: "offer-instance",
      target: `${gameId}/${playerId}/${instanceId}`,
      summary: `${DONE[action]} ${result.offer.name} (${result.offer.offerId}) of ${playerId} of ${gameId}${until}: ${body.reason}`,
      before: before ? stateOf(before) : null,
      after: stateOf(result.offer),
    }, "after-remote-change");
  }
  return result;
}

/** Re-offer: assigns a definition of the game to the player (surfaced when a slot is free, else queued). */
export async function reoffer(services: Services, by: AuditContext, gameId: string, playerId: string, body: ReofferBody) {
  const offer = await services.offersAdmin().supportReoffer(gameId, playerId, { offerId: body.offerId, actor: by.actor.id, reason: body.reason });
  await recordAudit(() => services.db(), by, {
    action: "support-offer.reoffer",
    targetType: "offer-instance",
    target: `${gameId}/${playerId}/${offer.instanceId}`,
    summary: `offered ${offer.name} (${offer.offerId}) again to ${playerId} of ${gameId} (${offer.status}): ${body.reason}`,
    before: null,
    after: stateOf(offer),
  }, "after-remote-change");
  return offer;
}

/** Sends the player's deliveries again (all, or one); a repeat within seconds sends nothing more. */
export async function resendDeliveries(services: Services, by: AuditContext, gameId: string, playerId: string, body: ResendDeliveriesBody) {
  const result = await services.offersAdmin().supportResendDeliveries(gameId, playerId, { ...body, actor: by.actor.id });
  const which = body.deliveryId === undefined ? "every delivery" : `delivery ${body.deliveryId}`;
  await recordAudit(() => services.db(), by, {
    action: "support-deliveries.resend",
    targetType: "player",
    target: `${gameId}/${playerId}`,
    summary: `sent ${which} of ${playerId} of ${gameId} again (${result.replayed} queued): ${body.reason}`,
    before: null,
    after: { deliveryId: body.deliveryId ?? null, replayed: result.replayed },
  }, "after-remote-change");
  return result;
}

/** The player's webhook deliveries, newest first (what re-send sends again). */
export function playerDeliveries(services: Services, gameId: string, playerId: string, signal?: AbortSignal) {
  return services.offersAdmin().webhookDeliveries(gameId, { playerId, limit: 50 }, signal);
}
