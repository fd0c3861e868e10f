// POST /api/components/:name/config/bulk {updates: [{environment, values}], view?} (operator)
// All or nothing: every update is validated first (422 names each problem, nothing written), then one
// commit (persistent) or one transaction (current) carries them all.
import { z } from "zod";
import { authorize } from "@/lib/portal/guard";
import { json, nameFrom, readBody } from "@/lib/catalog/http";
import { getGitOps } from "@/lib/portal/gitops/service";
import { writeConfig } from "@/lib/portal/gitops/config";
import { errorResponse } from "@/lib/portal/gitops/http";
import { auditConfigWrite } from "@/lib/portal/audit-log";

export const dynamic = "force-dynamic";

const bodySchema = z.strictObject({
  updates: z.array(z.object({ environment: z.unknown(), values: z.unknown() })).min(1, "name at least one update").max(20),
  view: z.enum(["current", "persistent"], { error: "view must be current or persistent" }).optional(),
});

export async function POST(request: Request, context: { params: Promise<{ name: string }> }) {
  const auth = await authorize(request, "operator");
  if (!auth.ok) return auth.response;
  const name = nameFrom((await context.params).name);
  if (!name.ok) return name.response;
  const parsed = await readBody(request, bodySchema);
  if (!parsed.ok) return parsed.response;
  try {
    const result = await writeConfig(await getGitOps(), name.name, parsed.body.updates, {
      view: parsed.body.view ?? "persistent",
      user: { id: auth.user.id, name: auth.user.name, email: auth.user.email },
      direct: true,
    });
    await auditConfigWrite(request, auth.user, name.name, result);
    return json(result);
  } catch (e) {
    return errorResponse(e);
  }
}
