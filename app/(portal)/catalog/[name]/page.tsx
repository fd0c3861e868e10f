// A component's page: overview, star and (engineers) the edit form; the GitOps tabs; its history.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { currentUser, hasRole } from "@/lib/portal/authorize";
import { mayCommit } from "@/lib/portal/ownership";
import { repositoryUrlOf } from "@/lib/portal/gitops/providers";
import { getPortalServices } from "@/lib/portal/services";
import { favoriteSet } from "@/lib/portal/favorites";
import { checkName } from "@/lib/catalog/names";
import { componentStatus } from "@/lib/catalog/status";
import { NO_RELATIONS } from "@/lib/catalog/relations";
import { gitopsStatusExtra } from "@/lib/portal/gitops/status";
import { ComponentView } from "@/components/catalog/component-view";
import { RefreshCatalogButton } from "@/components/catalog/refresh-catalog-button";
import { SignInNeeded } from "@/components/shell/sign-in-needed";
import { z } from "zod";
import { GitOpsTabs } from "@/components/gitops/gitops-tabs";
import { GITOPS_TABS } from "@/components/gitops/tab-ids";
import { HistoryPanel } from "@/components/audit/history-panel";
import { listAudit } from "@/lib/portal/audit-store";
import { componentTrend } from "@/lib/portal/scorecards";
import { ScorecardCard } from "@/components/catalog/scorecard-card";

export const dynamic = "force-dynamic";

const HISTORY_LIMIT = 20;

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
  const services = getPortalServices();
  const catalog = await services.catalog();
  const source = await catalog.source(check.name);
  if (!source) notFound();
  const db = await services.db();
  const favorite = (await favoriteSet(db, user.id)).has(check.name);
  const { entry } = source;
  // Deployed versions and open merge requests, and the component's history: the overview shows without either if it fails.
  const [gitops, history, trend] = await Promise.all([
    services
      .gitops()
      .then((g) => gitopsStatusExtra(g, entry.name))
      .catch(() => ({})),
    listAudit(db, { component: entry.name, limit: HISTORY_LIMIT }).then(
      (page) => page.entries,
      (e: Error) => {
        console.error(`[portal] history of ${entry.name}: ${e.message}`);
        return null;
      },
    ),
    componentTrend(db, entry.name).catch((e: Error) => {
      console.error(`[portal] scorecard trend of ${entry.name}: ${e.message}`);
      return null;
    }),
  ]);
  const scorecard = catalog.scorecardOf(entry.name);
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
        canCommit={mayCommit(user, entry.component)}
        repositoryUrl={repositoryUrlOf(services.settings.gitops, entry.component.spec.repo.path)}
        status={componentStatus(entry, gitops)}
        relations={catalog.relations.view(entry.name) ?? NO_RELATIONS}
      />
      {scorecard ? <ScorecardCard scorecard={scorecard} levels={catalog.scorecardRules.levels} trend={trend} /> : null}
      {/* Re-reads this record's file from the config repository; the API is operator-only. */}
      {hasRole(user, "operator") ? <RefreshCatalogButton name={entry.name} /> : null}
      {/* The routes check roles; canOperate only hides what the user may not do. */}
      <GitOpsTabs
        name={entry.name}
        repository={entry.component.spec.repo.path}
        environments={entry.component.spec.environments}
        canOperate={hasRole(user, "operator")}
        canCommit={mayCommit(user, entry.component)}
        initialTab={TabQuery.parse((await searchParams).tab)}
      />
      <HistoryPanel entries={history} limit={HISTORY_LIMIT} />
    </div>
  );
}
