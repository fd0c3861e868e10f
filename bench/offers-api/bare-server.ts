/**
 * The comparison point of bench/offers-api: a bare node:http server that does the same work as
 * POST /v1/client/player/campaigns — the same JWT verification, the same query (the engine's
 * fetchCampaigns) and the same JSON — without Fastify, validation or schema serialization.
 */
import http from "node:http";
import { openOffersDatabase } from "../../lib/offers/db";
import { OffersEngine, coreOf } from "../../lib/offers/engine";
import { GameDirectory } from "../../lib/offers/games";
import { extractJwt, JwtError, verifyGameJwt } from "../../lib/offers/jwt";
import { SecretBox } from "../../lib/offers/secret-box";

const database = await openOffersDatabase({ url: process.env.OFFERS_DATABASE_URL!, poolSize: Number(process.env.OFFERS_DATABASE_POOL_SIZE ?? 20) });
const games = new GameDirectory(database.db, new SecretBox(process.env.OFFERS_SECRET_KEY!));
const engine = new OffersEngine({ db: database.db });

const server = http.createServer((req, res) => {
  if (req.url === "/health") return res.end("ok");
  let body = "";
  req.on("data", (chunk: Buffer) => (body += chunk));
  req.on("end", async () => {
    try {
      const { gameId, playerId } = await verifyGameJwt(extractJwt(req.headers), (id) => games.findGameWithKeys(id), new Date());
      const viewing = body ? (JSON.parse(body) as { viewingCampaigns?: boolean }).viewingCampaigns === true : false;
      const view = await engine.fetchCampaigns(gameId, playerId, { viewing, includeQueued: false });
      const payload = JSON.stringify({
        player: { snapshot: coreOf(view.snapshot), data: view.playerData },
        offers: view.offers,
        snapshot: view.snapshot,
        playerData: view.playerData,
      });
      res.writeHead(200, { "content-type": "application/json; charset=utf-8" }).end(payload);
    } catch (error) {
      if (error instanceof JwtError) return res.writeHead(error.status).end(JSON.stringify({ message: error.code }));
      res.writeHead(500).end(JSON.stringify({ message: "internal-error" }));
    }
  });
});
server.listen(Number(process.env.BARE_PORT), "127.0.0.1");
process.on("SIGTERM", () => {
  server.close();
  void database.close().then(() => process.exit(0));
});
