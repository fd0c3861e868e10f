// The four lifecycle routes of a definition (activate, pause, archive, restore to draft): the same
// route but for the action. If-Match (the definition's ETag) is required: 428 without, 412 with the
// current ETag when someone changed it since.
import type { DefinitionAction } from "@/lib/offers-client/schemas";
import { AdminDefinitionChange } from "@/lib/offers-client/schemas";
import { json, OFFERS_ADMIN_FAILURES, route } from "@/lib/portal/http";
import { auditContextOf } from "@/lib/portal/audit";
import { changeDefinitionStatus } from "@/lib/portal/offer-definitions";
import { DefinitionIfMatch, DefinitionParams, LIVE_OPS } from "./params";

export function definitionStatusRoute(action: DefinitionAction) {
  return route({
    offersEnvironment: true,
    doc: {
      responses: { 200: { description: "The definition before and after (ETag: its new one)", schema: AdminDefinitionChange } },
      errors: ["precondition-required", "precondition-failed", "game-not-found", "offer-not-found", "definition-archived", ...OFFERS_ADMIN_FAILURES],
    },
    role: LIVE_OPS,
    params: DefinitionParams,
    headers: DefinitionIfMatch,
    handler: async ({ request, user, params, headers, services }) => {
      const change = await changeDefinitionStatus(services, auditContextOf(request, user), params.gameId, params.offerId, action, headers["if-match"], request.signal);
      return json(change, { headers: { ETag: change.definition.etag } });
    },
  });
}
