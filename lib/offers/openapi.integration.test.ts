/**
 * The offers service's OpenAPI document as its readers meet it: `redocly lint` with the recommended
 * rules finds no error; every operation says who may call it and every error it can answer; the
 * client types generated from it (openapi-typescript) are the committed ones; and a game developer's
 * program using them with openapi-fetch compiles and reads each refusal as the interface describes.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import openapiTS, { astToString, COMMENT_HEADER } from "openapi-typescript";
import type { OpenAPIV3_1 } from "openapi-types";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeProblems, redoclyLint } from "@/test-support/redocly";
import { buildOffersOpenApiDocument } from "./openapi";
import { startOffersTestApp, type OffersTestContext } from "@/test-support/offers/test-app";

const GENERATED = path.resolve("lib/offers-client/generated/offers-api.d.ts");
const METHODS = ["get", "put", "post", "delete", "patch"] as const;

type Operation = OpenAPIV3_1.OperationObject & { method: string; path: string };

function operationsOf(doc: OpenAPIV3_1.Document): Operation[] {
  return Object.entries(doc.paths ?? {}).flatMap(([p, item]) =>
    METHODS.filter((m) => item?.[m]).map((m) => ({ ...(item![m] as OpenAPIV3_1.OperationObject), method: m.toUpperCase(), path: p })),
  );
}

const responseSchema = (op: Operation, status: number, type = "application/json") =>
  (op.responses?.[status] as OpenAPIV3_1.ResponseObject | undefined)?.content?.[type]?.schema as OpenAPIV3_1.SchemaObject | undefined;

/** Every `message` code a response's body may carry (enum values of each branch). */
function codesOf(schema: OpenAPIV3_1.SchemaObject | undefined): string[] {
  if (!schema) return [];
  const branches = (schema.anyOf as OpenAPIV3_1.SchemaObject[] | undefined) ?? [schema];
  return branches.flatMap((b) => (b.type === "string" ? (b.enum as string[]) : ((b.properties?.message as OpenAPIV3_1.SchemaObject | undefined)?.enum as string[]) ?? [])).sort();
}

describe("the offers OpenAPI document", () => {
  let doc: OpenAPIV3_1.Document;
  let operations: Operation[];
  beforeAll(async () => {
    doc = await buildOffersOpenApiDocument();
    operations = operationsOf(doc);
  });

  it("passes redocly lint (recommended rules) with no error, and no warning but the missing license", async () => {
    const problems = await redoclyLint(doc);
    expect(problems.filter((p) => p.severity === "error"), describeProblems(problems)).toEqual([]);
    // A private service states no license (docs/decisions/2026-11-25-openapi-documents.md).
    expect(problems.map((p) => p.ruleId)).toEqual(["info-license"]);
  });

  it("gives every operation an operationId, a security requirement and its error responses", () => {
    expect(operations.length).toBeGreaterThan(40);
    expect(new Set(operations.map((o) => o.operationId)).size).toBe(operations.length);
    for (const op of operations) {
      const where = `${op.method} ${op.path}`;
      expect(op.operationId, where).toMatch(/^[a-z][A-Za-z]+$/);
      expect(op.security, where).toBeDefined();
      for (const status of ["400", "500", "503"]) expect(op.responses, where).toHaveProperty([status]);
      // Only routes that read a body can be refused for its size or type.
      for (const status of ["413", "415"]) expect(status in (op.responses ?? {}), `${where} ${status}`).toBe(op.method !== "GET");
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        expect((response as OpenAPIV3_1.ResponseObject).content, `${where} ${status}`).toBeDefined();
      }
    }
    expect(doc.servers?.length).toBeGreaterThan(0);
  });

  it("answers the interface's refusals: JWT codes as {message}, the API key's as a bare string, each at its status", () => {
    const byPath = (method: string, p: string) => operations.find((o) => o.method === method && o.path === p)!;
    const jwtRoutes = ["/v1/client/player/campaigns", "/v1/client/reward/claim", "/v1/auth/one_time_token/generate"].map((p) => byPath("POST", p));
    for (const op of [...jwtRoutes, byPath("GET", "/v1/sse/connect")]) {
      expect(codesOf(responseSchema(op, 401))).toEqual(["jwt-expired", "jwt-invalid", "jwt-not-yet-valid", "unknown-gameId"]);
      expect(codesOf(responseSchema(op, 400))).toEqual(expect.arrayContaining(["invalid-request", "jwt-missing-gameId", "jwt-missing-playerId"]));
    }
    for (const p of ["/v1/player/campaigns/refresh", "/v1/reward/sdk/claim"]) {
      expect(responseSchema(byPath("POST", p), 401)).toMatchObject({ type: "string", enum: ["invalid-api-key"] });
    }
    const claim = byPath("POST", "/v1/client/reward/claim");
    expect(codesOf(responseSchema(claim, 404))).toEqual(["offer-not-found"]);
    expect(codesOf(responseSchema(claim, 409))).toEqual(["offer-not-claimable"]);
    expect(codesOf(responseSchema(claim, 422))).toEqual(["idempotency-key-reused"]);
    expect(responseSchema(claim, 400)?.anyOf).toContainEqual(expect.objectContaining({ required: ["message", "issues"] }));

    const stream = byPath("GET", "/v1/sse/connect");
    expect(stream.security).toEqual([{ bearerJwt: [] }]);
    expect(responseSchema(stream, 200, "text/event-stream")).toMatchObject({ type: "string" });
    expect(codesOf(responseSchema(stream, 409))).toEqual(["stream-replaced"]);

    const redeem = byPath("POST", "/v1/auth/one_time_token/redeem");
    // No credential but the token; the portal adds its admin token to relay the player's address.
    expect(redeem.security).toEqual([{}, { adminToken: [] }]);
    expect(redeem.parameters).toContainEqual(expect.objectContaining({ in: "header", name: "x-offers-client-address", required: false }));
    expect(codesOf(responseSchema(redeem, 410))).toEqual(["token-expired", "token-used"]);

    for (const op of operations.filter((o) => o.path.startsWith("/v1/admin/"))) {
      expect(op.security, op.path).toEqual([{ adminToken: [] }]);
      expect(codesOf(responseSchema(op, 401))).toEqual(["invalid-admin-token"]);
    }
    expect(responseSchema(byPath("GET", "/v1/admin/games/{gameId}/players"), 200)).toMatchObject({ properties: { players: { type: "array" } } });
    expect(doc.components?.securitySchemes).toMatchObject({ adminToken: { type: "http", scheme: "bearer" }, bearerJwt: { type: "http", scheme: "bearer" } });
  });

  it("says additionalProperties: false at every level of an authoring or management body, and not of the interface's game bodies", () => {
    const refs = (doc.components?.schemas ?? {}) as Record<string, OpenAPIV3_1.SchemaObject>;
    /** Every object schema of a body, with where it is. */
    const objectsOf = (schema: OpenAPIV3_1.SchemaObject | OpenAPIV3_1.ReferenceObject | undefined, where: string): Array<[string, OpenAPIV3_1.SchemaObject]> => {
      if (!schema) return [];
      if ("$ref" in schema) return objectsOf(refs[schema.$ref.split("/").at(-1)!], where);
      const own: Array<[string, OpenAPIV3_1.SchemaObject]> = schema.type === "object" && schema.properties ? [[where, schema]] : [];
      const nested = Object.entries(schema.properties ?? {}).flatMap(([key, value]) => objectsOf(value, `${where}.${key}`));
      const items = "items" in schema && schema.items ? objectsOf(schema.items as OpenAPIV3_1.SchemaObject, `${where}[]`) : [];
      const branches = [...(schema.anyOf ?? []), ...(schema.allOf ?? []), ...(schema.oneOf ?? [])].flatMap((branch) => objectsOf(branch, where));
      return [...own, ...nested, ...items, ...branches];
    };
    const bodyOf = (op: Operation) => ((op.requestBody as OpenAPIV3_1.RequestBodyObject | undefined)?.content?.["application/json"]?.schema as OpenAPIV3_1.SchemaObject | undefined);
    const interfaceBodies = ["generateOneTimeToken", "listReferrals", "getCampaigns", "claimReward", "refreshPlayerCampaigns", "claimRewardForPlayer", "assignOffer", "pushPlayerSnapshot", "createReferral", "redeemOneTimeToken", "grantRewardToPlayer", "expirePlayerOffer", "revokePlayerOffer", "makePlayerOfferClaimable", "extendPlayerOffer"];
    const withBodies = operations.filter((op) => bodyOf(op));
    const authoring = withBodies.filter((op) => !interfaceBodies.includes(op.operationId!));
    expect(authoring.map((op) => op.operationId)).toEqual(expect.arrayContaining(["putOfferDefinition", "adminCreateDefinition", "adminReplaceDefinition", "adminSetRateLimits", "createWebhookEndpoint", "adminUpdateWebhookEndpoint"]));
    for (const op of authoring) {
      const objects = objectsOf(bodyOf(op), op.operationId!);
      expect(objects.length, op.operationId).toBeGreaterThan(0);
      for (const [where, schema] of objects) expect(schema.additionalProperties, where).toBe(false);
    }
    for (const op of withBodies.filter((o) => interfaceBodies.includes(o.operationId!))) {
      for (const [where, schema] of objectsOf(bodyOf(op), op.operationId!)) expect(schema.additionalProperties, where).not.toBe(false);
    }
  });

  it("describes the webhooks it sends, reward.granted and webhook.test: their signed headers and their bodies", () => {
    const refs = (doc.components?.schemas ?? {}) as Record<string, OpenAPIV3_1.SchemaObject>;
    expect(Object.keys(doc.webhooks ?? {}).sort()).toEqual(["reward.granted", "webhook.test"]);
    for (const [type, item] of Object.entries(doc.webhooks ?? {})) {
      const post = (item as OpenAPIV3_1.PathItemObject).post!;
      const headers = (post.parameters as OpenAPIV3_1.ParameterObject[]).filter((p) => p.in === "header" && p.required);
      expect(headers.map((h) => h.name), type).toEqual(["webhook-id", "webhook-timestamp", "webhook-signature"]);
      const body = (post.requestBody as OpenAPIV3_1.RequestBodyObject).content["application/json"]!.schema as OpenAPIV3_1.ReferenceObject;
      const event = refs[body.$ref.split("/").at(-1)!]!;
      expect(event.required, type).toEqual(expect.arrayContaining(["id", "type", "timestamp", "data"]));
      expect(event.properties?.type, type).toMatchObject({ const: type });
      expect(Object.keys(post.responses ?? {}), type).toEqual(["2XX", "default"]);
    }
    const granted = refs.RewardGrantedEvent!.properties!.data as OpenAPIV3_1.SchemaObject;
    expect(granted.required).toEqual(expect.arrayContaining(["gameId", "environment", "playerId", "instanceId", "rewards", "source", "grantedAt"]));
  });

  it("generates the committed client types (npm run openapi regenerates them)", async () => {
    const types = COMMENT_HEADER + astToString(await openapiTS(doc as never, { silent: true }));
    await expect(types).toMatchFileSnapshot(GENERATED);
  });
});

/** A game developer's program: the generated types with openapi-fetch, as a game server and a game client use them. */
const PROGRAM = `
import createClient from "openapi-fetch";
import type { paths, webhooks } from "${GENERATED.replace(/\.d\.ts$/, "")}";

/** A game server's webhook receiver, typed from the document's webhooks: the amounts a reward.granted event grants. */
type RewardGranted = webhooks["reward.granted"]["post"]["requestBody"]["content"]["application/json"];
export function grantedAmount(event: RewardGranted): number {
  // @ts-expect-error: the body of a reward.granted event is typed: it has no "offers"
  void event.offers;
  return event.data.rewards.reduce((sum, reward) => sum + reward.amount, 0);
}

export async function main(baseUrl: string, game: { clientId: string; apiKey: string; jwt: string; expiredJwt: string }) {
  const api = createClient<paths>({ baseUrl });

  const refused = await api.POST("/v1/player/campaigns/refresh", {
    headers: { "x-client-id": game.clientId, "x-api-key": "not-the-key" },
    body: { playerId: "p1" },
  });
  // @ts-expect-error: an API-key route's 401 is the bare string, so .message needs narrowing first
  void refused.error?.message;
  const apiKeyError = typeof refused.error === "string" ? refused.error : refused.error?.message;

  const served = await api.POST("/v1/player/campaigns/refresh", {
    headers: { "x-client-id": game.clientId, "x-api-key": game.apiKey },
    body: { playerId: "p1" },
  });
  const offers: number | undefined = served.data?.offers.length;

  const expired = await api.POST("/v1/client/player/campaigns", { headers: { authorization: "Bearer " + game.expiredJwt }, body: {} });
  // Every error of a JWT route is an object with a code.
  const jwtError = expired.error?.message;
  // @ts-expect-error: the campaigns fetch cannot answer offer-not-found, and the types know it
  if (jwtError === "offer-not-found") throw new Error("unreachable");

  const claim = await api.POST("/v1/client/reward/claim", {
    headers: { authorization: "Bearer " + game.jwt },
    body: { kind: "offer", instanceId: "no-such-instance" },
  });
  const claimError: "offer-not-found" | "offer-not-claimable" | string | undefined = claim.error?.message;

  return {
    apiKey: { status: refused.response.status, error: apiKeyError },
    offers,
    jwt: { status: expired.response.status, error: jwtError },
    claim: { status: claim.response.status, error: claimError },
  };
}
`;

describe("a program using the generated client", () => {
  let t: OffersTestContext;
  const dir = path.resolve("node_modules/.cache/offers-openapi-client");
  const source = path.join(dir, "program.ts");

  beforeAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(source, PROGRAM);
    t = await startOffersTestApp("pglite");
    await t.app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("compiles with tsc (strict) against the generated types and openapi-fetch", () => {
    const program = ts.createProgram([source], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
      types: [],
      skipLibCheck: true,
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(diagnostics).toEqual([]);
  });

  it("reads error.message of a JWT route's 401 and the bare string of an API-key 401 at run time", async () => {
    const expiredJwt = await t.jwt("p1", { ttlSeconds: 60 });
    t.clock.advance(120_000);
    const jwt = await t.jwt("p1");
    const compiled = ts.transpileModule(PROGRAM, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
    writeFileSync(path.join(dir, "program.mjs"), compiled);
    const { main } = await import(pathToFileURL(path.join(dir, "program.mjs")).href);
    const address = t.app.server.address() as { port: number };
    const result = await main(`http://127.0.0.1:${address.port}`, { ...t.game, jwt, expiredJwt });
    expect(result).toEqual({
      apiKey: { status: 401, error: "invalid-api-key" },
      offers: 0,
      jwt: { status: 401, error: "jwt-expired" },
      claim: { status: 404, error: "offer-not-found" },
    });
  });
});
