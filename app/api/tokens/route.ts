// GET /api/tokens: the caller's personal API tokens (never the tokens themselves).
// POST /api/tokens {name}: creates one; the answer holds the token, shown this once.
import { z } from "zod";
import { authorize } from "@/lib/portal/guard";
import { getPortalDb } from "@/lib/portal/db";
import { createToken, listTokens } from "@/lib/portal/tokens";
import { auditTokenCreated } from "@/lib/portal/audit-log";

const createBody = z.object({ name: z.string().trim().min(1, "a name is required").max(100) });

export async function GET(request: Request): Promise<Response> {
  const auth = await authorize(request);
  if (!auth.ok) return auth.response;
  const { db } = await getPortalDb();
  return Response.json({ tokens: await listTokens(db, auth.user.id) }, { headers: { "Cache-Control": "no-store" } });
}

export async function POST(request: Request): Promise<Response> {
  const auth = await authorize(request);
  if (!auth.ok) return auth.response;
  // A token cannot mint more tokens: creating one needs a signed-in browser session.
  if (auth.via === "token") return Response.json({ message: "session-required" }, { status: 403 });
  let raw: unknown;
  try {
    raw = await request.json();
  } catch {
    return Response.json({ message: "invalid-request", issues: [{ path: [], message: "body is not JSON" }] }, { status: 400 });
  }
  const parsed = createBody.safeParse(raw);
  if (!parsed.success) {
    return Response.json({ message: "invalid-request", issues: parsed.error.issues.map((i) => ({ path: i.path, message: i.message })) }, { status: 400 });
  }
  const { db } = await getPortalDb();
  const { id, name, email, groups } = auth.user;
  const created = await createToken(db, { id, name, email, groups }, parsed.data.name);
  await auditTokenCreated(request, auth.user, created);
  return Response.json(created, { status: 201, headers: { "Cache-Control": "no-store" } });
}
