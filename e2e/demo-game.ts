// The demo game the e2e servers seed (scripts/e2e-server.mjs), and a game client's JWT for one of its
// players, signed with the game's API key as the game's own server would.
import { SignJWT } from "jose";

export const GAME = "demo-game";
export const API_KEY = "demo-api-key";

export function gameJwt(playerId: string, expiresIn: string | number = "15m"): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuer(GAME)
    .setSubject(playerId)
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(new TextEncoder().encode(API_KEY));
}
