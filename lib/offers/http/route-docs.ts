/**
 * What the OpenAPI document says of a route besides its own shapes: who may call it (security) and
 * every error it can answer. A route names its audience and the domain codes it can meet (its one
 * table of error codes); the rest follows from data kept elsewhere:
 *   - the codes every route of an audience can answer (its credential's refusals) — AUDIENCE_CODES;
 *   - the codes of the HTTP boundary (input rules, body limits, the database) — below;
 *   - each code's status — the one table in ../errors;
 *   - each code's body — invalid-request carries its issues, precondition-failed the current etag,
 *     invalid-api-key is the bare JSON string (interface), every other code is {message: code}.
 * The same schemas check the error bodies in tests (plugins/input.ts), so a route that answers a code
 * missing from its table fails there instead of documenting less than it does.
 */
import { z } from "zod";
import { statusOf, type ApiErrorCode, type OffersErrorCode, type StatusOf } from "../errors";
import * as S from "../contract";

export type Audience = "game-client" | "game-server" | "admin" | "public";

/** The security schemes of the document (components.securitySchemes). */
export const SECURITY_SCHEMES = {
  gameJwt: { type: "apiKey", in: "header", name: "x-game-jwt", description: "The player's game JWT (HS256, signed by the game server with the game's API key; iss = gameId, sub = playerId)." },
  bearerJwt: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "The same game JWT as `Authorization: Bearer <JWT>`." },
  apiKey: { type: "apiKey", in: "header", name: "x-api-key", description: "The game's API key (game servers only; never in client code)." },
  clientId: { type: "apiKey", in: "header", name: "x-client-id", description: "The client id issued with the API key." },
  adminToken: { type: "http", scheme: "bearer", description: "OFFERS_ADMIN_TOKEN: the portal's admin API only." },
} as const;

type SecurityRequirement = Partial<Record<keyof typeof SECURITY_SCHEMES, string[]>>;

/** Alternatives are separate requirements; the API key and client id go together. */
export const securityOf: Record<Audience, SecurityRequirement[]> = {
  "game-client": [{ gameJwt: [] }, { bearerJwt: [] }],
  "game-server": [{ apiKey: [], clientId: [] }],
  admin: [{ adminToken: [] }],
  // Explicitly none: the redeem endpoint's only credential is the one-time token in its body.
  public: [],
};

/**
 * What every route of an audience can be refused for, whatever it does. `rate-limited` also decides
 * which routes are limited (plugins/rate-limit.ts): those of game clients, game servers and the
 * public route; the admin API is not (its one caller, the portal, limits its own users).
 */
const AUDIENCE_CODES = {
  // Reading the game's keys to verify a JWT or an API key meets a wrong OFFERS_SECRET_KEY as 503.
  "game-client": [...S.JwtErrorCode.options, "secret-key-mismatch", "rate-limited"],
  "game-server": ["invalid-api-key", "secret-key-mismatch", "rate-limited"],
  admin: ["invalid-admin-token", "invalid-environment"],
  // The portal relays a player's address with its admin token; a wrong one is refused.
  public: ["rate-limited", "invalid-admin-token"],
} as const satisfies Record<Audience, readonly ApiErrorCode[]>;

/**
 * Every route: the input boundary checks each route's path and query (plugins/input.ts), every route
 * reads the database, and a bug is a 500.
 */
const EVERY_ROUTE = ["invalid-request", "database-unavailable", "internal-error"] as const satisfies readonly ApiErrorCode[];
/** A route that reads a body (POST, PUT, PATCH, DELETE): the body limit and JSON-only parsing. */
const BODY_CODES = ["payload-too-large", "unsupported-media-type"] as const satisfies readonly ApiErrorCode[];

const STATUS_TEXT: Record<number, string> = {
  400: "Bad request",
  401: "Unauthenticated",
  404: "Not found",
  409: "Conflict",
  410: "Gone",
  412: "Precondition failed (If-Match is stale; etag is the current ETag)",
  413: "Payload too large",
  415: "Unsupported media type",
  422: "Unprocessable",
  428: "Precondition required (send If-Match)",
  429: "Too many requests",
  500: "Internal error",
  503: "Unavailable (retry after Retry-After)",
};

type CodesOf<A extends Audience, C extends OffersErrorCode, B extends boolean> =
  | C
  | (typeof AUDIENCE_CODES)[A][number]
  | (typeof EVERY_ROUTE)[number]
  | (B extends true ? (typeof BODY_CODES)[number] : never);

/** The body of one code. */
export type ErrorBodyOf<C extends ApiErrorCode> = C extends "invalid-api-key"
  ? "invalid-api-key"
  : C extends "invalid-request"
    ? S.InvalidRequest
    : C extends "precondition-failed"
      ? S.PreconditionFailed
      : { message: C };

type CodesWithStatus<C extends ApiErrorCode, N> = C extends ApiErrorCode ? (StatusOf<C> extends N ? C : never) : never;

/** Status → body schema, precise enough that a route's reply is typed per status. */
export type ErrorResponses<C extends ApiErrorCode> = { [N in StatusOf<C>]: z.ZodType<ErrorBodyOf<CodesWithStatus<C, N>>> };

function bodySchema(status: number, codes: ApiErrorCode[]): z.ZodType {
  const coded = codes.filter((c) => c !== "invalid-request" && c !== "invalid-api-key" && c !== "precondition-failed");
  const parts: z.ZodType[] = [];
  if (codes.includes("invalid-request")) parts.push(S.InvalidRequest);
  if (codes.includes("invalid-api-key")) parts.push(S.ApiKeyError);
  if (codes.includes("precondition-failed")) parts.push(S.PreconditionFailed);
  if (coded.length > 0) parts.push(z.object({ message: z.enum(coded as [string, ...string[]]) }));
  const description = `${STATUS_TEXT[status] ?? `Status ${status}`}: ${codes.map((c) => `\`${c}\``).join(", ")}.`;
  return (parts.length === 1 ? parts[0] : z.union(parts)).describe(description);
}

/**
 * The error entries of a route's `response`: every status it can answer besides success, with its
 * body. `body: true` for a route that reads a request body.
 */
export function errorResponses<A extends Audience, C extends OffersErrorCode = never, B extends boolean = false>(
  audience: A,
  options: { codes?: readonly C[]; body: B },
): ErrorResponses<CodesOf<A, C, B>> {
  const all = new Set<ApiErrorCode>([...(options.codes ?? []), ...AUDIENCE_CODES[audience], ...EVERY_ROUTE, ...(options.body ? BODY_CODES : [])]);
  const byStatus = new Map<number, ApiErrorCode[]>();
  for (const code of all) byStatus.set(statusOf[code], [...(byStatus.get(statusOf[code]) ?? []), code]);
  const responses: Record<number, z.ZodType> = {};
  for (const status of [...byStatus.keys()].sort()) responses[status] = bodySchema(status, byStatus.get(status)!);
  return responses as ErrorResponses<CodesOf<A, C, B>>;
}
