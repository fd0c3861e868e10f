// One API a component provides: its definition at the default branch or a release tag (?ref=), rendered when it is
// a valid OpenAPI definition; its lint errors, the raw text (AsyncAPI, gRPC) or why there is nothing otherwise.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { currentUser } from "@/lib/portal/authorize";
import { getPortalServices } from "@/lib/portal/services";
import { readApiDocs } from "@/lib/portal/api-docs";
import { ApiDocsParams, ApiDocsQuery } from "@/lib/portal/contracts/api-docs";
import { PortalError } from "@/lib/portal/errors";
import { ApiDocsView, apiDocsHref } from "@/components/catalog/api-docs/api-docs-view";
import { SignInNeeded } from "@/components/shell/sign-in-needed";

export const dynamic = "force-dynamic";

type Params = Promise<{ name: string; api: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const parsed = ApiDocsParams.safeParse(await params);
  return { title: parsed.success ? `${parsed.data.api} API of ${parsed.data.name}` : "API" };
}

export default async function ApiDocsPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const parsed = ApiDocsParams.safeParse(await params);
  const query = ApiDocsQuery.safeParse(await searchParams);
  if (!parsed.success || !query.success) notFound();
  const { name, api } = parsed.data;
  const user = await currentUser();
  if (!user) return <SignInNeeded title="Catalog" reason="Sign in to read a component's API docs." next={apiDocsHref(name, api, query.data.ref)} />;
  const services = getPortalServices();
  const entry = (await services.catalog()).get(name);
  if (!entry) notFound();
  const { scm } = await services.gitops();
  const answer = await readApiDocs(scm, entry.name, entry.component, api, query.data.ref).catch((error: unknown) => {
    // An API the record does not list, or a ref that is neither the default branch nor a tag.
    if (error instanceof PortalError && error.code === "not-found") notFound();
    throw error;
  });
  return <ApiDocsView answer={answer} />;
}
