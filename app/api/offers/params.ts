// Shared by the offers proxy routes: path and query parameters, checked before they reach the offers service.
import { z } from "zod";

const Id = z.string().min(1).max(200);
export const GameParams = z.object({ gameId: Id });
export const PlayerParams = z.object({ gameId: Id, playerId: Id });
export const PlayerQuery = z.object({
  q: z.string().max(200).default(""),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
