/**
 * Connects the offer engine to the event stream: every committed transition is published on the
 * player's bus channel, and replay reads surfaced real-time offers from the event history.
 */
import { and, asc, eq, gt } from "drizzle-orm";
import type { EventBus } from "../../events";
import type { OffersDatabase } from "../db";
import { offerEvents, offerInstances, players } from "../db/schema";
import { toOffer, type OfferEvent, type OffersEngine } from "../engine";
import { playerChannel, type HubLogger, type OfferEventMessage, type PlayerKey, type SurfacedSince } from "./hub";

export function toBusMessage(event: OfferEvent): OfferEventMessage {
  return {
    kind: "offer_event",
    seq: event.seq,
    type: event.type,
    instanceId: event.instanceId,
    offerId: event.offer.offerId,
    fromStatus: event.fromStatus,
    toStatus: event.toStatus,
    cause: event.cause,
    at: event.at,
    actor: event.actor,
    realTime: event.offer.realTime ?? false,
    offer: event.offer,
  };
}

/** Publishes every engine transition on the bus. Answers the function that stops it. */
export function publishEngineEvents(engine: OffersEngine, bus: EventBus, logger: HubLogger): () => void {
  return engine.onOfferEvent((event) => {
    bus.publish(playerChannel(event), JSON.stringify(toBusMessage(event))).catch((error: unknown) => {
      // Streams on other instances catch up from the database at their next message or reconnect.
      logger.warn({ err: (error as Error).message, player: { gameId: event.gameId, playerId: event.playerId } }, "event publish failed");
    });
  });
}

const REPLAY_BATCH = 500;

/** Surfaced real-time offers of a player after a seq, as they were when they surfaced. */
export async function loadSurfacedSince(db: OffersDatabase, key: PlayerKey, afterSeq: number | null): Promise<SurfacedSince> {
  const [player] = await db
    .select({ eventSeq: players.eventSeq })
    .from(players)
    .where(and(eq(players.gameId, key.gameId), eq(players.playerId, key.playerId)));
  const lastSeq = player?.eventSeq ?? 0;
  if (afterSeq === null || afterSeq >= lastSeq) return { events: [], lastSeq };
  const rows = await db
    .select({ seq: offerEvents.seq, instance: offerInstances })
    .from(offerEvents)
    .innerJoin(offerInstances, eq(offerInstances.instanceId, offerEvents.instanceId))
    .where(
      and(
        eq(offerEvents.gameId, key.gameId),
        eq(offerEvents.playerId, key.playerId),
        gt(offerEvents.seq, afterSeq),
        eq(offerEvents.type, "surfaced"),
        eq(offerInstances.realTime, true),
      ),
    )
    .orderBy(asc(offerEvents.seq))
    .limit(REPLAY_BATCH);
  return {
    events: rows.map((row) => ({ seq: row.seq, offer: { ...toOffer(row.instance), status: "surfaced" as const } })),
    // A full batch: stop at its last event, so the rest comes with the next catch-up or reconnect.
    lastSeq: rows.length === REPLAY_BATCH ? rows[rows.length - 1]!.seq : lastSeq,
  };
}
