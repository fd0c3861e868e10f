// POST /api/import/components {repositories: ["group/project" | {path, kind?}, …], dryRun?}
// Operators: one commit to the config repository (201); others: one merge request (202).
// {path, kind}: the kind chosen at review replaces the inferred one. dryRun: true infers the records and
// answers them (status "ready", 200) without writing anything (the import wizard's review step).
// → {results: [{repository, status: imported|proposed|exists|failed|ready, name, kind, inferredKind, reasons, message, component?}], commit, mergeRequest}
import { z } from "zod";
import { authorize, hasRole } from "@/lib/portal/guard";
import { json, readBody } from "@/lib/catalog/http";
import { getGitOps } from "@/lib/portal/gitops/service";
import { importRepositories } from "@/lib/portal/gitops/import";
import { COMPONENT_KINDS } from "@/lib/catalog/schema";
import { errorResponse } from "@/lib/portal/gitops/http";
import { auditImport } from "@/lib/portal/audit-log";

export const dynamic = "force-dynamic";

const repoPath = z.string().regex(/^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)+$/, "a repository is <group>/<project>");
const bodySchema = z.strictObject({
  repositories: z
    .array(z.union([repoPath, z.strictObject({ path: repoPath, kind: z.enum(COMPONENT_KINDS, { error: `kind must be one of ${COMPONENT_KINDS.join(", ")}` }).optional() })]))
    .min(1, "name at least one repository")
    .max(50, "at most 50 repositories at once"),
  dryRun: z.boolean().optional(),
});

export async function POST(request: Request) {
  const auth = await authorize(request);
  if (!auth.ok) return auth.response;
  const parsed = await readBody(request, bodySchema);
  if (!parsed.ok) return parsed.response;
  const direct = hasRole(auth.user, "operator");
  try {
    const dryRun = parsed.body.dryRun === true;
    const result = await importRepositories(await getGitOps(), parsed.body.repositories, { user: { id: auth.user.id, name: auth.user.name, email: auth.user.email }, direct, dryRun });
    const wrote = result.commit !== null || result.mergeRequest !== null;
    if (wrote) await auditImport(request, auth.user, result);
    return json(result, { status: wrote ? (direct ? 201 : 202) : 200 });
  } catch (e) {
    return errorResponse(e);
  }
}
