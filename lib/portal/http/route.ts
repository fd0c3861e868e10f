/**
 * The one preamble of every portal API route: authentication and role, the path, query, header and
 * body parts parsed by their zod schemas, the boundary rule for strings (lib/portal/http/input.ts),
 * and every failure mapped to an answer in one place (lib/portal/http/respond.ts).
 *
 *   export const POST = route({
 *     doc: { responses: { 200: { description: "Done", schema: DoneAnswer } }, errors: ["not-found"] },
 *     role: "operator",
 *     params: componentParams,
 *     body: DoItRequest,
 *     handler: async ({ user, params, body }) => json(await doIt(params.name, body, user)),
 *   });
 *
 * A part is a zod schema (bad input answers 400 `{message: "invalid-request", detail, issues}`), or
 * `{schema, invalid}` where `invalid` names another error (a missing If-Match is 428, not 400).
 * Handlers answer success bodies with json() and throw for everything else. Every route declares its success
 * answers (doc.responses; the schemas live in lib/portal/contracts): json() is typed against them, and tests
 * check each answer against them.
 */
import "server-only";
import type { z } from "zod";
import { authorize } from "@/lib/portal/authorize";
import type { PortalUser, Role } from "@/lib/portal/roles";
import { searchParamsToObject } from "@/lib/catalog/query";
import { Environment } from "@/lib/offers-client/schemas";
import { getPortalServices, type PortalServices } from "@/lib/portal/services";
import { RateLimitedError, rateLimitHeaders, type RateLimitState } from "@/lib/portal/rate-limit";
import { PortalError, requireAnyRole, type PortalErrorCode } from "../errors";
import { assertWellFormed, issuesOf, readJsonBody, type BodyProblem } from "./input";
import { CLIENT_CLOSED_REQUEST } from "./status";
import { errorResponse, portalErrorOf, type Answer } from "./respond";

export type RequestPart = "path" | "query" | "headers" | "body";

/** Why a part of a request was refused. */
export type InputProblem = ({ kind: "schema"; error: z.ZodError; raw: unknown } | BodyProblem) & { part: RequestPart };

export type InvalidAnswer = (problem: InputProblem) => PortalError;

type AnySchema = z.ZodType;
export type Part = AnySchema | { schema: AnySchema; invalid: InvalidAnswer };
type Parsed<T> = T extends { schema: infer S extends AnySchema } ? z.output<S> : T extends AnySchema ? z.output<T> : undefined;

/** What Next.js passes as the second argument of a route handler. */
export type RouteContext = { params?: Promise<Record<string, string | string[] | undefined>> };

export interface RouteInput<P, Q, H, B> {
  request: Request;
  params: Parsed<P>;
  query: Parsed<Q>;
  headers: Parsed<H>;
  body: Parsed<B>;
}

export interface AuthenticatedInput<P, Q, H, B> extends RouteInput<P, Q, H, B> {
  user: PortalUser;
  /** How the caller authenticated: a browser session or a personal API token. */
  via: "session" | "token";
  /** This process's services (lib/portal/services.ts): `await services.catalog()`, `await services.db()`… */
  services: PortalServices;
}

export type SuccessStatus = 200 | 201 | 202 | 204 | 303 | 304;

/**
 * One success answer of a route: a JSON body and its schema (the handler's json() is typed against it, and
 * tests check every body against it), or a body of another content type, or none (204, 304, a redirect).
 */
export type SuccessDoc = { description: string; schema: z.ZodType } | { description: string; contentType: string } | { description: string; noBody: true };
export type SuccessDocs = Partial<Record<SuccessStatus, SuccessDoc>>;

/** What the OpenAPI document (./openapi.ts) says of a route beyond its parts and what every route can answer. */
export interface RouteDoc<R extends SuccessDocs = SuccessDocs> {
  /** Success answers by status: every route declares what it answers. */
  responses: R;
  /** The codes its domain can answer (its table); the status of each comes from ./status.ts. */
  errors?: readonly PortalErrorCode[];
  /**
   * What the body must be, when the route reads it as it comes and its domain validates it (a record the
   * catalog checks, answering 422 with the record's paths): the document shows this instead of `body`.
   */
  requestBody?: z.ZodType;
  /** The fields of a multipart form the handler reads itself (an upload larger than a JSON body may be). */
  requestForm?: z.ZodType;
}

/** The JSON bodies a route may answer: what its declared schemas accept. */
export type BodiesOf<R> = { [K in keyof R]: R[K] extends { schema: infer S extends z.ZodType } ? z.input<S> : never }[keyof R];

interface PartsSpec<P, Q, H, B, R extends SuccessDocs = SuccessDocs> {
  params?: P;
  query?: Q;
  headers?: H;
  /** The JSON body; without it, the body is not read. */
  body?: B;
  doc: RouteDoc<R>;
}

export interface RouteSpec<P, Q, H, B, R extends SuccessDocs = SuccessDocs> extends PartsSpec<P, Q, H, B, R> {
  /**
   * A route of the offers service's games: its `environment` query parameter (live, the default, or
   * test) decides which environment of the games `services.offersAdmin()` reaches, for the route and
   * for everything it calls.
   */
  offersEnvironment?: boolean;
  /** The role the caller needs (admin implies every role), or a list meaning any of them; absent: any signed-in user. */
  role?: Role | readonly Role[];
  /** Only a browser session, not a personal API token, may call (403 `session-required`). */
  sessionOnly?: boolean;
  handler: (input: AuthenticatedInput<P, Q, H, B>) => Promise<Answer<BodiesOf<R>>>;
}

export interface PublicRouteSpec<P, Q, H, B, R extends SuccessDocs = SuccessDocs> extends Omit<PartsSpec<P, Q, H, B, R>, "doc"> {
  /** Absent only where another library answers (next-auth's endpoints, kept out of the document). */
  doc?: RouteDoc<R>;
  handler: (input: RouteInput<P, Q, H, B>) => Promise<Answer<BodiesOf<R>>>;
}

/** The spec a route was built from, kept on its handler for the OpenAPI document. */
export type DocumentedSpec = Omit<PartsSpec<Part, Part, Part, Part>, "doc"> & { doc?: RouteDoc } & ({ public: true } | { public?: false; role?: Role | readonly Role[]; sessionOnly?: boolean; offersEnvironment?: boolean });

export type RouteHandler = ((request: Request, context?: RouteContext) => Promise<Response>) & { readonly spec?: DocumentedSpec };

/**
 * Every error code a route documents (the OpenAPI document, ./openapi.ts, lists them; with checkErrorDocs an answer
 * outside them is a bug): what its spec implies, and its own table.
 */
export function documentedCodes(method: string, spec: DocumentedSpec): Set<PortalErrorCode> {
  return new Set([...derivedCodes(method, spec), ...(spec.doc?.errors ?? [])]);
}

/** Codes any route can answer by what its spec says (who may call it, which parts it reads). */
function derivedCodes(method: string, spec: DocumentedSpec): PortalErrorCode[] {
  // Path and query are checked on every route (well-formed text); a bug is a 500.
  const codes: PortalErrorCode[] = ["invalid-request", "internal-error"];
  if (spec.body) codes.push("payload-too-large");
  if (spec.public) return codes;
  // Sessions and tokens are checked against the portal database; each user has a request budget.
  codes.push("unauthenticated", "database-unavailable", "rate-limited");
  if (spec.role) codes.push("forbidden");
  if (spec.sessionOnly) codes.push("session-required");
  if (method !== "GET") codes.push("cross-site-request");
  return codes;
}

/** A route for signed-in callers (browser session or personal API token). */
export function route<
  P extends Part | undefined = undefined,
  Q extends Part | undefined = undefined,
  H extends Part | undefined = undefined,
  B extends Part | undefined = undefined,
  const R extends SuccessDocs = SuccessDocs,
>(spec: RouteSpec<P, Q, H, B, R>): RouteHandler {
  const handler = async (request: Request, context?: RouteContext) => {
    let budget: RateLimitState | null = null;
    try {
      const roles: readonly Role[] = spec.role === undefined ? [] : typeof spec.role === "string" ? [spec.role] : spec.role;
      const auth = await authorize(request, roles.length === 1 ? roles[0] : undefined);
      const services = getPortalServices();
      // After authentication: only a known user spends, and only its own budget.
      budget = await services.rateLimiter().spend(`user:${auth.user.id}`);
      if (roles.length > 1) requireAnyRole(auth.user, roles);
      if (spec.sessionOnly && auth.via !== "session") throw new PortalError("session-required", "this needs a signed-in browser session, not a personal API token");
      const parts = await parseParts(request, context, spec);
      let response: Response = await spec.handler({ request, user: auth.user, via: auth.via, services: spec.offersEnvironment ? inEnvironment(services, offersEnvironmentOf(request)) : services, ...parts });
      if (services.settings.checkErrorDocs) response = await checkedAnswer(request, documented, response);
      return budget ? withHeaders(response, rateLimitHeaders(budget, false)) : response;
    } catch (error) {
      if (error instanceof RateLimitedError) return withHeaders(errorResponse(error), rateLimitHeaders(error.state, true));
      // The browser left (a page closed, a query cancelled): what failed is the work it no longer wants.
      if (request.signal.aborted) return new Response(null, { status: CLIENT_CLOSED_REQUEST });
      const refusal = portalErrorOf(error);
      if (getPortalServices().settings.checkErrorDocs && !documentedCodes(request.method, documented).has(refusal.code)) {
        console.error(`[portal] ${request.method} ${new URL(request.url).pathname} answered ${refusal.code}, which its OpenAPI table lacks`);
        return errorResponse(new PortalError("internal-error", `undocumented error ${refusal.code}`));
      }
      const answer = errorResponse(refusal);
      return budget ? withHeaders(answer, rateLimitHeaders(budget, false)) : answer;
    }
  };
  const documented = spec as DocumentedSpec;
  return Object.assign(handler, { spec: documented });
}

/**
 * Tests (settings.checkErrorDocs) hold every success answer to what its route declares: its status, its
 * content type, and a JSON body to its schema. A mismatch answers 500, logged with what differed, so the
 * test that made the call fails where the contract broke rather than in a client far away.
 */
async function checkedAnswer(request: Request, spec: DocumentedSpec, response: Response): Promise<Response> {
  if (response.status >= 400 || response.status === CLIENT_CLOSED_REQUEST) return response;
  // Only a public route of another library's answers declares none.
  if (!spec.doc) return response;
  const declared = spec.doc.responses[response.status as SuccessStatus];
  const where = `${request.method} ${new URL(request.url).pathname} ${response.status}`;
  const refuse = (why: string) => {
    console.error(`[portal] ${where}: ${why}`);
    return errorResponse(new PortalError("internal-error", `undeclared answer: ${why}`));
  };
  if (!declared) return refuse(`status ${response.status} is not among the route's declared answers`);
  const contentType = response.headers.get("content-type") ?? "";
  if ("noBody" in declared) return response.body === null ? response : refuse("a body where the route declares none");
  if ("contentType" in declared) return contentType.startsWith(declared.contentType) ? response : refuse(`content type ${contentType}, declared ${declared.contentType}`);
  if (!contentType.startsWith("application/json")) return refuse(`content type ${contentType}, declared application/json`);
  const body: unknown = await response.clone().json();
  const parsed = declared.schema.safeParse(body);
  if (parsed.success) return response;
  const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
  return refuse(`the body does not match its schema: ${issues.join("; ")}`);
}

/** The response with `headers` added (a copy when its headers are immutable, e.g. a redirect). */
function withHeaders(response: Response, headers: Record<string, string>): Response {
  try {
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  } catch {
    const copy = new Headers(response.headers);
    for (const [name, value] of Object.entries(headers)) copy.set(name, value);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers: copy });
  }
}

/** The `environment` query parameter of an offers route (live when absent); a bad one is a 400 naming it. */
export function offersEnvironmentOf(request: Request): Environment {
  const raw = new URL(request.url).searchParams.get("environment");
  const parsed = Environment.safeParse(raw ?? "live");
  if (!parsed.success) throw new PortalError("invalid-request", "environment is live or test", { issues: [{ path: ["environment"], message: "live or test" }] });
  return parsed.data;
}

/** The services with offersAdmin() bound to one environment of the games. */
function inEnvironment(services: PortalServices, environment: Environment): PortalServices {
  return { ...services, offersAdmin: (chosen = environment) => services.offersAdmin(chosen) };
}

/** A route without authentication (sign-out, next-auth's own endpoints, unknown paths). */
export function publicRoute<
  P extends Part | undefined = undefined,
  Q extends Part | undefined = undefined,
  H extends Part | undefined = undefined,
  B extends Part | undefined = undefined,
  const R extends SuccessDocs = SuccessDocs,
>(spec: PublicRouteSpec<P, Q, H, B, R>): RouteHandler {
  const handler = async (request: Request, context?: RouteContext) => {
    try {
      const parts = await parseParts(request, context, spec);
      const response: Response = await spec.handler({ request, ...parts });
      return getPortalServices().settings.checkErrorDocs ? await checkedAnswer(request, documented, response) : response;
    } catch (error) {
      return errorResponse(error);
    }
  };
  const documented = { ...spec, public: true } as DocumentedSpec;
  return Object.assign(handler, { spec: documented });
}

async function parseParts<P extends Part | undefined, Q extends Part | undefined, H extends Part | undefined, B extends Part | undefined>(request: Request, context: RouteContext | undefined, spec: Pick<PartsSpec<P, Q, H, B>, "params" | "query" | "headers" | "body">) {
  const rawParams = (await context?.params) ?? {};
  assertWellFormed("path", rawParams);
  const url = new URL(request.url);
  // A repeated parameter becomes an array of its values.
  const rawQuery = searchParamsToObject(url.searchParams);
  assertWellFormed("query", rawQuery);

  const params = parsePart("path", spec.params, rawParams);
  const query = parsePart("query", spec.query, rawQuery);
  const headers = parsePart("headers", spec.headers, Object.fromEntries(request.headers));

  let body: unknown = undefined;
  if (spec.body) {
    const read = await readJsonBody(request);
    if (!read.ok) throw refusal(spec.body, { ...read.problem, part: "body" });
    assertWellFormed("body", read.value);
    body = parsePart("body", spec.body, read.value);
  }
  return { params, query, headers, body } as { params: Parsed<P>; query: Parsed<Q>; headers: Parsed<H>; body: Parsed<B> };
}

function parsePart(part: RequestPart, spec: Part | undefined, raw: unknown): unknown {
  if (!spec) return undefined;
  const schema = "safeParse" in spec ? spec : spec.schema;
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw refusal(spec, { kind: "schema", error: parsed.error, raw, part });
}

function refusal(spec: Part, problem: InputProblem): PortalError {
  return "safeParse" in spec ? invalidRequest(problem) : spec.invalid(problem);
}

/** The standard answer to bad input: `{message: "invalid-request", detail, issues}` (413 `payload-too-large` for a big body). */
export function invalidRequest(problem: InputProblem): PortalError {
  switch (problem.kind) {
    case "too-large":
      return new PortalError("payload-too-large", `the body is larger than ${problem.limit} bytes`);
    case "malformed-json":
      return new PortalError("invalid-request", "the body is not valid JSON", { issues: [{ path: [], message: "the body is not valid JSON" }] });
    case "schema": {
      const issues = issuesOf(problem.error);
      const first = issues[0];
      const where = first && first.path.length ? `${first.path.join(".")}: ` : "";
      return new PortalError("invalid-request", `the ${problem.part} is not valid: ${where}${first?.message ?? "invalid"}`, { issues });
    }
  }
}
