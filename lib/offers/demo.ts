/**
 * Demo data (DESIGN "Demo data"): the demo game with its fixed credentials, currencies with images,
 * offer definitions (real-time and not, with and without conditions) and a few players whose offers
 * are in different states. Idempotent: what exists is left alone, so restarts change nothing.
 */
import { and, eq } from "drizzle-orm";
import { ManualClock, type Clock } from "./clock";
import type { OffersDatabase } from "./db";
import { apiClients, games, players } from "./db/schema";
import { OffersEngine } from "./engine";
import { ENVIRONMENTS, tenantOf } from "./environments";
import type { GameDirectory } from "./games";
import type { SecretBox } from "./secret-box";
import type { OfferDefinitionDraft } from "./contract";

export interface DemoSettings {
  gameId: string;
  clientId: string;
  apiKey: string;
  /** The test environment's credentials (./environments). */
  test: { clientId: string; apiKey: string };
}

/** Small inline SVG images: the demo works offline and needs no static file server. */
function badge(color: string, label: string): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"><circle cx="32" cy="32" r="30" fill="${color}"/><text x="32" y="40" font-family="sans-serif" font-size="22" font-weight="bold" text-anchor="middle" fill="#fff">${label}</text></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
}

export const demoImages = {
  gold: badge("#d4a017", "G"),
  gems: badge("#7b3fe4", "◆"),
  chest: badge("#8b5a2b", "▣"),
  star: badge("#2e86de", "★"),
  shield: badge("#27ae60", "✓"),
};

export const demoDefinitions: Record<string, OfferDefinitionDraft> = {
  "welcome-pack": {
    name: "Welcome pack",
    description: "A little something to start your adventure.",
    image: demoImages.chest,
    rewards: [
      { kind: "item", rewardId: "starter-sword", name: "Starter sword", amount: 1, image: demoImages.chest },
      { kind: "exp", rewardId: "exp", name: "Experience", amount: 250, image: demoImages.star },
    ],
    realTime: true,
    durationSeconds: 7 * 24 * 3600,
    priority: 20,
  },
  "daily-login-bonus": {
    name: "Daily login bonus",
    description: "Thanks for coming back today.",
    image: demoImages.gold,
    rewards: [{ kind: "coins", rewardId: "gold", name: "Gold", amount: 100, image: demoImages.gold }],
    realTime: false,
    durationSeconds: 24 * 3600,
    priority: 10,
  },
  "spend-500-gold": {
    name: "Big spender",
    description: "Spend 500 gold in the shop to earn gems.",
    image: demoImages.gems,
    rewards: [
      { kind: "loyalty_currency", rewardId: "gems", name: "Gems", amount: 5, image: demoImages.gems },
      { kind: "item", rewardId: "golden-helmet", name: "Golden helmet", amount: 1 },
    ],
    completionConditions: [{ kind: "spendCurrency", id: "gold", name: "Gold", amount: 500 }],
    realTime: true,
    durationSeconds: 48 * 3600,
    priority: 5,
  },
  "flash-sale": {
    name: "Flash sale",
    description: "Spend 100 gold within the hour.",
    image: demoImages.gold,
    rewards: [{ kind: "coins", rewardId: "gold", name: "Gold", amount: 50, image: demoImages.gold }],
    completionConditions: [{ kind: "spendCurrency", id: "gold", name: "Gold", amount: 100 }],
    realTime: true,
    durationSeconds: 3600,
    priority: 1,
  },
  "gem-collector": {
    name: "Gem collector",
    description: "Spend 20 gems to earn loyalty points.",
    image: demoImages.gems,
    rewards: [{ kind: "loyalty_currency", rewardId: "loyalty", name: "Loyalty points", amount: 50 }],
    completionConditions: [{ kind: "spendCurrency", id: "gems", name: "Gems", amount: 20 }],
    realTime: false,
    durationSeconds: 72 * 3600,
    priority: 0,
  },
  "fair-play": {
    name: "Fair play",
    description: "A trust bonus for good sportsmanship.",
    image: demoImages.shield,
    rewards: [{ kind: "trust_points", rewardId: "trust", name: "Trust points", amount: 10, image: demoImages.shield }],
    realTime: false,
    durationSeconds: 24 * 3600,
    priority: 0,
  },
  // Targeted, as a draft: the live-ops console shows how a rule reads; activating it is a person's choice.
  "streak-champion": {
    name: "Streak champion",
    description: "Seven days in a row: pick up your reward.",
    image: demoImages.star,
    realTime: true,
    durationSeconds: 3 * 24 * 3600,
    priority: 15,
    status: "draft",
    audience: { all: [{ field: "loginStreak", op: "gte", value: 7 }, { field: "daysInGame", op: "gte", value: 14 }] },
    limits: { maxActivationsPerPlayer: 4, cooldownSeconds: 7 * 24 * 3600 },
    variants: [
      { variantId: "gold", name: "Gold", weight: 1, rewards: [{ kind: "coins", rewardId: "gold", name: "Gold", amount: 200, image: demoImages.gold }] },
      { variantId: "gems", name: "Gems", weight: 1, rewards: [{ kind: "loyalty_currency", rewardId: "gems", name: "Gems", amount: 10, image: demoImages.gems }] },
    ],
  },
};

export async function seedDemoData(options: {
  db: OffersDatabase;
  games: GameDirectory;
  box: SecretBox;
  clock: Clock;
  settings: DemoSettings;
}): Promise<{ created: boolean }> {
  const { db, settings, clock } = options;
  const { gameId } = settings;
  const [existing] = await db.select().from(games).where(eq(games.gameId, gameId));
  let created = false;
  if (!existing) {
    await options.games
      .createGame({ gameId, name: "Demo game", clientId: settings.clientId, apiKey: settings.apiKey, test: settings.test })
      .catch((error: unknown) => {
        if ((error as { code?: string }).code !== "game-exists") throw error;
      });
    created = true;
  } else {
    // A data directory from before a credential setting changed (or before test environments).
    for (const [tenant, credentials] of [[gameId, settings], [tenantOf(gameId, "test"), settings.test]] as const) {
      const [client] = await db.select().from(apiClients).where(and(eq(apiClients.clientId, credentials.clientId), eq(apiClients.gameId, tenant)));
      if (!client) {
        await db.insert(apiClients).values({ clientId: credentials.clientId, gameId: tenant, encryptedKey: options.box.encrypt(credentials.apiKey) }).onConflictDoNothing();
        options.games.invalidate();
      }
    }
  }

  const engine = new OffersEngine({ db, clock });
  // Both environments get the currencies and definitions; only live gets the demo players.
  for (const environment of ENVIRONMENTS) {
    const tenant = tenantOf(gameId, environment);
    await options.games.upsertCurrency(tenant, "gold", { name: "Gold", image: demoImages.gold });
    await options.games.upsertCurrency(tenant, "gems", { name: "Gems", image: demoImages.gems });
    for (const [offerId, definition] of Object.entries(demoDefinitions)) {
      if (!(await engine.getDefinition(tenant, offerId))) await engine.upsertDefinition(tenant, offerId, definition);
    }
  }

  const hasPlayer = async (playerId: string) =>
    (await db.select({ p: players.playerId }).from(players).where(and(eq(players.gameId, gameId), eq(players.playerId, playerId)))).length > 0;

  // Aria: three slots full, a queue, progress on a condition, one claimed offer.
  if (!(await hasPlayer("demo-player-1"))) {
    await engine.pushSnapshot(gameId, {
      playerId: "demo-player-1",
      username: "Aria",
      daysInGame: 42,
      loginStreak: 7,
      trustScore: 88,
      currencies: { gold: { balance: 1200, in: 1500, out: 300 }, gems: { balance: 35, in: 40, out: 5 } },
      levels: { main: { level: 12 }, crafting: { level: 4 } },
    });
    const welcome = await engine.assignOffer(gameId, "demo-player-1", "welcome-pack");
    await engine.assignOffer(gameId, "demo-player-1", "daily-login-bonus");
    await engine.assignOffer(gameId, "demo-player-1", "spend-500-gold");
    await engine.assignOffer(gameId, "demo-player-1", "flash-sale");
    await engine.assignOffer(gameId, "demo-player-1", "gem-collector");
    await engine.fetchCampaigns(gameId, "demo-player-1", { viewing: true, includeQueued: true });
    await engine.pushSnapshot(gameId, { playerId: "demo-player-1", currencies: { gold: { balance: 1000, in: 1500, out: 500 } } });
    await engine.claim({ gameId, playerId: "demo-player-1", kind: "offer", instanceId: welcome.instanceId });
  }

  // Bram: an offer that expired, one that is claimable through a condition, one untouched.
  if (!(await hasPlayer("demo-player-2"))) {
    const past = new ManualClock(clock.now().getTime() - 2 * 24 * 3600 * 1000);
    const pastEngine = new OffersEngine({ db, clock: past });
    await pastEngine.pushSnapshot(gameId, {
      playerId: "demo-player-2",
      username: "Bram",
      daysInGame: 3,
      loginStreak: 1,
      trustScore: 51,
      currencies: { gold: { balance: 150, in: 200, out: 50 }, gems: { balance: 30, in: 30, out: 0 } },
      levels: { main: { level: 3 } },
    });
    await pastEngine.assignOffer(gameId, "demo-player-2", "fair-play");
    await engine.assignOffer(gameId, "demo-player-2", "gem-collector");
    await engine.assignOffer(gameId, "demo-player-2", "spend-500-gold");
    await engine.pushSnapshot(gameId, { playerId: "demo-player-2", currencies: { gems: { balance: 5, in: 30, out: 25 } } });
  }

  // Cleo: new, one surfaced offer, referred by Aria (so Aria has a claimable referral).
  if (!(await hasPlayer("demo-player-3"))) {
    await engine.pushSnapshot(gameId, {
      playerId: "demo-player-3",
      username: "Cleo",
      daysInGame: 1,
      loginStreak: 1,
      trustScore: 50,
      currencies: { gold: { balance: 100, in: 100, out: 0 } },
      levels: { main: { level: 1 } },
    });
    await engine.assignOffer(gameId, "demo-player-3", "welcome-pack");
    await engine
      .createReferral(gameId, {
        referrerId: "demo-player-1",
        refereeId: "demo-player-3",
        rewards: [{ kind: "loyalty_currency", rewardId: "gems", name: "Gems", amount: 10, image: demoImages.gems }],
      })
      .catch((error: unknown) => {
        if ((error as { code?: string }).code !== "referral-exists") throw error;
      });
  }
  return { created };
}
