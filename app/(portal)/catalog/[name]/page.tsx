// A component's page: overview, star, and (engineers) the edit form.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { currentUser, hasRole } from "@/lib/portal/guard";
import { getPortalDb } from "@/lib/portal/db";
import { getCatalog } from "@/lib/catalog/service";
import { favoriteSet } from "@/lib/catalog/favorites";
import { checkName } from "@/lib/catalog/names";
import { componentStatus } from "@/lib/catalog/status";
import { gitopsStatusExtra } from "@/lib/portal/gitops/service";
import { ComponentView } from "@/components/catalog/component-view";
import { SignInNeeded } from "@/components/shell/sign-in-needed";
import { z } from "zod";
import { GitOpsTabs } from "@/components/gitops/gitops-tabs";
import { GITOPS_TABS } from "@/components/gitops/tab-ids";
import { HistoryPanel } from "@/components/audit/history-panel";

export const dynamic = "force-dynamic";

type Params = Promise<{ name: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;
/** `?tab=` opens a GitOps tab; anything else opens the first. */
const TabQuery = z.enum(GITOPS_TABS).catch("config");

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { name } = await params;
  return { title: checkName(name).ok ? name : "Component" };
}

export default async function ComponentPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const check = checkName((await params).name);
  if (!check.ok) notFound();
  const user = await currentUser();
  if (!user) return <SignInNeeded title="Catalog" reason="Sign in to browse the catalog." next={`/catalog/${check.name}`} />;
  const catalog = await getCatalog();
  const source = await catalog.source(check.name);
  if (!source) notFound();
  const { db } = await getPortalDb();
  const favorite = (await favoriteSet(db, user.id)).has(check.name);
  const { entry } = source;
  // GitOps (issue 6): deployed versions and open merge requests; the overview shows without them if GitOps fails.
  const gitops = await gitopsStatusExtra(entry.name).catch(() => ({}));
  return (
    <div className="stack">
      <ComponentView
        name={entry.name}
        file={entry.file}
        component={entry.component}
        yaml={source.text}
        etag={source.etag}
        stale={entry.stale}
        staleReason={entry.staleReason ?? null}
        favorite={favorite}
        canEdit={hasRole(user, "engineer")}
        status={componentStatus(entry, gitops)}
      />
      {/* GitOps (issue 6): Config, Releases and Merge requests tabs; the routes check roles, this only hides. */}
      <GitOpsTabs
        name={entry.name}
        repository={entry.component.spec.repo.path}
        environments={entry.component.spec.environments}
        canOperate={hasRole(user, "operator")}
        initialTab={TabQuery.parse((await searchParams).tab)}
      />
      {/* Audit (issue 7): the component's history. */}
      <HistoryPanel name={entry.name} />
    </div>
  );
}
