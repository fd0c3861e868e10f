// A component's dependency graph: ?depth=1..3 and ?direction=both|down|up, as GET /api/components/:name/graph
// answers them (the same query schema); a bad value shows the defaults, saying so, rather than an error page.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { currentUser } from "@/lib/portal/authorize";
import { getPortalServices } from "@/lib/portal/services";
import { checkName } from "@/lib/catalog/names";
import { ComponentGraphQuery } from "@/lib/portal/contracts/components";
import { GRAPH_DEPTH_MAX } from "@/lib/catalog/relation-schema";
import { ComponentGraphView } from "@/components/catalog/graph/component-graph-view";
import { graphHref } from "@/components/catalog/graph/graph-layout";
import { SignInNeeded } from "@/components/shell/sign-in-needed";

export const dynamic = "force-dynamic";

type Params = Promise<{ name: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { name } = await params;
  return { title: checkName(name).ok ? `Graph of ${name}` : "Graph" };
}

export default async function ComponentGraphPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const check = checkName((await params).name);
  if (!check.ok) notFound();
  const raw = await searchParams;
  const parsed = ComponentGraphQuery.safeParse({ depth: raw.depth, direction: raw.direction });
  const { depth, direction } = parsed.success ? parsed.data : ComponentGraphQuery.parse({});
  const user = await currentUser();
  if (!user) return <SignInNeeded title="Catalog" reason="Sign in to see a component's graph." next={graphHref(check.name, depth, direction)} />;
  const graph = (await getPortalServices().catalog()).relations.graph(check.name, depth, direction);
  if (!graph) notFound();
  const notice = parsed.success ? undefined : `The depth is 1 to ${GRAPH_DEPTH_MAX} hops and the direction both, down or up: showing ${depth} ${depth === 1 ? "hop" : "hops"}, both ways.`;
  return <ComponentGraphView graph={graph} notice={notice} />;
}
