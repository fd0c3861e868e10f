/**
 * Onboarding without SQL: `npm run offers -- <command>` on the same database settings as the service.
 *   games:create <gameId> <name> [--slots N]   prints the client id and API key (shown once)
 *   keys:rotate <gameId>                       adds a second active key (both verify JWTs)
 *   keys:revoke <gameId> <clientId>            revokes a key
 *   games:list                                 games and their active client ids
 */
import { getEnv } from "../env";
import { openOffersDatabase } from "./db";
import { OffersError } from "./errors";
import { GameDirectory } from "./games";
import { SecretBox } from "./secret-box";
import { offersSettings } from "./service";

const usage = `Usage: npm run offers -- <command>
  games:create <gameId> <name> [--slots N]
  keys:rotate <gameId>
  keys:revoke <gameId> <clientId>
  games:list`;

async function embeddedServiceIsRunning(host: string, port: number): Promise<boolean> {
  try {
    const res = await fetch(`http://${host}:${port}/health`, { signal: AbortSignal.timeout(1000) });
    return res.status === 200 || res.status === 503;
  } catch {
    return false;
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if (!command || command === "help" || command === "--help") {
    console.log(usage);
    return command ? 0 : 1;
  }
  const env = getEnv();
  const settings = offersSettings(env);
  // PGlite is single-process: a second process on the same directory would corrupt it.
  if (!settings.databaseUrl && (await embeddedServiceIsRunning(env.OFFERS_HOST, env.OFFERS_PORT))) {
    console.error(`The offers service is running on ${env.OFFERS_HOST}:${env.OFFERS_PORT} with the embedded database (${settings.pgliteDir}).
Stop it first, or use OFFERS_DATABASE_URL (PostgreSQL), which allows both at once.`);
    return 2;
  }
  const database = await openOffersDatabase({ url: settings.databaseUrl, dataDir: settings.databaseUrl ? undefined : settings.pgliteDir, poolSize: 2 });
  const games = new GameDirectory(database.db, new SecretBox(settings.secretKey));
  try {
    switch (command) {
      case "games:create": {
        const [gameId, ...nameParts] = args.filter((a, i, all) => a !== "--slots" && all[i - 1] !== "--slots");
        const slotsIndex = args.indexOf("--slots");
        const slots = slotsIndex >= 0 ? Number(args[slotsIndex + 1]) : undefined;
        const name = nameParts.join(" ");
        if (!gameId || !name || (slots !== undefined && (!Number.isInteger(slots) || slots < 1 || slots > 100))) {
          console.error(usage);
          return 1;
        }
        const created = await games.createGame({ gameId, name, maxOfferSlots: slots });
        console.log(`Game created: ${gameId} (${name})`);
        console.log(`Client id: ${created.clientId}`);
        console.log(`API key:   ${created.apiKey}`);
        console.log("The API key is shown this once. Keep it on your game servers only: it also signs your players' JWTs.");
        return 0;
      }
      case "keys:rotate": {
        const [gameId] = args;
        if (!gameId) {
          console.error(usage);
          return 1;
        }
        const added = await games.rotateKey(gameId);
        console.log(`New key added to ${gameId}; both keys are active now.`);
        console.log(`Client id: ${added.clientId}`);
        console.log(`API key:   ${added.apiKey}`);
        console.log("Move your servers to the new key, then revoke the old one with keys:revoke.");
        return 0;
      }
      case "keys:revoke": {
        const [gameId, clientId] = args;
        if (!gameId || !clientId) {
          console.error(usage);
          return 1;
        }
        await games.revokeKey(gameId, clientId);
        console.log(`Revoked ${clientId} of ${gameId}. Running services stop accepting it within 5 seconds.`);
        return 0;
      }
      case "games:list": {
        for (const g of await games.listGames()) {
          console.log(`${g.gameId}\t${g.name}\tslots=${g.maxOfferSlots}\tclients=${g.activeClientIds.join(",") || "-"}`);
        }
        return 0;
      }
      default:
        console.error(`Unknown command ${command}\n${usage}`);
        return 1;
    }
  } catch (error) {
    if (error instanceof OffersError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
