// POST /api/offers/games/:gameId/definitions/:offerId/pause — pause it (no longer surfaces by itself; instances given stay) (liveops; audited).
import { definitionStatusRoute } from "../../../../../definition-status";

export const dynamic = "force-dynamic";

export const POST = definitionStatusRoute("pause");
