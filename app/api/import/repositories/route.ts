// GET /api/import/repositories?owner=&search=&page=&perPage= → {items: [...repository, inCatalog: name|null], nextPage}
import { RepositoryPage } from "@/lib/portal/contracts/gitops";
import { z } from "zod";
import { listImportable } from "@/lib/portal/gitops/import";
import { json, route, SOURCE_CONTROL_FAILURES } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

const pagingMessage = "page must be ≥ 1 and perPage 1–100";
const pageNumber = (fallback: string, max: number) =>
  z
    .string()
    .default(fallback)
    .transform(Number)
    .refine((n) => Number.isInteger(n) && n >= 1 && n <= max, pagingMessage);
const blankAsAbsent = z
  .string()
  .optional()
  .transform((v) => v?.trim() || undefined);

const querySchema = z.object({
  page: pageNumber("1", Number.MAX_SAFE_INTEGER),
  perPage: pageNumber("50", 100),
  owner: blankAsAbsent.refine((o) => !o || /^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*$/.test(o), "owner is not a namespace path"),
  search: blankAsAbsent,
});

export const GET = route({
  doc: { responses: { 200: { description: "One page of repositories, each with the component it is already, if any", schema: RepositoryPage } }, errors: [...SOURCE_CONTROL_FAILURES] },
  query: querySchema,
  handler: async ({ query, services }) => json(await listImportable(await services.gitops(), query)),
});
