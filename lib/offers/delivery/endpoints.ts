/**
 * A game's webhook endpoints: URL, event types, enabled, and a signing secret shown once. The
 * secret is stored sealed with OFFERS_SECRET_KEY (like API keys: signing needs the secret itself).
 * A rotation keeps the previous secret signing beside the new one for 24 hours, so a receiver can
 * switch without losing a delivery (Standard Webhooks allows several `v1,` signatures).
 * A change, rotation or delete takes a precondition (If-Match of the endpoint's ETag, ../preconditions).
 */
import { randomBytes } from "node:crypto";
import { and, asc, count, eq } from "drizzle-orm";
import type { Clock } from "../clock";
import type { OffersDatabase, OffersTx } from "../db";
import { games, webhookDeliveries, webhookEndpoints } from "../db/schema";
import { environmentOf, publicGameId } from "../environments";
import { OffersError } from "../errors";
import { checkPrecondition, opaqueEtag, type Precondition } from "../preconditions";
import type { SecretBox } from "../secret-box";
import type {
  WebhookEndpoint,
  WebhookEndpointCreated,
  WebhookEndpointDraft,
  WebhookEndpointPatch,
  WebhookReplayRequest,
  WebhookSecretRotated,
  WebhookTestEvent,
  WebhookTestSent,
} from "../contract";
import { WebhookEndpointInput } from "../contract";
import { AddressNotAllowedError, checkEndpointUrl, type AddressPolicy } from "./address-guard";
import { replayDelivery, replayFailed, replayPlayerDeliveries } from "./delivery-log";

/**
 * What a change made here means for this instance's delivery worker: "endpoints" (one was created,
 * changed or removed: which games a claim should wake it for), "due" (deliveries were made due now:
 * a replay, a test event).
 */
export type DeliveryChange = "endpoints" | "due";

export const MAX_ENDPOINTS_PER_GAME = 20;
/** How long the secret before a rotation keeps signing. */
export const PREVIOUS_SECRET_TTL_MS = 24 * 3600 * 1000;

export type EndpointRow = typeof webhookEndpoints.$inferSelect;

/** whsec_ + base64 of 32 random bytes: the format of the standardwebhooks libraries. */
export function generateSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

export function generateEndpointId(): string {
  return `ep_${randomBytes(12).toString("hex")}`;
}

export function generateMessageId(): string {
  return `msg_${randomBytes(16).toString("hex")}`;
}

/**
 * An endpoint's ETag: every column a change, a rotation (the sealed secret is new each time) or a
 * re-creation under the same id would move.
 */
export function endpointEtag(row: EndpointRow): string {
  return opaqueEtag(
    "webhook-endpoint",
    row.gameId,
    row.endpointId,
    row.createdAt.getTime(),
    row.updatedAt.getTime(),
    row.url,
    row.description,
    JSON.stringify(row.eventTypes),
    String(row.enabled),
    row.encryptedSecret,
  );
}

export function toWebhookEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    endpointId: row.endpointId,
    gameId: publicGameId(row.gameId),
    url: row.url,
    description: row.description,
    eventTypes: row.eventTypes,
    enabled: row.enabled,
    previousSecretExpiresAt: row.previousSecretExpiresAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    etag: endpointEtag(row),
  };
}

export class WebhookEndpoints {
  private readonly listeners = new Set<(change: DeliveryChange) => void>();

  constructor(
    private readonly db: OffersDatabase,
    private readonly box: SecretBox,
    private readonly clock: Clock,
    private readonly policy: AddressPolicy,
  ) {}

  /** Subscribes to changes committed through this object (after commit); answers the unsubscribe. */
  onChange(listener: (change: DeliveryChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(change: DeliveryChange): void {
    for (const listener of this.listeners) listener(change);
  }

  async list(gameId: string): Promise<WebhookEndpoint[]> {
    const rows = await this.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.gameId, gameId)).orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.endpointId));
    return rows.map(toWebhookEndpoint);
  }

  async get(gameId: string, endpointId: string): Promise<WebhookEndpoint> {
    return toWebhookEndpoint(await this.row(gameId, endpointId));
  }

  private async row(gameId: string, endpointId: string): Promise<EndpointRow> {
    const [row] = await this.db
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.gameId, gameId), eq(webhookEndpoints.endpointId, endpointId)));
    if (!row) throw new OffersError("webhook-endpoint-not-found", endpointId);
    return row;
  }

  private async checkUrl(url: string): Promise<void> {
    try {
      await checkEndpointUrl(new URL(url), this.policy);
    } catch (error) {
      if (error instanceof AddressNotAllowedError) throw new OffersError("webhook-url-not-allowed", error.message);
      throw error;
    }
  }

  /** Creates an endpoint; answers it with its signing secret, shown this once. */
  async create(gameId: string, draft: WebhookEndpointDraft): Promise<WebhookEndpointCreated> {
    const input = WebhookEndpointInput.parse(draft);
    await this.checkUrl(input.url);
    const secret = generateSigningSecret();
    const now = this.clock.now();
    const row = await this.db.transaction(async (tx) => {
      // The game's row lock serialises creations, so the limit holds under concurrent calls.
      const [game] = await tx.select({ gameId: games.gameId }).from(games).where(eq(games.gameId, gameId)).for("update");
      if (!game) throw new OffersError("game-not-found", gameId);
      const [{ n }] = await tx.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.gameId, gameId));
      if (n >= MAX_ENDPOINTS_PER_GAME) throw new OffersError("too-many-webhook-endpoints", `a game has at most ${MAX_ENDPOINTS_PER_GAME} endpoints`);
      const [inserted] = await tx
        .insert(webhookEndpoints)
        .values({
          endpointId: generateEndpointId(),
          gameId,
          url: input.url,
          description: input.description,
          eventTypes: [...new Set(input.eventTypes)],
          enabled: input.enabled,
          encryptedSecret: this.box.encrypt(secret),
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      return inserted!;
    });
    this.changed("endpoints");
    return { ...toWebhookEndpoint(row), secret };
  }

  /**
   * The endpoint locked for a change in `tx`, once its precondition holds: webhook-endpoint-not-found,
   * then 428 or 412 (../preconditions). The lock makes check and change one step: of two changes sent
   * with the same ETag, the second finds the first's and is refused.
   */
  private async lockedFor(tx: OffersTx, gameId: string, endpointId: string, precondition: Precondition | undefined): Promise<EndpointRow> {
    const [current] = await tx
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.gameId, gameId), eq(webhookEndpoints.endpointId, endpointId)))
      .for("update");
    if (!current) throw new OffersError("webhook-endpoint-not-found", endpointId);
    checkPrecondition(precondition, endpointEtag(current), `webhook endpoint ${endpointId}`);
    return current;
  }

  async update(gameId: string, endpointId: string, patch: WebhookEndpointPatch, precondition?: Precondition): Promise<WebhookEndpoint> {
    if (patch.url !== undefined) await this.checkUrl(patch.url);
    const row = await this.db.transaction(async (tx) => {
      await this.lockedFor(tx, gameId, endpointId, precondition);
      const [updated] = await tx
        .update(webhookEndpoints)
        .set({
          ...(patch.url !== undefined ? { url: patch.url } : {}),
          ...(patch.description !== undefined ? { description: patch.description } : {}),
          ...(patch.eventTypes !== undefined ? { eventTypes: [...new Set(patch.eventTypes)] } : {}),
          ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
          updatedAt: this.clock.now(),
        })
        .where(and(eq(webhookEndpoints.gameId, gameId), eq(webhookEndpoints.endpointId, endpointId)))
        .returning();
      return updated!;
    });
    this.changed("endpoints");
    return toWebhookEndpoint(row);
  }

  /** Deletes an endpoint with its deliveries and their log. */
  async remove(gameId: string, endpointId: string, precondition?: Precondition): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.lockedFor(tx, gameId, endpointId, precondition);
      await tx.delete(webhookEndpoints).where(and(eq(webhookEndpoints.gameId, gameId), eq(webhookEndpoints.endpointId, endpointId)));
    });
    this.changed("endpoints");
  }

  /** A new signing secret, shown once; the current one keeps signing beside it for 24 hours. */
  async rotateSecret(gameId: string, endpointId: string, precondition?: Precondition): Promise<WebhookSecretRotated> {
    const secret = generateSigningSecret();
    const now = this.clock.now();
    const expires = new Date(now.getTime() + PREVIOUS_SECRET_TTL_MS);
    const row = await this.db.transaction(async (tx) => {
      const current = await this.lockedFor(tx, gameId, endpointId, precondition);
      const [updated] = await tx
        .update(webhookEndpoints)
        .set({ encryptedSecret: this.box.encrypt(secret), previousEncryptedSecret: current.encryptedSecret, previousSecretExpiresAt: expires, updatedAt: now })
        .where(eq(webhookEndpoints.endpointId, endpointId))
        .returning();
      return updated!;
    });
    return { endpointId: row.endpointId, secret, previousSecretExpiresAt: row.previousSecretExpiresAt!.toISOString(), etag: endpointEtag(row) };
  }

  /** Queues a `webhook.test` event for one endpoint (delivered, retried and logged like any other). */
  async sendTest(gameId: string, endpointId: string): Promise<WebhookTestSent> {
    const endpoint = await this.row(gameId, endpointId);
    const now = this.clock.now();
    const messageId = generateMessageId();
    const payload: WebhookTestEvent = {
      id: messageId,
      type: "webhook.test",
      timestamp: now.toISOString(),
      data: { gameId: publicGameId(gameId), environment: environmentOf(gameId), endpointId, message: "A test event from the offers service: if you can read this, your endpoint receives and can verify deliveries." },
    };
    const [row] = await this.db
      .insert(webhookDeliveries)
      .values({
        endpointId: endpoint.endpointId,
        gameId,
        messageId,
        eventType: payload.type,
        payload,
        nextAttemptAt: now,
        eventAt: now,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: webhookDeliveries.id });
    this.changed("due");
    return { messageId, deliveryId: row!.id };
  }

  /** Sends one delivery again (any status), with the same webhook-id; its schedule starts over. */
  async replay(gameId: string, deliveryId: number): Promise<void> {
    await replayDelivery(this.db, gameId, deliveryId, this.clock.now());
    this.changed("due");
  }

  /** Sends one player's deliveries again (all, or one), a repeat within seconds sending nothing more; answers how many are queued again. */
  async replayPlayer(gameId: string, playerId: string, deliveryId?: number): Promise<number> {
    const replayed = await replayPlayerDeliveries(this.db, gameId, playerId, this.clock.now(), deliveryId);
    if (replayed > 0) this.changed("due");
    return replayed;
  }

  /** Sends again every failed delivery of the game whose event happened in [from, to); answers how many. */
  async replayFailed(gameId: string, request: WebhookReplayRequest): Promise<number> {
    const replayed = await replayFailed(this.db, gameId, request, this.clock.now());
    if (replayed > 0) this.changed("due");
    return replayed;
  }
}

/** The secrets that sign a delivery now: the current one, and the previous one until it expires. */
export function signingSecrets(box: SecretBox, row: Pick<EndpointRow, "encryptedSecret" | "previousEncryptedSecret" | "previousSecretExpiresAt">, now: Date): string[] {
  const secrets = [box.decrypt(row.encryptedSecret)];
  if (row.previousEncryptedSecret && row.previousSecretExpiresAt && row.previousSecretExpiresAt.getTime() > now.getTime()) {
    secrets.push(box.decrypt(row.previousEncryptedSecret));
  }
  return secrets;
}
