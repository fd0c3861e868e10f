// Shared by the offers proxy routes: path and query parameters, checked before they reach the offers service.
import { z } from "zod";
import { DeliveryId, Identifier } from "@/lib/offers-client/schemas";
import { PortalError } from "@/lib/portal/http";

// The offers service's one rule for ids, so an id it would refuse is refused here with the same words.
export const GameParams = z.object({ gameId: Identifier });
export const PlayerParams = z.object({ gameId: Identifier, playerId: Identifier });
export const DefinitionParams = z.object({ gameId: Identifier, offerId: Identifier });
export const PlayerQuery = z.object({
  q: z.string().max(200).default(""),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
/** The window of per-day funnel figures, in UTC days ending today. */
export const DaysQuery = z.object({ days: z.coerce.number().int().min(1).max(90).default(14) });

/** Who authors, targets, activates and measures offers. */
export const LIVE_OPS = "liveops" as const;

/**
 * If-Match of a definition edit: the version it was loaded at, as the definition's ETag ("3"). Required, so
 * an edit never silently overwrites someone else's; a missing one answers 428, a malformed one 400.
 */
export const DefinitionIfMatch = {
  schema: z.object({ "if-match": z.string().regex(/^"?\d{1,9}"?$/, 'If-Match is the definition\'s version as its ETag, e.g. "3"') }),
  invalid: (problem: { kind: string; raw?: unknown }) => {
    const raw = problem.raw as Record<string, unknown> | undefined;
    if (raw && typeof raw["if-match"] === "string") return new PortalError("invalid-request", 'If-Match is the definition\'s version as its ETag, e.g. "3"', { issues: [{ path: ["if-match"], message: "not a version" }] });
    return new PortalError("precondition-required", "If-Match is required: send the ETag of GET /api/offers/games/:gameId/definitions/:offerId");
  },
};

/** The version an If-Match names. */
export const versionOf = (ifMatch: string) => Number(ifMatch.replaceAll('"', ""));

/** Optional If-Match of a status change: when sent, the change applies only to that version. */
export const OptionalIfMatch = z.object({ "if-match": z.string().regex(/^"?\d{1,9}"?$/, 'If-Match is the definition\'s version as its ETag, e.g. "3"').optional() });

// Reward delivery (live ops).
export const EndpointParams = z.object({ gameId: Identifier, endpointId: Identifier });
export const DeliveryParams = z.object({ gameId: Identifier, deliveryId: DeliveryId });
