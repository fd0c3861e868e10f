/** Offer definitions of a game: upsert and read. */
import { and, eq } from "drizzle-orm";
import { OffersError } from "../errors";
import type { OffersExecutor } from "../db";
import { offerDefinitions } from "../db/schema";
import type { OfferDefinition, OfferDefinitionInput } from "../schemas";
import { toDefinition } from "./views";

export async function upsertDefinition(db: OffersExecutor, now: Date, gameId: string, offerId: string, input: OfferDefinitionInput): Promise<OfferDefinition> {
  if (input.offerId !== undefined && input.offerId !== offerId) throw new OffersError("offer-id-mismatch");
  const values = {
    name: input.name,
    description: input.description ?? "",
    image: input.image ?? null,
    rewards: input.rewards,
    completionConditions: input.completionConditions?.length ? input.completionConditions : null,
    realTime: input.realTime ?? false,
    durationSeconds: input.durationSeconds,
    priority: input.priority ?? 0,
    updatedAt: now,
  };
  const [row] = await db
    .insert(offerDefinitions)
    .values({ gameId, offerId, ...values, createdAt: now })
    .onConflictDoUpdate({ target: [offerDefinitions.gameId, offerDefinitions.offerId], set: values })
    .returning();
  return toDefinition(row);
}

export async function definitionRow(db: OffersExecutor, gameId: string, offerId: string) {
  const [row] = await db
    .select()
    .from(offerDefinitions)
    .where(and(eq(offerDefinitions.gameId, gameId), eq(offerDefinitions.offerId, offerId)));
  return row;
}

export async function getDefinition(db: OffersExecutor, gameId: string, offerId: string): Promise<OfferDefinition | null> {
  const row = await definitionRow(db, gameId, offerId);
  return row ? toDefinition(row) : null;
}
