// GET /api/import/repositories?owner=&search=&page=&perPage= → {items: [...repository, inCatalog: name|null], nextPage}
import { authorize } from "@/lib/portal/guard";
import { json, problem } from "@/lib/catalog/http";
import { getGitOps } from "@/lib/portal/gitops/service";
import { listImportable } from "@/lib/portal/gitops/import";
import { errorResponse } from "@/lib/portal/gitops/http";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const auth = await authorize(request);
  if (!auth.ok) return auth.response;
  const q = new URL(request.url).searchParams;
  const page = Number(q.get("page") ?? "1");
  const perPage = Number(q.get("perPage") ?? "50");
  if (!Number.isInteger(page) || page < 1 || !Number.isInteger(perPage) || perPage < 1 || perPage > 100) return problem(400, "page must be ≥ 1 and perPage 1–100");
  const owner = q.get("owner")?.trim() || undefined;
  if (owner && !/^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*$/.test(owner)) return problem(400, "owner is not a namespace path");
  try {
    return json(await listImportable(await getGitOps(), { owner, search: q.get("search")?.trim() || undefined, page, perPage }));
  } catch (e) {
    return errorResponse(e);
  }
}
