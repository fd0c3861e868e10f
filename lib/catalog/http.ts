/**
 * HTTP helpers of the catalog routes (web-standard Request/Response only, no Next.js):
 * JSON answers, body reading with a size limit, and the mapping of update results to statuses.
 */
import type { z } from "zod";
import type { UpdateResult } from "./catalog";
import { checkName } from "./names";

export const MAX_BODY_BYTES = 256 * 1024;

export function json(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  if (!headers.has("Cache-Control")) headers.set("Cache-Control", "no-store");
  return new Response(JSON.stringify(body), { ...init, headers });
}

export function problem(status: number, message: string, extra: Record<string, unknown> = {}): Response {
  return json({ message, ...extra }, { status });
}

/** :name of the path, or a 400 answer. */
export function nameFrom(raw: string | undefined): { ok: true; name: string } | { ok: false; response: Response } {
  const check = checkName(raw);
  if (check.ok) return check;
  return { ok: false, response: problem(400, check.message) };
}

/** The JSON body validated by a schema, or the 400/413 answer that says what is wrong. */
export async function readBody<S extends z.ZodType>(request: Request, schema: S): Promise<{ ok: true; body: z.infer<S> } | { ok: false; response: Response }> {
  const raw = await readJson(request);
  if (!raw.ok) return raw;
  const parsed = schema.safeParse(raw.body);
  if (parsed.success) return { ok: true, body: parsed.data };
  const issues = parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
  return { ok: false, response: problem(400, "invalid-request", { issues }) };
}

/** The JSON body, or a 400/413 answer. */
export async function readJson(request: Request): Promise<{ ok: true; body: unknown } | { ok: false; response: Response }> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) return { ok: false, response: problem(413, `the body is larger than ${MAX_BODY_BYTES} bytes`) };
  const text = await request.text();
  if (text.length > MAX_BODY_BYTES) return { ok: false, response: problem(413, `the body is larger than ${MAX_BODY_BYTES} bytes`) };
  try {
    return { ok: true, body: JSON.parse(text) };
  } catch {
    return { ok: false, response: problem(400, "the body is not valid JSON") };
  }
}

export function updateResponse(result: UpdateResult, favorite: boolean): Response {
  if (result.ok) {
    const { entry } = result;
    return json(
      { name: entry.name, file: entry.file, component: entry.component, etag: entry.etag, stale: entry.stale, yaml: result.text, changed: result.changed, commit: result.commit ?? null, favorite },
      { headers: { ETag: entry.etag } },
    );
  }
  switch (result.status) {
    case 412:
      return json({ message: result.message, etag: result.etag }, { status: 412, headers: { ETag: result.etag } });
    case 422:
      return problem(422, result.message, { issues: result.issues });
    default:
      return problem(result.status, result.message);
  }
}
