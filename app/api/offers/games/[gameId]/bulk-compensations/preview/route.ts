// POST /api/offers/games/:gameId/bulk-compensations/preview — what a bulk compensation would grant (support role): players,
// total, repeats, unknown and invalid ids; nothing is stored. A multipart form (the CSV can be far larger than a JSON body).
import { BulkPreviewResponse } from "@/lib/offers-client/schemas";
import { auditContextOf } from "@/lib/portal/audit";
import { previewBulk, readBulkUpload } from "@/lib/portal/bulk-compensation";
import { json, OFFERS_ADMIN_FAILURES, route } from "@/lib/portal/http";
import { BulkCompensationForm } from "@/lib/portal/support-shapes";
import { GameParams } from "../../../../params";

export const POST = route({
  offersEnvironment: true,
  doc: {
    requestForm: BulkCompensationForm,
    responses: { 200: { description: "The preview", schema: BulkPreviewResponse } },
    errors: ["game-not-found", "unknown-reward", "bulk-too-many-players", "payload-too-large", ...OFFERS_ADMIN_FAILURES],
  },
  role: "support",
  params: GameParams,
  handler: async ({ request, user, params, services }) =>
    json({ preview: await previewBulk(services, auditContextOf(request, user), params.gameId, await readBulkUpload(request), request.signal) }),
});
