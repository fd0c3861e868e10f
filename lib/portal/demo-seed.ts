/**
 * The lived-in demo of the embedded default: what a newcomer sees after `npm run dev` instead of
 * empty config, nothing deployed and no requests. Seeded through the same domain functions the routes
 * call (so every value is one the portal could have produced), once: each part is skipped when
 * anything of its kind exists already, so a restart adds nothing, and a request the user merged,
 * closed or decided is not opened again.
 *
 * - persistent config of checkout-api and rewards-dashboard in several environments (committed by an owner);
 * - releases: checkout-api 0.1.0 in production and 0.2.0 in staging, rewards-dashboard 0.1.0 in both;
 * - one drift: checkout-api's production log level set live to debug, unlike its persistent config;
 * - one open config merge request awaiting review (dana, an engineer, proposes to the owners of checkout-api);
 * - one pending app order (dana orders "season-pass") for a lead.
 */
import type { Author } from "../catalog/catalog";
import type { GitOps } from "./gitops/providers";
import { writeConfig } from "./gitops/environment-config";
import { configFilePath } from "./gitops/config-repo";
import { createRelease, listReleases } from "./gitops/releases";
import { createOrder, listOrders } from "./app-orders/orders";

/** People of the demo (the development sign-in accepts these names). */
export const DEMO_PEOPLE = {
  /** Owner of checkout-api (config/components/checkout-api.yaml): commits its config, reviews requests. */
  owner: { id: "alice.martin", name: "Alice Martin", email: "alice.martin@example.com" },
  /** Owner of rewards-dashboard. */
  growthOwner: { id: "carla.rossi", name: "Carla Rossi", email: "carla.rossi@example.com" },
  /** An operator (config/portal.yaml): releases. */
  operator: { id: "olga", name: "Olga", email: "olga@example.com" },
  /** An engineer who owns nothing: proposes and orders. */
  engineer: { id: "dana", name: "Dana", email: "dana@example.com" },
} satisfies Record<string, Author>;

const CONFIG: Record<string, Record<string, Record<string, string | number | boolean>>> = {
  "checkout-api": {
    staging: { LOG_LEVEL: "info", PAYMENT_PROVIDER: "sandbox", MAX_BASKET_ITEMS: 50, FEATURE_APPLE_PAY: true },
    production: { LOG_LEVEL: "info", PAYMENT_PROVIDER: "stripe", MAX_BASKET_ITEMS: 30, FEATURE_APPLE_PAY: false },
  },
  "rewards-dashboard": {
    staging: { OFFERS_BASE_URL: "https://offers.staging.example.com/v1", SHOW_REFERRALS: true },
    production: { OFFERS_BASE_URL: "https://offers.example.com/v1", SHOW_REFERRALS: false },
  },
};

const OWNERS: Record<string, Author> = { "checkout-api": DEMO_PEOPLE.owner, "rewards-dashboard": DEMO_PEOPLE.growthOwner };

export interface DemoSeedResult {
  config: string[];
  releases: string[];
  drift: string | null;
  mergeRequest: number | null;
  order: string | null;
}

async function hasPersistentConfig(gitops: GitOps, name: string): Promise<boolean> {
  for (const environment of Object.keys(CONFIG[name] ?? {})) {
    if ((await gitops.config.readText(configFilePath(name, environment))) !== null) return true;
  }
  return false;
}

export async function seedPortalDemo(gitops: GitOps): Promise<DemoSeedResult> {
  const result: DemoSeedResult = { config: [], releases: [], drift: null, mergeRequest: null, order: null };
  const present = Object.keys(CONFIG).filter((name) => gitops.catalog.get(name));

  for (const name of present) {
    if (await hasPersistentConfig(gitops, name)) continue;
    const updates = Object.entries(CONFIG[name]).map(([environment, values]) => ({ environment, values }));
    await writeConfig(gitops, name, updates, { view: "persistent", user: OWNERS[name], direct: true });
    result.config.push(name);
  }

  if (present.includes("checkout-api") && (await listReleases(gitops.db, "checkout-api")).length === 0) {
    await createRelease(gitops, "checkout-api", { environment: "staging" }, DEMO_PEOPLE.operator);
    await createRelease(gitops, "checkout-api", { environment: "production" }, DEMO_PEOPLE.operator);
    const next = await createRelease(gitops, "checkout-api", { environment: "staging" }, DEMO_PEOPLE.operator);
    result.releases.push("checkout-api@staging 0.1.0", "checkout-api@production 0.1.0", `checkout-api@staging ${next.version}`);
    // An operator turned up logging in production to chase a bug: live, not in the repository.
    await writeConfig(gitops, "checkout-api", [{ environment: "production", values: { LOG_LEVEL: "debug" } }], { view: "current", user: DEMO_PEOPLE.operator, direct: true });
    result.drift = "checkout-api@production LOG_LEVEL";
  }
  if (present.includes("rewards-dashboard") && (await listReleases(gitops.db, "rewards-dashboard")).length === 0) {
    const r = await createRelease(gitops, "rewards-dashboard", { environment: "staging" }, DEMO_PEOPLE.operator);
    await createRelease(gitops, "rewards-dashboard", { environment: "production" }, DEMO_PEOPLE.operator);
    result.releases.push(`rewards-dashboard@staging ${r.version}`, `rewards-dashboard@production ${r.version}`);
  }

  const { provider, repo } = gitops.config.target;
  if (present.includes("checkout-api") && (await provider.listMergeRequests(repo, { state: "all" })).length === 0) {
    const proposal = await writeConfig(gitops, "checkout-api", [{ environment: "staging", values: { MAX_BASKET_ITEMS: 80 } }], {
      view: "persistent",
      user: DEMO_PEOPLE.engineer,
      direct: false,
    });
    if (proposal.mode === "merge_request") result.mergeRequest = proposal.mergeRequest.iid;
  }

  if ((await listOrders(gitops, { limit: 1 })).length === 0 && !gitops.catalog.get("season-pass")) {
    const order = await createOrder(
      gitops,
      {
        name: "season-pass",
        displayName: "Season Pass",
        kind: "service",
        owners: [{ user: DEMO_PEOPLE.engineer.id, group: "growth/platform" }],
        environments: ["dev", "staging", "production"],
        dependencies: { redis: true, pubsub: true },
        repoPath: "growth/season-pass",
      },
      { ...DEMO_PEOPLE.engineer, requestId: "demo-seed" },
    );
    result.order = order.id;
  }
  return result;
}
