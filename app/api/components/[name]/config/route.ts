// GET  /api/components/:name/config?view=current|persistent (default persistent) → ConfigAnswer (lib/portal/gitops/config.ts)
// POST /api/components/:name/config {environment, values, view?}
//   persistent: operators commit directly (200 {mode:"commit"}); engineers open a merge request (202 {mode:"merge_request"})
//   current: operators only (live values; drift until persisted)
import { z } from "zod";
import { authorize, hasRole } from "@/lib/portal/guard";
import { json, nameFrom, problem, readBody } from "@/lib/catalog/http";
import { getGitOps } from "@/lib/portal/gitops/service";
import { getConfig, writeConfig } from "@/lib/portal/gitops/config";
import { errorResponse } from "@/lib/portal/gitops/http";
import { auditConfigWrite } from "@/lib/portal/audit-log";

export const dynamic = "force-dynamic";

const viewSchema = z.enum(["current", "persistent"], { error: "view must be current or persistent" });
const bodySchema = z.strictObject({ environment: z.string(), values: z.unknown(), view: viewSchema.optional() });

type Ctx = { params: Promise<{ name: string }> };

export async function GET(request: Request, context: Ctx) {
  const auth = await authorize(request);
  if (!auth.ok) return auth.response;
  const name = nameFrom((await context.params).name);
  if (!name.ok) return name.response;
  const view = viewSchema.safeParse(new URL(request.url).searchParams.get("view") ?? "persistent");
  if (!view.success) return problem(400, "view must be current or persistent");
  try {
    return json(await getConfig(await getGitOps(), name.name, view.data));
  } catch (e) {
    return errorResponse(e);
  }
}

export async function POST(request: Request, context: Ctx) {
  const auth = await authorize(request);
  if (!auth.ok) return auth.response;
  const name = nameFrom((await context.params).name);
  if (!name.ok) return name.response;
  const parsed = await readBody(request, bodySchema);
  if (!parsed.ok) return parsed.response;
  const view = parsed.body.view ?? "persistent";
  const operator = hasRole(auth.user, "operator");
  if (view === "current" && !operator) return problem(403, "forbidden", { requiredRole: "operator" });
  try {
    const result = await writeConfig(await getGitOps(), name.name, [{ environment: parsed.body.environment, values: parsed.body.values }], {
      view,
      user: { id: auth.user.id, name: auth.user.name, email: auth.user.email },
      direct: operator,
    });
    await auditConfigWrite(request, auth.user, name.name, result);
    return json(result, { status: result.mode === "merge_request" ? 202 : 200 });
  } catch (e) {
    return errorResponse(e);
  }
}
