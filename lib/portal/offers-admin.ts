/**
 * The portal's server-side client of the offers service's admin API (/v1/admin/...), for the
 * route handlers of the support dashboard and the live-ops console. The admin token stays on the server: the browser only ever
 * talks to the portal's same-origin routes (app/api/offers/**).
 *
 *   const admin = services.offersAdmin();   // the route handler's services (lib/portal/services.ts)
 *   return json(await admin.listGames());
 *   // Route handlers let OffersAdminError through: lib/portal/http answers 503 offers-service-unavailable, 404 player-not-found …
 *
 * Every answer is checked against the service's own zod schemas (lib/offers-client/schemas.ts). The
 * service's refusals a caller can act on keep their code (precondition-failed with the current etag,
 * offer-not-found, …); its invalid-request keeps its issues. ETags pass through untouched: a change
 * sends the If-Match it was given, and the service's ETag is in each answer's body (`etag`).
 */
import "server-only";
import { z } from "zod";
import type { PortalEnv } from "../env/portal";
import { persistentSecret } from "../secrets";
import {
  AdminDefinitionChange,
  AdminDefinitionDetail,
  AdminDefinitionList,
  AdminGame,
  AdminPlayerState,
  AdminPlayerSummary,
  AudienceCount,
  DefinitionFunnel,
  SurfacingJob,
  SurfacingPreview,
  AdminDefinitionCreate,
  type AudienceCountRequest,
  type DefinitionAction,
  type OfferDefinitionInput,
  AdminWebhooks as AdminWebhooksAnswer,
  WebhookDeliveryPage,
  WebhookDeliveryQuery,
  WebhookEndpoint,
  WebhookEndpointCreated as WebhookEndpointCreatedAnswer,
  WebhookEndpointInput,
  WebhookEndpointPatch,
  WebhookReplayed,
  WebhookReplayRequest,
  WebhookSecretRotated,
  WebhookTestSent,
  SupportGrantList,
  BULK_LIMIT_IN_WORDS,
  BulkCompensationList,
  BulkCompensationResponse,
  BulkPreviewResponse,
  type BulkCompensationRequest,
  type BulkJobStatus,
  SupportGrantResponse,
  SupportThresholds,
  TimelinePage,
  type TimelineKind,
  type SupportGrantRequest,
  type SupportGrantStatus,
  SupportAssignResponse,
  SupportOfferActionResponse,
  SupportResendResponse,
  type SupportAssignRequest,
  type SupportExtendRequest,
  type SupportOfferAction,
  type SupportOfferActionRequest,
  type SupportResendRequest,
  type Environment,
} from "../offers-client/schemas";
import { PortalError, type PortalIssue } from "./errors";
import { OffersAdminError } from "./offers-admin-error";

export { OffersAdminError };

export type { AdminGame, AdminPlayerState } from "../offers-client/schemas";
export type AdminWebhooks = z.infer<typeof AdminWebhooksAnswer>;
export type WebhookEndpointCreated = z.infer<typeof WebhookEndpointCreatedAnswer>;
export type WebhookEndpointSettings = z.input<typeof WebhookEndpointInput>;
export type WebhookEndpointChange = z.infer<typeof WebhookEndpointPatch>;
export type WebhookLogQuery = Partial<z.infer<typeof WebhookDeliveryQuery>>;
export type WebhookReplayRange = z.infer<typeof WebhookReplayRequest>;
export type AdminPlayerSummary = z.infer<typeof AdminPlayerSummary>;

export const GamesAnswer = z.object({ games: z.array(AdminGame) });
export const PlayersAnswer = z.object({ players: z.array(AdminPlayerSummary) });
export const JobsAnswer = z.object({ jobs: z.array(SurfacingJob) });
/** What the offers service answers a deleted webhook endpoint. */
export const WebhookEndpointDeleted = z.object({ deleted: z.literal(true) });
/** A definition to create, as parsed (offerId included). */
export type DefinitionCreateInput = z.infer<typeof AdminDefinitionCreate>;

export interface OffersAdminOptions {
  /** Base URL of the offers service, without /v1 (OFFERS_BASE_URL). */
  baseUrl: string;
  /** The admin Bearer token (OFFERS_ADMIN_TOKEN or the one generated under DATA_DIR). */
  token: string;
  /** Per-call timeout of JSON calls and of the watch stream's first byte of headers. */
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** The game environment every call is about (live by default): the admin API's x-offers-environment. */
  environment?: Environment;
}

/** Settings as both services resolve them: the same token file when OFFERS_ADMIN_TOKEN is unset. */
export function offersAdminSettings(env: PortalEnv): Pick<OffersAdminOptions, "baseUrl" | "token"> {
  return {
    baseUrl: env.OFFERS_BASE_URL,
    token: persistentSecret(env.DATA_DIR, "offers-admin-token", env.OFFERS_ADMIN_TOKEN),
  };
}

const DEFAULT_TIMEOUT_MS = 5_000;
/** A bulk compensation resolves up to a million ids against the players table before it answers. */
const BULK_TIMEOUT_MS = 120_000;

function unavailable(detail: string): OffersAdminError {
  return new OffersAdminError("offers-service-unavailable", `offers service unavailable: ${detail}`);
}

/** The service's codes that the portal passes through (its UIs tell them apart), with a sentence each. */
const PASSED_THROUGH = {
  "game-not-found": "no such game in the offers service",
  "player-not-found": "no such player in this game",
  "offer-not-found": "no such offer definition in this game",
  "definition-exists": "an offer definition with this id already exists in this game",
  "definition-archived": "the offer definition is archived; restore it to draft before activating it",
  "webhook-endpoint-not-found": "no such webhook endpoint in this game",
  "webhook-delivery-not-found": "no such delivery in this game",
  "webhook-url-not-allowed": "the offers service refuses this URL: it reaches a loopback or private address",
  "too-many-webhook-endpoints": "this game has as many webhook endpoints as allowed (20); delete one first",
  "unknown-reward": "the game knows no such reward: pick one of its currencies or a reward of one of its offers",
  "support-grant-not-found": "no such support grant in this game",
  "support-grant-decided": "this grant was already approved, rejected or expired; reload to see who decided",
  "support-grant-expired": "this grant waited too long for a decision and expired; ask again if it is still due",
  "four-eyes-same-person": "a grant is approved or rejected by someone other than the person who asked for it",
  "idempotency-key-reused": "this request's key was already used for another grant; reload and send it again",
  "invalid-cursor": "this page of the timeline cannot be found; start again from the newest entries",
  "offer-already-assigned": "the player already has this offer open; expire or revoke it before offering it again",
  "offer-transition-refused":
    "the offer's status does not allow this: a claimable offer does not expire or extend (revoke takes it back), a queued one is not made claimable, and a claimed or ended one takes no action",
  "expiry-out-of-range": "the new expiry must be later than the offer's current one, and at most 30 days from now",
  "bulk-job-not-found": "no such bulk compensation in this game",
  "bulk-job-decided": "this compensation was already approved, rejected, cancelled or expired; reload to see who decided",
  "bulk-job-expired": "this compensation waited too long for approval and expired; ask again if it is still due",
  "bulk-job-finished": "this compensation has already ended",
  "bulk-result-deleted": "this compensation's per-player result was deleted after the retention period; its counts remain",
  "bulk-no-players": "none of these ids is a player of this game environment: nothing to grant",
  "bulk-too-many-players": `one compensation takes ${BULK_LIMIT_IN_WORDS}; split the list`,
} as const;

const ServiceEtag = z.object({ etag: z.string() });
const ServiceIssues = z.array(z.object({ path: z.array(z.union([z.string(), z.number()])), message: z.string() }));

/** Maps a non-2xx answer of the service (its upstream status, read here only) to an error. */
function errorFromAnswer(status: number, text: string): PortalError {
  if (status >= 500) return unavailable(`HTTP ${status}`);
  let code = `http-${status}`;
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
    if (typeof body === "string") code = body;
    else if (body && typeof body === "object" && typeof (body as { message?: unknown }).message === "string") code = (body as { message: string }).message;
  } catch {
    // not JSON: keep http-<status>
  }
  // A 403 that is the service's own refusal (four eyes) passes through; any other 401/403 is our credential.
  if (status === 401 || (status === 403 && code !== "four-eyes-same-person")) {
    return new OffersAdminError("offers-admin-token-rejected", "the offers service refused the portal's admin token (check OFFERS_ADMIN_TOKEN)");
  }
  if (Object.hasOwn(PASSED_THROUGH, code)) {
    const known = code as keyof typeof PASSED_THROUGH;
    return new OffersAdminError(known, PASSED_THROUGH[known]);
  }
  if (code === "precondition-failed") {
    // The service's current ETag goes back to the caller (body and header), as the portal's own records answer it.
    const parsed = ServiceEtag.safeParse(body);
    return new PortalError("precondition-failed", "someone else changed this since you loaded it; reload to see their change, then apply yours again", {
      fields: parsed.success ? { etag: parsed.data.etag } : {},
    });
  }
  if (code === "precondition-required") {
    return new PortalError("precondition-required", "If-Match is required: send the ETag this change is based on");
  }
  if (code === "invalid-request") {
    // What the portal's own checks let through (a rule the service reads more strictly): said at its path.
    const parsed = ServiceIssues.safeParse((body as { issues?: unknown }).issues);
    const issues: PortalIssue[] = parsed.success ? parsed.data.map((i) => ({ path: i.path.map(String), message: i.message })) : [];
    const first = issues[0];
    const where = first ? `${first.path.length ? `${first.path.join(".")}: ` : ""}${first.message}` : "invalid";
    return new PortalError("invalid-request", `the offers service refused the request: ${where}`, { issues });
  }
  return new OffersAdminError("offers-request-refused", `the offers service refused the request (HTTP ${status}, ${code})`);
}

/** What a JSON call sends besides the path. */
interface CallOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Sent as the JSON body. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Longer than the default for the calls that carry a large list (a bulk compensation of a million ids). */
  timeoutMs?: number;
}

/** The If-Match a change was sent with, passed to the service as it came. */
const conditional = (ifMatch: string): Record<string, string> => ({ "If-Match": ifMatch });

export function createOffersAdminClient(options: OffersAdminOptions) {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const base = options.baseUrl.replace(/\/+$/, "") + "/v1/admin";
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const headers = { Authorization: `Bearer ${options.token}`, "x-offers-environment": options.environment ?? "live" };

  /**
   * fetch with the timeout and an optional caller signal; network failures and timeouts become
   * `offers-service-unavailable`. `stopTimer` ends the timeout (after the body, or for a stream after
   * the headers); the caller's signal keeps aborting the request until it ends.
   */
  async function send(path: string, accept: string, signal: AbortSignal | undefined, call: Omit<CallOptions, "signal"> = {}) {
    const controller = new AbortController();
    let timedOut = false;
    const limitMs = call.timeoutMs ?? timeoutMs;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, limitMs);
    const onAbort = () => controller.abort();
    if (signal?.aborted) controller.abort();
    signal?.addEventListener("abort", onAbort, { once: true });
    const stopTimer = () => clearTimeout(timer);
    const failure = (error: unknown) => {
      stopTimer();
      if (signal?.aborted && !timedOut) return error;
      return unavailable(timedOut ? `no answer within ${limitMs} ms` : describe(error));
    };
    const withBody = call.body !== undefined;
    try {
      const response = await doFetch(base + path, {
        method: call.method ?? "GET",
        headers: { ...headers, Accept: accept, ...(withBody ? { "Content-Type": "application/json" } : {}), ...call.headers },
        ...(withBody ? { body: JSON.stringify(call.body) } : {}),
        signal: controller.signal,
        cache: "no-store",
      });
      return { response, stopTimer, failure };
    } catch (error) {
      throw failure(error);
    }
  }

  /** The answer's body, read within the timeout. */
  async function readText({ response, stopTimer, failure }: Awaited<ReturnType<typeof send>>): Promise<string> {
    try {
      return await response.text();
    } catch (error) {
      // A body cut off by the timeout or a dropped connection: the service is not answering.
      throw failure(error);
    } finally {
      stopTimer();
    }
  }

  async function callJson<S extends z.ZodType>(path: string, schema: S, call: CallOptions = {}): Promise<z.infer<S>> {
    const { signal, ...rest } = call;
    // A POST without a body still sends JSON: the service reads every POST as JSON.
    const sent = await send(path, "application/json", signal, rest.method === "POST" && rest.body === undefined ? { ...rest, body: {} } : rest);
    const text = await readText(sent);
    const { response } = sent;
    if (!response.ok) throw errorFromAnswer(response.status, text);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new OffersAdminError("offers-bad-response", "the offers service answered something that is not JSON");
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new OffersAdminError("offers-bad-response", `unexpected answer from the offers service: ${issue ? `${issue.path.join(".")}: ${issue.message}` : "invalid"}`);
    }
    return parsed.data;
  }

  const getJson = <S extends z.ZodType>(path: string, schema: S, signal?: AbortSignal) => callJson(path, schema, { signal });

  const seg = encodeURIComponent;
  /** A change: the JSON body sent, the answer checked like a read's. */
  const write = <S extends z.ZodType>(method: "POST" | "PATCH" | "PUT" | "DELETE", path: string, body: unknown, schema: S, signal?: AbortSignal, headers?: Record<string, string>) =>
    callJson(path, schema, { signal, method, body: body ?? {}, headers });
  const hooks = (gameId: string) => `/games/${seg(gameId)}/webhooks`;

  return {
    listGames: (signal?: AbortSignal) => getJson("/games", GamesAnswer, signal).then((a) => a.games),

    findPlayers: (gameId: string, query: string, limit = 20, signal?: AbortSignal) => {
      const params = new URLSearchParams({ q: query, limit: String(limit) });
      return getJson(`/games/${seg(gameId)}/players?${params}`, PlayersAnswer, signal).then((a) => a.players);
    },

    /** The player's whole state; an OffersAdminError `player-not-found` when the game has no such player. */
    playerState: (gameId: string, playerId: string, signal?: AbortSignal) =>
      getJson(`/games/${seg(gameId)}/players/${seg(playerId)}`, AdminPlayerState, signal),

    // ---- live ops: definitions with their targeting, lifecycle, preview, audience size, jobs, funnel ----

    /** A game's definitions with their funnel and claims per day over `days`. */
    listDefinitions: (gameId: string, days = 14, signal?: AbortSignal) =>
      getJson(`/games/${seg(gameId)}/definitions?${new URLSearchParams({ days: String(days) })}`, AdminDefinitionList, signal),

    /** One definition with its surfacing jobs; offer-not-found when there is none. */
    definition: (gameId: string, offerId: string, signal?: AbortSignal) => getJson(`/games/${seg(gameId)}/definitions/${seg(offerId)}`, AdminDefinitionDetail, signal),

    /** Creates a definition (a draft unless it names a status); definition-exists when the id is taken. */
    createDefinition: (gameId: string, input: DefinitionCreateInput, signal?: AbortSignal) =>
      callJson(`/games/${seg(gameId)}/definitions`, AdminDefinitionChange, { method: "POST", body: input, signal }),

    /** Replaces the definition whose ETag `ifMatch` names; precondition-failed (with the current etag) when it moved on since. */
    updateDefinition: (gameId: string, offerId: string, input: OfferDefinitionInput, ifMatch: string, signal?: AbortSignal) =>
      callJson(`/games/${seg(gameId)}/definitions/${seg(offerId)}`, AdminDefinitionChange, { method: "PUT", body: input, headers: conditional(ifMatch), signal }),

    /** Activates, pauses, archives or restores to draft the state `ifMatch` names (else precondition-failed). */
    changeDefinitionStatus: (gameId: string, offerId: string, action: DefinitionAction, ifMatch: string, signal?: AbortSignal) =>
      callJson(`/games/${seg(gameId)}/definitions/${seg(offerId)}/${action}`, AdminDefinitionChange, { method: "POST", headers: conditional(ifMatch), signal }),

    /** Would the definition surface for the player now, with every check. */
    previewDefinition: (gameId: string, offerId: string, playerId: string, signal?: AbortSignal) =>
      callJson(`/games/${seg(gameId)}/definitions/${seg(offerId)}/preview`, SurfacingPreview, { method: "POST", body: { playerId }, signal }),

    definitionFunnel: (gameId: string, offerId: string, days = 14, signal?: AbortSignal) =>
      getJson(`/games/${seg(gameId)}/definitions/${seg(offerId)}/funnel?${new URLSearchParams({ days: String(days) })}`, DefinitionFunnel, signal),

    /** Surfacing jobs of a definition, newest first. */
    definitionJobs: (gameId: string, offerId: string, signal?: AbortSignal) =>
      getJson(`/games/${seg(gameId)}/definitions/${seg(offerId)}/jobs`, JobsAnswer, signal).then((a) => a.jobs),

    /** How many of the game's players an audience (within a rollout of offerId) matches now. */
    audienceCount: (gameId: string, request: AudienceCountRequest, signal?: AbortSignal) =>
      callJson(`/games/${seg(gameId)}/audience/count`, AudienceCount, { method: "POST", body: request, signal }),

    /** A game's webhook endpoints and delivery figures (lag, pending, dead letters). */
    webhooks: (gameId: string, signal?: AbortSignal) => getJson(hooks(gameId), AdminWebhooksAnswer, signal),

    /** Adds an endpoint; the answer carries its signing secret, to be shown once and never stored. */
    createWebhookEndpoint: (gameId: string, input: WebhookEndpointSettings, signal?: AbortSignal) => write("POST", `${hooks(gameId)}/endpoints`, input, WebhookEndpointCreatedAnswer, signal),

    /** One endpoint (its `etag` is the If-Match of a change); webhook-endpoint-not-found when the game has none of that id. */
    webhookEndpoint: (gameId: string, endpointId: string, signal?: AbortSignal) => getJson(`${hooks(gameId)}/endpoints/${seg(endpointId)}`, WebhookEndpoint, signal),

    /** Changes the endpoint state `ifMatch` names (else precondition-failed with the current etag). */
    updateWebhookEndpoint: (gameId: string, endpointId: string, patch: WebhookEndpointChange, ifMatch: string, signal?: AbortSignal) =>
      write("PATCH", `${hooks(gameId)}/endpoints/${seg(endpointId)}`, patch, WebhookEndpoint, signal, conditional(ifMatch)),

    /** Deletes an endpoint with its deliveries; webhook-endpoint-not-found when the game has no such endpoint. */
    deleteWebhookEndpoint: (gameId: string, endpointId: string, ifMatch: string, signal?: AbortSignal) =>
      callJson(`${hooks(gameId)}/endpoints/${seg(endpointId)}`, WebhookEndpointDeleted, { method: "DELETE", headers: conditional(ifMatch), signal }),

    rotateWebhookSecret: (gameId: string, endpointId: string, ifMatch: string, signal?: AbortSignal) =>
      write("POST", `${hooks(gameId)}/endpoints/${seg(endpointId)}/rotate-secret`, {}, WebhookSecretRotated, signal, conditional(ifMatch)),

    sendWebhookTest: (gameId: string, endpointId: string, signal?: AbortSignal) => write("POST", `${hooks(gameId)}/endpoints/${seg(endpointId)}/test`, {}, WebhookTestSent, signal),

    webhookDeliveries: (gameId: string, query: WebhookLogQuery, signal?: AbortSignal) => {
      const params = new URLSearchParams(Object.entries(query).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])));
      return getJson(`${hooks(gameId)}/deliveries${params.size ? `?${params}` : ""}`, WebhookDeliveryPage, signal);
    },

    replayWebhookDelivery: (gameId: string, deliveryId: number, signal?: AbortSignal) => write("POST", `${hooks(gameId)}/deliveries/${deliveryId}/replay`, {}, WebhookReplayed, signal),

    replayFailedWebhooks: (gameId: string, request: WebhookReplayRange, signal?: AbortSignal) => write("POST", `${hooks(gameId)}/replay`, request, WebhookReplayed, signal),

    // ---- support actions: compensation grants and their four-eyes approval ----

    /** Grants a compensation reward (or stores it pending above the game's thresholds); `idempotencyKey` makes a retry answer the first grant. */
    requestSupportGrant: (gameId: string, playerId: string, request: SupportGrantRequest, idempotencyKey?: string, signal?: AbortSignal) =>
      write("POST", `/games/${seg(gameId)}/players/${seg(playerId)}/support-grants`, request, SupportGrantResponse, signal, idempotencyKey ? { "Idempotency-Key": idempotencyKey } : undefined).then(
        (a) => a.grant,
      ),

    /** The game's support grants, newest first, and how many wait for approval. */
    supportGrants: (gameId: string, query: { status?: SupportGrantStatus; playerId?: string; limit?: number } = {}, signal?: AbortSignal) => {
      const params = new URLSearchParams(Object.entries(query).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])));
      return getJson(`/games/${seg(gameId)}/support-grants${params.size ? `?${params}` : ""}`, SupportGrantList, signal);
    },

    /** Approves or rejects a pending grant as `actor` (never its requester: four-eyes-same-person). */
    decideSupportGrant: (gameId: string, grantId: string, decision: "approve" | "reject", body: { actor: string; reason?: string }, signal?: AbortSignal) =>
      write("POST", `/games/${seg(gameId)}/support-grants/${seg(grantId)}/${decision}`, body, SupportGrantResponse, signal).then((a) => a.grant),

    /** One page of a player's timeline, newest first (`before`: the `next` of the page before). */
    playerTimeline: (gameId: string, playerId: string, query: { kinds: readonly TimelineKind[]; before?: string; limit: number }, signal?: AbortSignal) => {
      const params = new URLSearchParams({ kinds: query.kinds.join(","), limit: String(query.limit), ...(query.before ? { before: query.before } : {}) });
      return getJson(`/games/${seg(gameId)}/players/${seg(playerId)}/timeline?${params}`, TimelinePage, signal);
    },
    // ---- support acts on a player's offers and deliveries ----

    /** Expires, revokes or makes claimable one of the player's offers as `actor`; a repeat answers `changed: false`. */
    supportOfferAction: (gameId: string, playerId: string, instanceId: string, action: Exclude<SupportOfferAction, "extend">, body: SupportOfferActionRequest, signal?: AbortSignal) =>
      write("POST", `/games/${seg(gameId)}/players/${seg(playerId)}/offers/${seg(instanceId)}/${action}`, body, SupportOfferActionResponse, signal),

    /** Moves the offer's expiry later (at most 30 days ahead). */
    supportExtendOffer: (gameId: string, playerId: string, instanceId: string, body: SupportExtendRequest, signal?: AbortSignal) =>
      write("POST", `/games/${seg(gameId)}/players/${seg(playerId)}/offers/${seg(instanceId)}/extend`, body, SupportOfferActionResponse, signal),

    /** Re-offer: assigns a definition to the player; offer-already-assigned while one is open. */
    supportReoffer: (gameId: string, playerId: string, body: SupportAssignRequest, signal?: AbortSignal) =>
      write("POST", `/games/${seg(gameId)}/players/${seg(playerId)}/offers`, body, SupportAssignResponse, signal).then((a) => a.offer),

    /** Sends the player's deliveries again (all, or `deliveryId`); a repeat within seconds sends nothing more. */
    supportResendDeliveries: (gameId: string, playerId: string, body: SupportResendRequest, signal?: AbortSignal) =>
      write("POST", `/games/${seg(gameId)}/players/${seg(playerId)}/deliveries/replay`, body, SupportResendResponse, signal),

    // ---- incident compensation in bulk: preview, ask (four eyes always), decide, progress, cancel, result ----

    /** What a bulk compensation would grant; nothing is stored. */
    previewBulkCompensation: (gameId: string, request: BulkCompensationRequest, signal?: AbortSignal) =>
      callJson(`/games/${seg(gameId)}/bulk-compensations/preview`, BulkPreviewResponse, { method: "POST", body: request, signal, timeoutMs: BULK_TIMEOUT_MS }).then((a) => a.preview),

    /** Asks for a bulk compensation (pending until a second person approves it); `idempotencyKey` makes a repeated submit answer the first job. */
    requestBulkCompensation: (gameId: string, request: BulkCompensationRequest, idempotencyKey?: string, signal?: AbortSignal) =>
      callJson(`/games/${seg(gameId)}/bulk-compensations`, BulkCompensationResponse, {
        method: "POST",
        body: request,
        signal,
        timeoutMs: BULK_TIMEOUT_MS,
        headers: idempotencyKey ? { "Idempotency-Key": idempotencyKey } : undefined,
      }).then((a) => a.job),

    bulkCompensations: (gameId: string, query: { status?: BulkJobStatus; limit?: number } = {}, signal?: AbortSignal) => {
      const params = new URLSearchParams(Object.entries(query).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])));
      return getJson(`/games/${seg(gameId)}/bulk-compensations${params.size ? `?${params}` : ""}`, BulkCompensationList, signal);
    },

    bulkCompensation: (gameId: string, jobId: string, signal?: AbortSignal) =>
      getJson(`/games/${seg(gameId)}/bulk-compensations/${seg(jobId)}`, BulkCompensationResponse, signal).then((a) => a.job),

    /** Approves, rejects or cancels a job as `actor` (approve and reject: never its requester). */
    bulkCompensationAction: (gameId: string, jobId: string, action: "approve" | "reject" | "cancel", body: { actor: string; reason?: string }, signal?: AbortSignal) =>
      write("POST", `/games/${seg(gameId)}/bulk-compensations/${seg(jobId)}/${action}`, body, BulkCompensationResponse, signal).then((a) => a.job),

    /** The job's result as the service streams it (CSV); the caller relays the body. */
    bulkCompensationResult: async (gameId: string, jobId: string, signal?: AbortSignal): Promise<Response> => {
      const sent = await send(`/games/${seg(gameId)}/bulk-compensations/${seg(jobId)}/result`, "text/csv", signal);
      // The timeout covers the headers; the body streams for as long as it takes.
      sent.stopTimer();
      if (!sent.response.ok) throw errorFromAnswer(sent.response.status, await readText(sent));
      return sent.response;
    },

    supportThresholds: (gameId: string, signal?: AbortSignal) => getJson(`/games/${seg(gameId)}/support-thresholds`, SupportThresholds, signal),

    setSupportThresholds: (gameId: string, thresholds: SupportThresholds, signal?: AbortSignal) => write("PUT", `/games/${seg(gameId)}/support-thresholds`, thresholds, SupportThresholds, signal),

    /**
     * Opens the player's watch stream; answers the upstream response (status 200, body the
     * text/event-stream). Abort `signal` to close it.
     */
    async openWatch(gameId: string, playerId: string, signal?: AbortSignal): Promise<Response> {
      const sent = await send(`/games/${seg(gameId)}/players/${seg(playerId)}/watch`, "text/event-stream", signal);
      const { response, stopTimer } = sent;
      if (!response.ok) throw errorFromAnswer(response.status, await readText(sent));
      stopTimer();
      if (!response.body || !(response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
        void response.body?.cancel().catch(() => {});
        throw new OffersAdminError("offers-bad-response", "the watch answer is not an event stream");
      }
      return response;
    },
  };
}

export type OffersAdminClient = ReturnType<typeof createOffersAdminClient>;

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/** Headers of a text/event-stream answer through the portal (no compression, no buffering). */
export const eventStreamHeaders: Record<string, string> = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache, no-transform",
  "X-Accel-Buffering": "no",
};

/**
 * The body of the portal's watch route: the upstream stream passed through chunk by chunk. When the
 * browser goes away (`downstream` aborts or the body is cancelled), the upstream request is aborted,
 * so the offers service frees its watcher.
 */
export function relayEventStream(upstream: Response, abortUpstream: () => void): ReadableStream<Uint8Array> {
  const reader = upstream.body!.getReader();
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    abortUpstream();
    reader.cancel().catch(() => {});
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          finished = true;
          controller.close();
        } else controller.enqueue(value);
      } catch {
        // Upstream ended abruptly (service restart): end the stream; EventSource reconnects.
        finish();
        try {
          controller.close();
        } catch {
          // already closed or cancelled
        }
      }
    },
    cancel() {
      finish();
    },
  });
}

/**
 * A short event stream that tells the browser the offers service could not be reached and asks it to
 * retry after `retryMs` (EventSource then reconnects by itself instead of giving up).
 */
export function unavailableEventStream(error: OffersAdminError, retryMs = 3_000): Response {
  const body = `retry: ${retryMs}\nevent: unavailable\ndata: ${JSON.stringify({ message: error.code, detail: error.detail })}\n\n`;
  return new Response(body, { status: 200, headers: eventStreamHeaders });
}
