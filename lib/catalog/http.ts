/**
 * JSON answers of the portal's routes (web-standard Response only, no Next.js). The rest of the
 * portal's HTTP layer (route preamble, error mapping, body reading) is lib/portal/http.
 */
export function json(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  if (!headers.has("Cache-Control")) headers.set("Cache-Control", "no-store");
  return new Response(JSON.stringify(body), { ...init, headers });
}

export function problem(status: number, message: string, extra: Record<string, unknown> = {}): Response {
  return json({ message, ...extra }, { status });
}
