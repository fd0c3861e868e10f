/** A game's currencies, as game servers declare them. */
import { z } from "zod";
import { ExternalId, ImageUrl } from "./scalars";

export const CurrencyInput = z.strictObject({ name: z.string().min(1).max(200), image: ImageUrl });
export type CurrencyInput = z.infer<typeof CurrencyInput>;
export const Currency = z.object({ gameId: z.string(), id: z.string(), name: z.string(), image: z.string() });
export type Currency = z.infer<typeof Currency>;
export const CurrencyParams = z.object({ currencyId: ExternalId });
