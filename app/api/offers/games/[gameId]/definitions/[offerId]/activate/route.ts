// POST /api/offers/games/:gameId/definitions/:offerId/activate — activate it (active: it surfaces by itself; its surfacing job is queued when its window is open) (liveops; audited).
import { definitionStatusRoute } from "../../../../../definition-status";

export const dynamic = "force-dynamic";

export const POST = definitionStatusRoute("activate");
