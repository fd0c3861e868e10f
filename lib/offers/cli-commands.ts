/**
 * Onboarding and key management without SQL: `npm run offers -- <command>` on the same database
 * settings as the service (see `usage`). Every command that opens the database first checks that
 * OFFERS_SECRET_KEY matches the stored API keys, and refuses to run otherwise.
 */
import { randomBytes } from "node:crypto";
import type { OffersEnv } from "../env/offers";
import { openOffersDatabase } from "./db";
import { OffersError } from "./errors";
import { Environment, tenantOf } from "./environments";
import { GameDirectory, MAX_MAX_TOKEN_LIFETIME_SECONDS, MIN_MAX_TOKEN_LIFETIME_SECONDS, type GameSettingsInput } from "./games";
import { RateLimitSettings, type EffectiveRateLimits, type StoredRateLimits } from "./rate-limits";
import { SecretBox } from "./secret-box";
import { ensureSecretKeyMatches, rotateSecretKey, SecretKeyRefusedError } from "./secret-key";
import { offersSettings } from "./service";

export const usage = `Usage: npm run offers -- <command>
  games:create <gameId> <name> [--slots N] [--max-token-lifetime DURATION]
                                  prints the client id and API key of the live and of the
                                  test environment (shown once)
  games:set <gameId> [--slots N] [--max-token-lifetime DURATION]
                                  changes a game's offer slots or longest accepted JWT lifetime
  games:list                      games, their settings and active client ids (live and test)
  keys:rotate <gameId> [--environment live|test]
                                  adds a second active key of that environment (default live;
                                  both verify JWTs); the first test key of an older game too
  keys:revoke <gameId> <clientId> revokes a key (of either environment)
  rate-limits:show <gameId> [--environment live|test]
                                  the request budgets per minute of the game environment
  rate-limits:set <gameId> [--client-per-minute N|default] [--server-per-minute N|default]
                  [--environment live|test]
                                  sets the game's own budgets (0 = unlimited; default = the
                                  service's OFFERS_RATE_LIMIT_*_PER_MINUTE)
  secret-key:generate             prints a new random OFFERS_SECRET_KEY (touches nothing)
  secret-key:rotate               re-encrypts every stored API key under OFFERS_SECRET_KEY
                                  (the old key in OFFERS_SECRET_KEY_PREVIOUS), in one transaction
DURATION: seconds, or a number with s, m, h or d (e.g. 900, 15m, 24h); from ${MIN_MAX_TOKEN_LIFETIME_SECONDS} s to ${MAX_MAX_TOKEN_LIFETIME_SECONDS / 86_400} days. Default lifetime 24h.`;

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

/** "900", "15m", "24h", "2d" → seconds; NaN when unreadable. */
export function parseDuration(text: string): number {
  const match = /^(\d+)([smhd]?)$/.exec(text.trim());
  if (!match) return Number.NaN;
  const unit = { "": 1, s: 1, m: 60, h: 3600, d: 86_400 }[match[2] as "" | "s" | "m" | "h" | "d"];
  return Number(match[1]) * unit;
}

/** Splits `--name value` options from positional arguments; answers null on an unknown option or a missing value. */
function parseArgs(args: string[], known: string[]): { positional: string[]; options: Record<string, string> } | null {
  const positional: string[] = [];
  const options: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg.startsWith("--")) {
      const name = arg.slice(2);
      if (!known.includes(name) || args[i + 1] === undefined) return null;
      options[name] = args[++i];
    } else positional.push(arg);
  }
  return { positional, options };
}

/** The settings named by --slots and --max-token-lifetime (the domain checks their ranges). */
function settingsFrom(options: Record<string, string>): GameSettingsInput {
  return {
    ...(options.slots !== undefined ? { maxOfferSlots: Number(options.slots) } : {}),
    ...(options["max-token-lifetime"] !== undefined ? { maxTokenLifetimeSeconds: parseDuration(options["max-token-lifetime"]) } : {}),
  };
}

/** --client-per-minute / --server-per-minute: a whole number (0 = unlimited) or "default"; null when unreadable. */
function rateLimitChanges(options: Record<string, string>): Partial<StoredRateLimits> | null {
  const read = (text: string | undefined): number | null | undefined | false => {
    if (text === undefined) return undefined;
    if (text === "default") return null;
    return /^\d+$/.test(text) ? Number(text) : false;
  };
  const client = read(options["client-per-minute"]);
  const server = read(options["server-per-minute"]);
  if (client === false || server === false) return null;
  return { ...(client !== undefined ? { clientPerMinute: client } : {}), ...(server !== undefined ? { serverPerMinute: server } : {}) };
}

function describeRateLimits(gameId: string, environment: string, limits: EffectiveRateLimits): string {
  const one = (value: number, own: number | null) => `${value === 0 ? "unlimited" : `${value}/min`} (${own === null ? "service default" : "the game's own"})`;
  return `${gameId} (${environment}): client=${one(limits.clientPerMinute, limits.stored.clientPerMinute)} per player, server=${one(limits.serverPerMinute, limits.stored.serverPerMinute)}`;
}

async function embeddedServiceIsRunning(host: string, port: number): Promise<boolean> {
  try {
    const res = await fetch(`http://${host}:${port}/health`, { signal: AbortSignal.timeout(1000) });
    return res.status === 200 || res.status === 503;
  } catch {
    return false;
  }
}

/** Runs one command; answers the exit code (0 ok, 1 usage or refused, 2 cannot run here). */
export async function runOffersCli(argv: string[], env: OffersEnv, io: CliIo): Promise<number> {
  const [command, ...args] = argv;
  if (!command || command === "help" || command === "--help") {
    io.out(usage);
    return command ? 0 : 1;
  }
  if (command === "secret-key:generate") {
    io.out(randomBytes(32).toString("hex"));
    return 0;
  }
  const known = ["games:create", "games:set", "games:list", "keys:rotate", "keys:revoke", "rate-limits:show", "rate-limits:set", "secret-key:rotate"];
  if (!known.includes(command)) {
    io.err(`Unknown command ${command}\n${usage}`);
    return 1;
  }
  const parsed = parseArgs(args, ["slots", "max-token-lifetime", "environment", "client-per-minute", "server-per-minute"]);
  if (!parsed) {
    io.err(usage);
    return 1;
  }
  const { positional, options } = parsed;

  const settings = offersSettings(env);
  // PGlite is single-process: a second process on the same directory would corrupt it.
  if (!settings.databaseUrl && (await embeddedServiceIsRunning(env.OFFERS_HOST, env.OFFERS_PORT))) {
    io.err(`The offers service is running on ${env.OFFERS_HOST}:${env.OFFERS_PORT} with the embedded database (${settings.pgliteDir}).
Stop it first, or use OFFERS_DATABASE_URL (PostgreSQL), which allows both at once.`);
    return 2;
  }
  const database = await openOffersDatabase({ url: settings.databaseUrl, dataDir: settings.databaseUrl ? undefined : settings.pgliteDir, poolSize: 2 });
  const box = new SecretBox(settings.secretKey, settings.previousSecretKey);
  const games = new GameDirectory(database.db, box);
  try {
    // A command run with the wrong key would seal new keys the service cannot open.
    const keyState = await ensureSecretKeyMatches(database.db, box, settings.secretKeySource);
    if (keyState === "rotation-pending" && command !== "secret-key:rotate") {
      io.err("Note: stored API keys are still sealed under OFFERS_SECRET_KEY_PREVIOUS; run secret-key:rotate to finish the rotation.");
    }
    switch (command) {
      case "games:create": {
        const [gameId, ...nameParts] = positional;
        const name = nameParts.join(" ");
        if (!gameId || !name) {
          io.err(usage);
          return 1;
        }
        const created = await games.createGame({ gameId, name, ...settingsFrom(options) });
        io.out(`Game created: ${gameId} (${name})`);
        io.out(`Live client id: ${created.clientId}`);
        io.out(`Live API key:   ${created.apiKey}`);
        io.out(`Test client id: ${created.test.clientId}`);
        io.out(`Test API key:   ${created.test.apiKey}`);
        io.out("The API keys are shown this once. Keep them on your game servers only: they also sign your players' JWTs.");
        io.out("Test keys reach the game's test environment: its own players, offers, claims and webhooks, apart from live.");
        return 0;
      }
      case "games:set": {
        const [gameId] = positional;
        const changes = settingsFrom(options);
        if (!gameId || positional.length !== 1 || Object.keys(changes).length === 0) {
          io.err(usage);
          return 1;
        }
        const game = await games.updateGame(gameId, changes);
        io.out(`${game.gameId}: slots=${game.maxOfferSlots} max-token-lifetime=${game.maxTokenLifetimeSeconds}s. Running services apply it within 5 seconds.`);
        return 0;
      }
      case "keys:rotate": {
        const [gameId] = positional;
        if (!gameId) {
          io.err(usage);
          return 1;
        }
        const environment = Environment.safeParse(options.environment ?? "live");
        if (!environment.success) {
          io.err(`--environment is live or test\n${usage}`);
          return 1;
        }
        const added = await games.rotateKey(gameId, { environment: environment.data });
        io.out(`New ${environment.data} key added to ${gameId}; every active ${environment.data} key verifies now.`);
        io.out(`Client id: ${added.clientId}`);
        io.out(`API key:   ${added.apiKey}`);
        io.out("Move your servers to the new key, then revoke the old one with keys:revoke.");
        return 0;
      }
      case "keys:revoke": {
        const [gameId, clientId] = positional;
        if (!gameId || !clientId) {
          io.err(usage);
          return 1;
        }
        await games.revokeKey(gameId, clientId);
        io.out(`Revoked ${clientId} of ${gameId}. Running services stop accepting it within 5 seconds.`);
        return 0;
      }
      case "rate-limits:show":
      case "rate-limits:set": {
        const [gameId] = positional;
        const environment = Environment.safeParse(options.environment ?? "live");
        const changes = rateLimitChanges(options);
        if (!gameId || positional.length !== 1 || !environment.success || !changes || (command === "rate-limits:set" && Object.keys(changes).length === 0)) {
          io.err(usage);
          return 1;
        }
        const limits = new RateLimitSettings(database.db, { clientPerMinute: env.OFFERS_RATE_LIMIT_CLIENT_PER_MINUTE, serverPerMinute: env.OFFERS_RATE_LIMIT_SERVER_PER_MINUTE });
        const tenant = tenantOf(gameId, environment.data);
        const result = command === "rate-limits:set" ? await limits.set(tenant, changes) : await limits.effective(tenant);
        io.out(describeRateLimits(gameId, environment.data, result));
        if (command === "rate-limits:set") io.out("Running services apply it within 5 seconds.");
        return 0;
      }
      case "games:list": {
        for (const g of await games.listGames()) {
          io.out(
            `${g.gameId}\t${g.name}\tslots=${g.maxOfferSlots}\tmax-token-lifetime=${g.maxTokenLifetimeSeconds}s\tclients=${g.activeClientIds.join(",") || "-"}\ttest-clients=${g.testClientIds.join(",") || "-"}`,
          );
        }
        return 0;
      }
      case "secret-key:rotate": {
        const result = await rotateSecretKey(database.db, box);
        io.out(
          `Re-encrypted ${result.resealed} stored API key${result.resealed === 1 ? "" : "s"} under OFFERS_SECRET_KEY ` +
            `(${result.unchanged} already were) and ${result.webhookSecretsResealed} webhook signing secret${result.webhookSecretsResealed === 1 ? "" : "s"}; the stored check value now names OFFERS_SECRET_KEY.`,
        );
        io.out("Instances started with only the old key now refuse to start; remove OFFERS_SECRET_KEY_PREVIOUS from every instance at its next restart.");
        return 0;
      }
    }
    return 1;
  } catch (error) {
    if (error instanceof OffersError || error instanceof SecretKeyRefusedError) {
      io.err(error.message);
      return 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}
