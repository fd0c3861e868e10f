// POST /api/offers/games/:gameId/definitions/:offerId/archive — archive it (never assigned again until restored) (liveops; audited).
import { definitionStatusRoute } from "../../../../../definition-status";

export const dynamic = "force-dynamic";

export const POST = definitionStatusRoute("archive");
