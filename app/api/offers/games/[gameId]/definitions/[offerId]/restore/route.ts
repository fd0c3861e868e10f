// POST /api/offers/games/:gameId/definitions/:offerId/restore — restore it to draft (liveops; audited).
import { definitionStatusRoute } from "../../../../../definition-status";

export const dynamic = "force-dynamic";

export const POST = definitionStatusRoute("restore");
