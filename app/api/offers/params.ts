// Shared by the offers proxy routes: path and query parameters, checked before they reach the offers service.
import { z } from "zod";
import { DeliveryId, Identifier } from "@/lib/offers-client/schemas";

// The offers service's one rule for ids, so an id it would refuse is refused here with the same words.
export const GameParams = z.object({ gameId: Identifier });
export const PlayerParams = z.object({ gameId: Identifier, playerId: Identifier });
export const PlayerQuery = z.object({
  q: z.string().max(200).default(""),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

// Reward delivery (live ops).
export const EndpointParams = z.object({ gameId: Identifier, endpointId: Identifier });
export const DeliveryParams = z.object({ gameId: Identifier, deliveryId: DeliveryId });
