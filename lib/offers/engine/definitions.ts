/**
 * Offer definitions of a game: create, replace, change of status, read. Every change adds one to the
 * definition's version (a write that changes nothing keeps it), so automatic assignments and
 * surfacing jobs can name the rule they ran; its ETag follows the version (../preconditions).
 */
import { and, asc, eq } from "drizzle-orm";
import { stringify as canonicalJson } from "safe-stable-stringify";
import { OffersError } from "../errors";
import type { OffersExecutor } from "../db";
import { checkPrecondition, type Precondition } from "../preconditions";
import { offerDefinitions } from "../db/schema";
import type { DefinitionStatus, OfferDefinition, OfferDefinitionInput } from "../contract";
import type { DefinitionRow } from "./types";
import { definitionEtag, toDefinition } from "./views";

/** The stored columns of an input (everything a replace sets, status and version aside). */
export function definitionValues(input: OfferDefinitionInput) {
  const variants = input.variants?.length ? input.variants : null;
  return {
    name: input.name,
    description: input.description ?? "",
    image: input.image ?? null,
    rewards: input.rewards?.length ? input.rewards : variants![0].rewards,
    completionConditions: input.completionConditions?.length ? input.completionConditions : null,
    realTime: input.realTime ?? false,
    durationSeconds: input.durationSeconds,
    priority: input.priority ?? 0,
    audience: input.audience ?? null,
    startsAt: input.schedule?.startsAt ? new Date(input.schedule.startsAt) : null,
    endsAt: input.schedule?.endsAt ? new Date(input.schedule.endsAt) : null,
    maxActivationsPerPlayer: input.limits?.maxActivationsPerPlayer ?? 1,
    cooldownSeconds: input.limits?.cooldownSeconds ?? 0,
    maxClaimsTotal: input.limits?.maxClaimsTotal ?? null,
    rollout: input.rollout ?? 100,
    variants,
  };
}

type DefinitionValues = ReturnType<typeof definitionValues>;

/**
 * Whether a replace would change the stored definition. Compared as canonical JSON (keys sorted at
 * every level, absent and undefined alike): jsonb columns (rewards, audience, variants) come back
 * with their keys in the database's order, not the order they were written in.
 */
function sameContent(row: DefinitionRow, values: DefinitionValues): boolean {
  const stored: Record<string, unknown> = {};
  for (const key of Object.keys(values) as Array<keyof DefinitionValues>) stored[key] = row[key];
  return canonicalJson(stored) === canonicalJson(values);
}

export interface DefinitionWrite {
  definition: OfferDefinition;
  /** The row before the write (null: created). */
  before: DefinitionRow | null;
  row: DefinitionRow;
  changed: boolean;
}

/**
 * Creates or replaces a definition. `status` absent: a new one is `active` (or `defaultStatus`), an
 * existing one keeps its status. `precondition`: a replace is checked against it (412 on a stale ETag,
 * 428 without one where required); creating needs none, and an If-Match naming a definition that does
 * not exist is offer-not-found. `create`: refuse with definition-exists when it exists.
 */
export async function writeDefinition(
  tx: OffersExecutor,
  now: Date,
  gameId: string,
  offerId: string,
  input: OfferDefinitionInput,
  options: { precondition?: Precondition; create?: boolean; defaultStatus?: DefinitionStatus } = {},
): Promise<DefinitionWrite> {
  if (input.offerId !== undefined && input.offerId !== offerId) throw new OffersError("offer-id-mismatch");
  const values = definitionValues(input);
  const before = await definitionRow(tx, gameId, offerId, { lock: "update" });
  if (before && options.create) throw new OffersError("definition-exists", offerId);
  if (before) checkPrecondition(options.precondition, definitionEtag(before), `offer definition ${offerId}`);
  else if (options.precondition?.ifMatch !== undefined) throw new OffersError("offer-not-found", `${offerId} (If-Match names a definition that does not exist)`);
  if (!before) {
    const status = input.status ?? options.defaultStatus ?? "active";
    const [row] = await tx
      .insert(offerDefinitions)
      .values({ gameId, offerId, ...values, status, version: 1, createdAt: now, updatedAt: now })
      .onConflictDoNothing()
      .returning();
    // A twin insert won the race: this write is the later one, and replaces it only as a replace may
    // (without If-Match: where one is required, 428 — a creation never overwrites silently).
    if (!row) return writeDefinition(tx, now, gameId, offerId, input, { ...options, create: false });
    return { definition: toDefinition(row), before: null, row, changed: true };
  }
  const status = input.status ?? before.status;
  if (sameContent(before, values) && status === before.status) return { definition: toDefinition(before), before, row: before, changed: false };
  const [row] = await tx
    .update(offerDefinitions)
    .set({ ...values, status, version: before.version + 1, updatedAt: now })
    .where(and(eq(offerDefinitions.gameId, gameId), eq(offerDefinitions.offerId, offerId)))
    .returning();
  return { definition: toDefinition(row), before, row, changed: true };
}

/**
 * Moves a definition to a status (activate, pause, archive, back to draft); the same status is no change.
 * `precondition`: checked as a replace's.
 */
export async function setDefinitionStatus(tx: OffersExecutor, now: Date, gameId: string, offerId: string, status: DefinitionStatus, precondition?: Precondition): Promise<DefinitionWrite> {
  const before = await definitionRow(tx, gameId, offerId, { lock: "update" });
  if (!before) throw new OffersError("offer-not-found", offerId);
  checkPrecondition(precondition, definitionEtag(before), `offer definition ${offerId}`);
  if (before.status === status) return { definition: toDefinition(before), before, row: before, changed: false };
  if (before.status === "archived" && status !== "draft") throw new OffersError("definition-archived", `${offerId} is archived; move it back to draft first`);
  const [row] = await tx
    .update(offerDefinitions)
    .set({ status, version: before.version + 1, updatedAt: now })
    .where(and(eq(offerDefinitions.gameId, gameId), eq(offerDefinitions.offerId, offerId)))
    .returning();
  return { definition: toDefinition(row), before, row, changed: true };
}

/**
 * A definition as stored. `lock`: held until the transaction ends — "update" by writers of the
 * definition, "share" by those whose work must not outlive a change of it (a writer waits for them,
 * and they read the change once it is committed).
 */
export async function definitionRow(db: OffersExecutor, gameId: string, offerId: string, options: { lock?: "update" | "share" } = {}): Promise<DefinitionRow | undefined> {
  const query = db
    .select()
    .from(offerDefinitions)
    .where(and(eq(offerDefinitions.gameId, gameId), eq(offerDefinitions.offerId, offerId)));
  const [row] = options.lock ? await query.for(options.lock) : await query;
  return row;
}

export async function getDefinition(db: OffersExecutor, gameId: string, offerId: string): Promise<OfferDefinition | null> {
  const row = await definitionRow(db, gameId, offerId);
  return row ? toDefinition(row) : null;
}

export async function listDefinitions(db: OffersExecutor, gameId: string): Promise<DefinitionRow[]> {
  return db.select().from(offerDefinitions).where(eq(offerDefinitions.gameId, gameId)).orderBy(asc(offerDefinitions.offerId));
}
