// POST /api/auth/logout: ends the session (clears next-auth's session cookie) and answers JSON.
import { SignedOut } from "@/lib/portal/contracts/portal";
import { isSameSiteRequest, crossSite } from "@/lib/portal/auth/authorizer";
import { parseCookieHeader } from "@/lib/portal/auth/session-user";
import { getAuthSettings } from "@/lib/portal/auth/settings";
import { json, publicRoute } from "@/lib/portal/http";

export const POST = publicRoute({
  doc: { responses: { 200: { description: "Signed out; the session cookie is cleared", schema: SignedOut } }, errors: ["cross-site-request"] },
  handler: async ({ request }) => {
    const settings = getAuthSettings();
    // A page of another site must not sign the user out either.
    if (!isSameSiteRequest(request, settings.publicOrigin)) throw crossSite();
    const names = parseCookieHeader(request.headers.get("cookie"))
      .map((c) => c.name)
      .filter((name) => name === settings.sessionCookieName || name.startsWith(`${settings.sessionCookieName}.`));
    const response = json({ ok: true, signedIn: false } as const);
    for (const name of new Set([settings.sessionCookieName, ...names])) {
      const secure = settings.secureCookies ? "; Secure" : "";
      response.headers.append("Set-Cookie", `${name}=; Path=/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax${secure}`);
    }
    return response;
  },
});
