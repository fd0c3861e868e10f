/**
 * The comparison point of bench/offers-api: a bare node:http server that does the same work as the
 * service's hot paths without Fastify, validation or schema serialization:
 * - POST /v1/client/player/campaigns: the same JWT verification, the same query (the engine's
 *   fetchCampaigns) and the same JSON;
 * - POST /v1/reward/sdk/claim: the same API-key check (the game directory's cache), the same claim
 *   statement (the engine's claimOnce) on the same pool size, and the same answer.
 */
import http from "node:http";
import { openOffersDatabase } from "../../lib/offers/db";
import { OffersEngine, coreOf } from "../../lib/offers/engine";
import { OffersError } from "../../lib/offers/errors";
import { GameDirectory } from "../../lib/offers/games";
import { extractJwt, JwtError, verifyGameJwt } from "../../lib/offers/jwt";
import { SecretBox } from "../../lib/offers/secret-box";

const database = await openOffersDatabase({ url: process.env.OFFERS_DATABASE_URL!, poolSize: Number(process.env.OFFERS_DATABASE_POOL_SIZE ?? 20) });
const games = new GameDirectory(database.db, new SecretBox(process.env.OFFERS_SECRET_KEY!));
const engine = new OffersEngine({ db: database.db });

async function campaigns(req: http.IncomingMessage, body: string) {
  const { gameId, playerId } = await verifyGameJwt(extractJwt(req.headers), (id) => games.findGameWithKeys(id), new Date());
  const viewing = body ? (JSON.parse(body) as { viewingCampaigns?: boolean }).viewingCampaigns === true : false;
  const view = await engine.fetchCampaigns(gameId, playerId, { viewing, includeQueued: false });
  return {
    player: { snapshot: coreOf(view.snapshot), data: view.playerData },
    offers: view.offers,
    snapshot: view.snapshot,
    playerData: view.playerData,
  };
}

async function claim(req: http.IncomingMessage, body: string) {
  const header = (name: string) => (typeof req.headers[name] === "string" ? (req.headers[name] as string) : undefined);
  const gameId = await games.authenticateApiKey(header("x-client-id"), header("x-api-key"));
  if (!gameId) return { status: 401, payload: "invalid-api-key" };
  const { kind, instanceId, playerId } = JSON.parse(body) as { kind: "offer" | "referral"; instanceId: string; playerId: string };
  const { rewards } = await engine.claimOnce({ gameId, playerId, kind, instanceId, via: "server" });
  return { status: 200, payload: { message: "Rewards claimed", rewards } };
}

const server = http.createServer((req, res) => {
  if (req.url === "/health") return res.end("ok");
  let body = "";
  req.on("data", (chunk: Buffer) => (body += chunk));
  req.on("end", async () => {
    const send = (status: number, payload: unknown) => res.writeHead(status, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(payload));
    try {
      if (req.url === "/v1/reward/sdk/claim") {
        const { status, payload } = await claim(req, body);
        return send(status, payload);
      }
      send(200, await campaigns(req, body));
    } catch (error) {
      if (error instanceof JwtError) return send(error.status, { message: error.code });
      if (error instanceof OffersError) return send(error.status, { message: error.code });
      send(500, { message: "internal-error" });
    }
  });
});
server.listen(Number(process.env.BARE_PORT), "127.0.0.1");
process.on("SIGTERM", () => {
  server.close();
  void database.close().then(() => process.exit(0));
});
