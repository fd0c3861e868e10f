// The four lifecycle routes of a definition (activate, pause, archive, restore to draft): the same
// route but for the action. If-Match is optional: when sent, only that version changes.
import type { DefinitionAction } from "@/lib/offers-client/schemas";
import { AdminDefinitionChange } from "@/lib/offers-client/schemas";
import { json, OFFERS_ADMIN_FAILURES, route } from "@/lib/portal/http";
import { auditDefinitionChange } from "@/lib/portal/audit-recorder";
import { DefinitionParams, LIVE_OPS, OptionalIfMatch, versionOf } from "./params";

export function definitionStatusRoute(action: DefinitionAction) {
  return route({
    offersEnvironment: true,
    doc: { responses: { 200: { description: "The definition before and after", schema: AdminDefinitionChange } }, errors: ["game-not-found", "offer-not-found", "definition-changed", "definition-archived", ...OFFERS_ADMIN_FAILURES] },
    role: LIVE_OPS,
    params: DefinitionParams,
    headers: OptionalIfMatch,
    handler: async ({ request, user, params, headers, services }) => {
      const ifMatch = headers["if-match"];
      const change = await services.offersAdmin().changeDefinitionStatus(params.gameId, params.offerId, action, ifMatch ? versionOf(ifMatch) : undefined, request.signal);
      await auditDefinitionChange(services, request, user, params.gameId, action, change);
      return json(change, { headers: { ETag: `"${change.definition.version}"` } });
    },
  });
}
