// Shared by the offers proxy routes: path and query parameters, checked before they reach the offers service.
import { z } from "zod";
import { DeliveryId, Identifier, PlayerSearchQuery } from "@/lib/offers-client/schemas";
import { ifMatchRequired } from "@/lib/portal/http";

// The offers service's one rule for ids, so an id it would refuse is refused here with the same words.
export const GameParams = z.object({ gameId: Identifier });
export const PlayerParams = z.object({ gameId: Identifier, playerId: Identifier });
export const DefinitionParams = z.object({ gameId: Identifier, offerId: Identifier });
export const PlayerQuery = PlayerSearchQuery;
/** The window of per-day funnel figures, in UTC days ending today. */
export const DaysQuery = z.object({ days: z.coerce.number().int().min(1).max(90).default(14) });

/** Who authors, targets, activates and measures offers. */
export const LIVE_OPS = "liveops" as const;

/** If-Match of a change of a definition (an edit or a status change): its ETag, passed to the offers service as it came. */
export const DefinitionIfMatch = ifMatchRequired("GET /api/offers/games/:gameId/definitions/:offerId (or the definition's etag in its game's list)");

/** If-Match of a change, rotation or delete of a webhook endpoint: its ETag. */
export const EndpointIfMatch = ifMatchRequired("GET /api/offers/games/:gameId/webhooks/endpoints/:endpointId (or the endpoint's etag in GET …/webhooks)");

// Reward delivery (live ops).
export const EndpointParams = z.object({ gameId: Identifier, endpointId: Identifier });
export const DeliveryParams = z.object({ gameId: Identifier, deliveryId: DeliveryId });
