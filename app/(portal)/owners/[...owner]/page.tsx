// An owner's page: /owners/<user> or /owners/<group path> (lib/portal/owners.ts, as GET /api/owners/{owner} answers it).
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { currentUser } from "@/lib/portal/authorize";
import { getPortalServices } from "@/lib/portal/services";
import { ownerView } from "@/lib/portal/owners";
import { groupTrend, levelsOf } from "@/lib/portal/scorecards";
import { OwnerParams } from "@/lib/portal/contracts/owners";
import { PortalError } from "@/lib/portal/errors";
import { OwnerView } from "@/components/owners/owner-view";
import { ownerHref } from "@/components/owners/owner-href";
import { SignInNeeded } from "@/components/shell/sign-in-needed";
import { OwnerLevels, OwnerRollup } from "@/components/owners/owner-levels";
import { GroupTrend } from "@/components/owners/group-trend";

export const dynamic = "force-dynamic";

type Params = Promise<{ owner: string[] }>;

const ownerOf = async (params: Params) => OwnerParams.safeParse({ owner: (await params).owner.join("/") });

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const parsed = await ownerOf(params);
  return { title: parsed.success ? parsed.data.owner : "Owner" };
}

export default async function OwnerPage({ params }: { params: Params }) {
  const parsed = await ownerOf(params);
  if (!parsed.success) notFound();
  const { owner } = parsed.data;
  const user = await currentUser();
  if (!user) return <SignInNeeded title="Owners" reason="Sign in to see what an owner holds." next={ownerHref(owner)} />;
  const services = getPortalServices();
  const gitops = await services.gitops();
  const answer = await ownerView({ ...gitops, portalConfig: services.settings.auth.config }, user, owner).catch((error: unknown) => {
    if (error instanceof PortalError && error.code === "not-found") notFound();
    throw error;
  });
  // Scorecard levels of the components listed, from the commit this instance serves (lib/catalog/scorecards.ts).
  const scorecards = levelsOf(gitops.catalog, answer.components.items.map((c) => c.name));
  const levels = new Map([...scorecards.byName].map(([name, level]) => [name, <OwnerLevels key={name} level={level} />]));
  // A group's trend: the daily snapshot's rollup of its components; the page shows without it if the database fails.
  const trend = answer.asGroup
    ? await groupTrend(await services.db(), owner).catch((e: Error) => {
        console.error(`[portal] scorecard trend of ${owner}: ${e.message}`);
        return null;
      })
    : undefined;
  return (
    <OwnerView
      answer={answer}
      self={user.id === owner}
      levels={levels}
      rollup={<OwnerRollup rollup={scorecards.rollup} levels={scorecards.levels} />}
      trend={trend === undefined ? undefined : <GroupTrend group={owner} points={trend} levels={scorecards.levels} />}
    />
  );
}
