/**
 * Typed client of the offers API (/v1), for browsers and Node. Types come from the same zod
 * schemas as the service's routes, and responses are checked against them.
 *
 *   // In a game client: a JWT from your game server, cached and renewed before expiry.
 *   const game = createGameClient({
 *     baseUrl: "https://offers.example.com/v1",
 *     getJwt: createJwtProvider(() => fetch("/my-game/offers-jwt").then((r) => r.text())),
 *   });
 *   const { offers } = await game.campaigns({ viewingCampaigns: true });
 *   const stream = game.connectStream({ onOffer: (offer) => showToast(offer.name) });
 *   // …later: stream.close();
 *
 *   // On a game server (never in client code: the API key is the JWT secret).
 *   const server = createServerClient({ baseUrl, clientId, apiKey });
 *   // The game's test environment: test credentials (ok_test_…), its own players and offers.
 *   const sandbox = createServerClient({ environment: "test", baseUrl, clientId: testClientId, apiKey: testApiKey });
 *   await server.assignOffer({ playerId: "p1", offerId: "daily-chest" });
 *
 * Claims carry an Idempotency-Key (one per claim() call, or yours) and are retried with the same key
 * when the answer is lost (network failure, 502/503/504): a retried claim answers what the first did.
 */
import type { z } from "zod";
import { BrandedError } from "../errors";
import {
  AssignOfferRequest,
  CLIENT_ADDRESS_HEADER,
  ClientBalancesResponse,
  ClientCampaignsRequest,
  ClientCampaignsResponse,
  ClientClaimRequest,
  ClientClaimResponse,
  ClientReferralsResponse,
  Offer,
  OfferDefinition,
  OfferDefinitionInput,
  OneTimeTokenGenerateResponse,
  OneTimeTokenRedeemRequest,
  OneTimeTokenRedeemResponse,
  PlayerSnapshot,
  Referral,
  ReferralCreateRequest,
  ServerCampaignsRefreshRequest,
  ServerCampaignsRefreshResponse,
  ServerClaimRequest,
  ServerClaimResponse,
  ServerExtendRequest,
  ServerGrantRequest,
  ServerOfferActionRequest,
  SnapshotPushRequest,
  SupportGrantResponse,
  SupportOfferActionResponse,
  type Environment,
} from "../offers/contract";
import { connectEventStream, DEFAULT_SILENCE_TIMEOUT_MS, type EventStreamHandle, type StreamState } from "./sse";
import { createJwtProvider, jwtExpiry, type JwtProvider } from "./jwt-provider";

export { connectEventStream, createJwtProvider, DEFAULT_SILENCE_TIMEOUT_MS, jwtExpiry };
export type { EventStreamHandle, JwtProvider, StreamState };
export type { Environment, Offer } from "../offers/contract";

/** A non-2xx answer. `code` is the error code the interface documents (jwt-expired, invalid-api-key, offer-not-claimable…). */
export class OffersApiError extends BrandedError {
  static readonly brand: string = "offers-client.OffersApiError";

  constructor(
    readonly status: number,
    readonly code: string,
    readonly body: unknown,
    /** Seconds to wait before asking again (the answer's Retry-After: a 429, a busy database's 503). */
    readonly retryAfterSeconds?: number,
  ) {
    super(`offers API ${status}: ${code}`);
  }
}

/** Retry-After in seconds (the service sends seconds; an HTTP date is read too), or undefined. */
function retryAfterOf(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = /^\d+$/.test(header.trim()) ? Number(header) : Math.ceil((Date.parse(header) - Date.now()) / 1000);
  return Number.isFinite(seconds) ? Math.max(0, seconds) : undefined;
}

interface BaseOptions {
  /**
   * The game's environment: live (default) or test. The service tells them apart by the credential
   * (a test API key, or a JWT signed with one); this picks the base URL when there is one per
   * environment, keeps a player's live and test streams apart, and refuses a credential of the
   * other environment (test keys and client ids start with ok_test_ / cl_test_).
   */
  environment?: Environment;
  /** The API base, ending in /v1: one for both environments, or one per environment. */
  baseUrl: string | Record<Environment, string>;
  fetch?: typeof fetch;
}

/** The base URL of the client's environment. */
export function baseUrlOf(options: Pick<BaseOptions, "baseUrl" | "environment">): string {
  return typeof options.baseUrl === "string" ? options.baseUrl : options.baseUrl[options.environment ?? "live"];
}

/** A credential that says it belongs to the other environment is refused at once, not at the first call. */
function checkCredentialEnvironment(environment: Environment, ...credentials: string[]): void {
  const foreign = environment === "live" ? /^(ok|cl)_test_/ : /^(ok|cl)_live_/;
  if (credentials.some((c) => foreign.test(c))) {
    throw new Error(`a ${environment === "live" ? "test" : "live"} credential in a ${environment} client: pass environment: "${environment === "live" ? "test" : "live"}" or the ${environment} credentials`);
  }
}

/** Options of one claim() call. */
export interface ClaimOptions {
  /** Keep the same key when you retry a claim yourself (e.g. after a reload); default: a new UUID per call. */
  idempotencyKey?: string;
}

/** Pauses before the retries of a claim whose answer was lost. */
const CLAIM_RETRY_DELAYS_MS = [250, 1_000];

function isLostAnswer(error: unknown): boolean {
  // fetch rejects with a TypeError when the connection fails; a gateway or a busy database answers 502–504.
  return error instanceof TypeError || (error instanceof OffersApiError && [502, 503, 504].includes(error.status));
}

/** Runs a claim, again with the same Idempotency-Key while its answer is lost. */
async function idempotentClaim<T>(options: ClaimOptions, send: (headers: Record<string, string>) => Promise<T>): Promise<T> {
  const headers = { "Idempotency-Key": options.idempotencyKey ?? globalThis.crypto.randomUUID() };
  for (let attempt = 0; ; attempt++) {
    try {
      return await send(headers);
    } catch (error) {
      const delay = CLAIM_RETRY_DELAYS_MS[attempt];
      if (delay === undefined || !isLostAnswer(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

function joinUrl(baseUrl: string, path: string): string {
  return baseUrl.replace(/\/+$/, "") + path;
}

async function call<S extends z.ZodType>(
  options: BaseOptions,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: unknown,
  schema: S,
): Promise<z.infer<S>> {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const response = await doFetch(joinUrl(baseUrlOf(options), path), {
    method,
    headers: { "Content-Type": "application/json", Accept: "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  if (!response.ok) {
    const code = typeof parsed === "string" ? parsed : ((parsed as { message?: string } | undefined)?.message ?? `http-${response.status}`);
    throw new OffersApiError(response.status, code, parsed, retryAfterOf(response.headers.get("retry-after")));
  }
  return schema.parse(parsed);
}

export interface GameClientOptions extends BaseOptions {
  /** Answers the player's JWT; use createJwtProvider to cache and renew it. */
  getJwt: JwtProvider;
}

export interface OfferStreamOptions {
  onOffer: (offer: Offer, eventId: string | undefined) => void;
  onStateChange?: (state: StreamState) => void;
  /** Resume after this event id (e.g. kept in storage across page loads). */
  lastEventId?: string;
  /**
   * Reconnect when nothing (not even a heartbeat) has arrived for this long: default 45 s, 1.5 of
   * the service's 30 s heartbeats. Lower it only with the service's `SSE_HEARTBEAT_MS`.
   */
  silenceTimeoutMs?: number;
}

/** Streams held in this runtime, one per player and service: a new one replaces the old. */
const openStreams = new Map<string, EventStreamHandle>();

/** Client for game clients: the player and game come from the JWT. */
export function createGameClient(options: GameClientOptions) {
  const withJwt = async <S extends z.ZodType>(path: string, body: unknown, schema: S, headers: Record<string, string> = {}): Promise<z.infer<S>> => {
    const token = await options.getJwt();
    try {
      return await call(options, "POST", path, { ...headers, Authorization: `Bearer ${token}` }, body, schema);
    } catch (error) {
      // The token may have expired between caching and use: renew once and retry.
      if (error instanceof OffersApiError && error.code === "jwt-expired") {
        const fresh = await options.getJwt({ forceRefresh: true });
        return call(options, "POST", path, { ...headers, Authorization: `Bearer ${fresh}` }, body, schema);
      }
      throw error;
    }
  };

  return {
    campaigns: (request: z.input<typeof ClientCampaignsRequest> = {}) =>
      withJwt("/client/player/campaigns", ClientCampaignsRequest.parse(request), ClientCampaignsResponse),
    claim: (request: z.input<typeof ClientClaimRequest>, claimOptions: ClaimOptions = {}) => {
      const body = ClientClaimRequest.parse(request);
      return idempotentClaim(claimOptions, (headers) => withJwt("/client/reward/claim", body, ClientClaimResponse, headers));
    },
    generateOneTimeToken: () => withJwt("/auth/one_time_token/generate", {}, OneTimeTokenGenerateResponse),
    /** The player's referrals (as referrer), newest first. */
    referrals: () => withJwt("/client/player/referrals", {}, ClientReferralsResponse),
    /** When the game last reported the player's balances, and what was claimed since (ours). */
    balances: () => withJwt("/client/player/balances", {}, ClientBalancesResponse),

    /**
     * Opens the player's event stream: offers surfaced in real time, with reconnection (exponential
     * backoff with jitter, also after a silence longer than silenceTimeoutMs), resume from the last
     * event id, and token renewal. One per player.
     */
    connectStream(stream: OfferStreamOptions): EventStreamHandle {
      const url = joinUrl(baseUrlOf(options), "/sse/connect");
      let registryKey: string | undefined;
      const handle = connectEventStream({
        url,
        fetch: options.fetch,
        lastEventId: stream.lastEventId,
        silenceTimeoutMs: stream.silenceTimeoutMs,
        getToken: async (o) => {
          const token = await options.getJwt(o);
          // One stream per player and environment: a player's live and test streams are two players'.
          const key = `${url}|${options.environment ?? "live"}|${playerOf(token)}`;
          if (registryKey !== key) {
            const older = openStreams.get(key);
            if (older && older !== handle) older.close();
            registryKey = key;
            openStreams.set(key, handle);
          }
          return token;
        },
        onEvent: (event) => {
          if (event.event !== "offer_surfaced") return;
          const data = JSON.parse(event.data) as { offer: unknown };
          stream.onOffer(Offer.parse(data.offer), event.id);
        },
        onStateChange: (state) => {
          if (state.status === "closed" && registryKey && openStreams.get(registryKey) === handle) openStreams.delete(registryKey);
          stream.onStateChange?.(state);
        },
      });
      return handle;
    },
  };
}

function playerOf(token: string): string {
  try {
    const payload = JSON.parse(atob(token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/"))) as { iss?: string; sub?: string };
    return `${payload.iss}/${payload.sub}`;
  } catch {
    return token;
  }
}

export interface ServerClientOptions extends BaseOptions {
  clientId: string;
  apiKey: string;
}

/** Client for game servers (API key). Never ship it, or the key, to a browser or game client. */
export function createServerClient(options: ServerClientOptions) {
  checkCredentialEnvironment(options.environment ?? "live", options.apiKey, options.clientId);
  const headers = { "x-api-key": options.apiKey, "x-client-id": options.clientId };
  const post = <S extends z.ZodType>(path: string, body: unknown, schema: S) => call(options, "POST", path, headers, body, schema);
  return {
    refreshCampaigns: (request: z.input<typeof ServerCampaignsRefreshRequest>) =>
      post("/player/campaigns/refresh", ServerCampaignsRefreshRequest.parse(request), ServerCampaignsRefreshResponse),
    claim: (request: z.input<typeof ServerClaimRequest>, claimOptions: ClaimOptions = {}) => {
      const body = ServerClaimRequest.parse(request);
      return idempotentClaim(claimOptions, (idempotency) => call(options, "POST", "/reward/sdk/claim", { ...headers, ...idempotency }, body, ServerClaimResponse));
    },
    upsertDefinition: (offerId: string, definition: z.input<typeof OfferDefinitionInput>) =>
      call(options, "PUT", `/offers/definitions/${encodeURIComponent(offerId)}`, headers, OfferDefinitionInput.parse(definition), OfferDefinition),
    assignOffer: (request: z.input<typeof AssignOfferRequest>) => post("/player/offers/assign", AssignOfferRequest.parse(request), Offer),
    pushSnapshot: (request: z.input<typeof SnapshotPushRequest>) => post("/player/snapshot", SnapshotPushRequest.parse(request), PlayerSnapshot),
    createReferral: (request: z.input<typeof ReferralCreateRequest>) => post("/referrals", ReferralCreateRequest.parse(request), Referral),
    /** Grants a compensation reward at once (a reward.granted event, actor game-server:<clientId>); retried with one Idempotency-Key like a claim. */
    grantReward: (request: z.input<typeof ServerGrantRequest>, grantOptions: ClaimOptions = {}) => {
      const body = ServerGrantRequest.parse(request);
      return idempotentClaim(grantOptions, (idempotency) => call(options, "POST", "/player/rewards/grant", { ...headers, ...idempotency }, body, SupportGrantResponse));
    },
    /** Expires, revokes or makes claimable one of the player's offers, with a reason; a repeat answers changed false. */
    actOnOffer: (instanceId: string, action: "expire" | "revoke" | "make-claimable", request: z.input<typeof ServerOfferActionRequest>) =>
      post(`/player/offers/${encodeURIComponent(instanceId)}/${action}`, ServerOfferActionRequest.parse(request), SupportOfferActionResponse),
    /** Moves one of the player's offers' expiry later (at most 30 days from now), with a reason. */
    extendOffer: (instanceId: string, request: z.input<typeof ServerExtendRequest>) =>
      post(`/player/offers/${encodeURIComponent(instanceId)}/extend`, ServerExtendRequest.parse(request), SupportOfferActionResponse),
  };
}

/**
 * The portal's server redeeming for a player: its admin token, and the player's address, which the
 * service's limit per address counts instead of the portal's. Server side only.
 */
export interface RedeemRelay {
  adminToken: string;
  clientAddress: string;
}

/** Redeems a one-time dashboard token (the token is the credential): once, within 5 minutes. */
export function redeemOneTimeToken(options: BaseOptions, request: z.input<typeof OneTimeTokenRedeemRequest>, relay?: RedeemRelay) {
  const headers: Record<string, string> = relay ? { Authorization: `Bearer ${relay.adminToken}`, [CLIENT_ADDRESS_HEADER]: relay.clientAddress } : {};
  return call(options, "POST", "/auth/one_time_token/redeem", headers, OneTimeTokenRedeemRequest.parse(request), OneTimeTokenRedeemResponse);
}
