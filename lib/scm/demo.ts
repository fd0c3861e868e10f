/**
 * Demo component repositories for the embedded default: created once (a repository that exists is
 * left alone), a few commits each by different authors. Seven match demo catalog records
 * (spec.repo.path in config/components/*.yaml); two are not in the catalog yet (for import).
 */
import type { LocalScmProvider } from "./local";
import type { ScmAuthor, ScmFileChange } from "./types";

const alice: ScmAuthor = { name: "Alice Martin", email: "alice.martin@example.com" };
const bob: ScmAuthor = { name: "Bob Nguyen", email: "bob.nguyen@example.com" };
const chen: ScmAuthor = { name: "Chen Li", email: "chen.li@example.com" };

const pkg = (value: Record<string, unknown>) => `${JSON.stringify(value, null, 2)}\n`;

/** A small valid OpenAPI definition (checkout-api's spec.providesApis "checkout"): the portal renders it at /catalog/checkout-api/apis/checkout. */
export const DEMO_CHECKOUT_OPENAPI = `openapi: 3.1.0
info:
  title: Checkout API
  version: 1.0.0
  description: Carts and orders of the store.
servers:
  - url: https://checkout.example.com
paths:
  /carts/{cartId}:
    get:
      operationId: getCart
      summary: Get a cart
      parameters:
        - name: cartId
          in: path
          required: true
          schema:
            type: string
      responses:
        "200":
          description: The cart
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Cart"
        "404":
          description: No such cart
  /orders:
    post:
      operationId: placeOrder
      summary: Place an order from a cart
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [cartId]
              properties:
                cartId:
                  type: string
      responses:
        "201":
          description: The order, placed
components:
  schemas:
    Cart:
      type: object
      required: [id, items]
      properties:
        id:
          type: string
        items:
          type: array
          items:
            type: object
            properties:
              sku:
                type: string
              quantity:
                type: integer
                minimum: 1
`;

/** offers-service's "offers" API (openapi/offers.json) as released in v1.0.0, then as on main (one more operation). */
function demoOffersOpenApi(version: "1.0.0" | "1.1.0"): string {
  const offer = { type: "object", required: ["offerId", "status"], properties: { offerId: { type: "string" }, status: { type: "string", enum: ["surfaced", "viewed", "claimable", "claimed", "expired"] } } };
  const paths: Record<string, unknown> = {
    "/v1/client/campaigns": {
      post: {
        operationId: "fetchCampaigns",
        summary: "The player's offers",
        responses: { "200": { description: "The offers", content: { "application/json": { schema: { type: "array", items: { $ref: "#/components/schemas/Offer" } } } } } },
      },
    },
  };
  if (version === "1.1.0") {
    paths["/v1/client/offers/{offerId}/claim"] = {
      post: {
        operationId: "claimOffer",
        summary: "Claim a claimable offer",
        parameters: [{ name: "offerId", in: "path", required: true, schema: { type: "string" } }],
        responses: { "200": { description: "Claimed" }, "409": { description: "The offer is not claimable" } },
      },
    };
  }
  return pkg({ openapi: "3.1.0", info: { title: "Offers API", version }, servers: [{ url: "https://offers.example.com" }], paths, components: { schemas: { Offer: offer } } });
}

/**
 * A team that moves from Backstage: growth/loyalty describes itself in catalog-info.yaml (a service with its
 * API, system and group, a Location naming the web app's file, a Resource the catalog does not hold, an
 * inline AsyncAPI definition): the import from Backstage maps it and reports what does not map.
 */
export const DEMO_LOYALTY_CATALOG = `apiVersion: backstage.io/v1alpha1
kind: Component
metadata:
  name: loyalty-points
  title: Loyalty points
  description: Points earned with every purchase, spent on rewards.
  tags: [loyalty, points]
  annotations:
    backstage.io/techdocs-ref: dir:.
    gitlab.com/project-slug: growth/loyalty
spec:
  type: service
  lifecycle: production
  owner: group:default/loyalty-team
  system: system:default/loyalty
  dependsOn:
    - component:default/checkout-api
    - resource:default/loyalty-db
  providesApis: [loyalty-points-api, loyalty-events]
  consumesApis: [api:default/checkout]
---
apiVersion: backstage.io/v1alpha1
kind: API
metadata:
  name: loyalty-points-api
  description: Balances and point grants.
spec:
  type: openapi
  lifecycle: production
  owner: group:default/loyalty-team
  definition:
    $text: ./api/openapi.yaml
---
apiVersion: backstage.io/v1alpha1
kind: API
metadata:
  name: loyalty-events
spec:
  type: asyncapi
  lifecycle: experimental
  owner: group:default/loyalty-team
  definition: |
    asyncapi: 2.6.0
    info: {title: Loyalty events, version: 1.0.0}
    channels: {}
---
apiVersion: backstage.io/v1alpha1
kind: System
metadata:
  name: loyalty
  description: Everything about loyalty points.
spec:
  owner: group:default/loyalty-team
---
apiVersion: backstage.io/v1alpha1
kind: Group
metadata:
  name: loyalty-team
spec:
  type: team
  parent: growth
  children: []
  members: [bob.nguyen, alice.martin]
---
apiVersion: backstage.io/v1alpha1
kind: Resource
metadata:
  name: loyalty-db
spec:
  type: database
  owner: group:default/loyalty-team
---
apiVersion: backstage.io/v1alpha1
kind: Location
metadata:
  name: loyalty-web
spec:
  targets: [./web/catalog-info.yaml]
`;

const DEMO_LOYALTY_WEB_CATALOG = `apiVersion: backstage.io/v1alpha1
kind: Component
metadata:
  name: loyalty-web
  title: Loyalty web
spec:
  type: website
  lifecycle: experimental
  owner: group:default/loyalty-team
  system: loyalty
  dependsOn: [component:default/loyalty-points]
  consumesApis: [loyalty-points-api]
`;

const DEMO_LOYALTY_OPENAPI = `openapi: 3.1.0
info:
  title: Loyalty points API
  version: 1.0.0
  description: Balances and point grants.
servers:
  - url: https://loyalty.example.com
paths:
  /balances/{playerId}:
    get:
      operationId: getBalance
      summary: A player's balance
      parameters:
        - name: playerId
          in: path
          required: true
          schema:
            type: string
      responses:
        "200":
          description: The balance
          content:
            application/json:
              schema:
                type: object
                required: [points]
                properties:
                  points:
                    type: integer
                    minimum: 0
        "404":
          description: No such player
`;

export interface DemoRepository {
  path: string;
  description: string;
  /** Commits in order: each a message, an author and files, and the tag that marks it (a release). */
  commits: Array<{ message: string; author: ScmAuthor; files: ScmFileChange[]; tag?: string }>;
}

export const DEMO_REPOSITORIES: DemoRepository[] = [
  {
    path: "growth/rewards-dashboard",
    description: "Player rewards dashboard (Next.js)",
    commits: [
      { message: "Create Next.js app", author: alice, files: [{ path: "package.json", content: pkg({ name: "rewards-dashboard", private: true, scripts: { dev: "next dev", build: "next build" }, dependencies: { next: "16.0.0", react: "19.0.0", "react-dom": "19.0.0" } }) }, { path: "app/page.tsx", content: "export default function Page() {\n  return <h1>Rewards</h1>;\n}\n" }, { path: "next.config.ts", content: "export default {};\n" }] },
      { message: "Add offers list", author: bob, files: [{ path: "app/offers/page.tsx", content: "export default function Offers() {\n  return <ul />;\n}\n" }] },
      { message: "Add README", author: alice, files: [{ path: "README.md", content: "# Rewards dashboard\n" }] },
    ],
  },
  {
    path: "commerce/checkout-api",
    description: "Checkout API (Node service)",
    commits: [
      { message: "Service skeleton", author: alice, files: [{ path: "package.json", content: pkg({ name: "checkout-api", private: true, main: "dist/server.js", dependencies: { fastify: "5.0.0" } }) }, { path: "src/server.ts", content: 'import Fastify from "fastify";\nFastify().listen({ port: 8080 });\n' }] },
      { message: "Add Dockerfile", author: bob, files: [{ path: "Dockerfile", content: "FROM node:20-slim\nCOPY . .\nCMD [\"node\", \"dist/server.js\"]\n" }] },
      { message: "Deployment contract", author: alice, files: [{ path: "deploy/contract.yaml", content: "port: 8080\nhealth: /health\n" }] },
      { message: "OpenAPI definition", author: bob, files: [{ path: "api/openapi.yaml", content: DEMO_CHECKOUT_OPENAPI }] },
    ],
  },
  {
    path: "platform/developer-docs",
    description: "Developer documentation site (MkDocs)",
    commits: [
      { message: "MkDocs site", author: chen, files: [{ path: "mkdocs.yml", content: "site_name: Developer docs\nnav:\n  - Home: index.md\n" }, { path: "docs/index.md", content: "# Developer docs\n" }] },
      { message: "Getting started page", author: alice, files: [{ path: "docs/getting-started.md", content: "# Getting started\n" }] },
    ],
  },
  {
    path: "mobile/companion-app",
    description: "Companion app (React Native)",
    commits: [
      { message: "React Native app", author: bob, files: [{ path: "package.json", content: pkg({ name: "companion-app", private: true, dependencies: { react: "19.0.0", "react-native": "0.80.0" } }) }, { path: "App.tsx", content: "export default function App() {\n  return null;\n}\n" }] },
      { message: "iOS project", author: bob, files: [{ path: "ios/Podfile", content: "platform :ios, '15.0'\n" }] },
      { message: "Android project", author: chen, files: [{ path: "android/build.gradle", content: "// android\n" }] },
    ],
  },
  {
    path: "web/design-system",
    description: "Shared React components (npm package)",
    commits: [
      { message: "Package", author: alice, files: [{ path: "package.json", content: pkg({ name: "@example/design-system", version: "1.0.0", main: "dist/index.js", files: ["dist"], publishConfig: { registry: "https://npm.example.com", access: "restricted" }, peerDependencies: { react: "^19.0.0" } }) }, { path: "src/index.ts", content: "export const Button = () => null;\n" }] },
      { message: "Changesets", author: chen, files: [{ path: ".changeset/config.json", content: "{}\n" }] },
    ],
  },
  {
    path: "platform/deploy-cli",
    description: "Deploy command-line tool",
    commits: [
      { message: "CLI", author: chen, files: [{ path: "package.json", content: pkg({ name: "deploy-cli", private: true, bin: { deploy: "dist/cli.js" } }) }, { path: "src/cli.ts", content: "#!/usr/bin/env node\nconsole.log(process.argv);\n" }] },
      { message: "Help text", author: alice, files: [{ path: "README.md", content: "# deploy\n\nUsage: deploy <component>\n" }] },
    ],
  },
  {
    path: "growth/offers-service",
    description: "Offers service (its OpenAPI definition, released as v1.0.0)",
    commits: [
      { message: "Offers API definition", author: alice, files: [{ path: "openapi/offers.json", content: demoOffersOpenApi("1.0.0") }], tag: "v1.0.0" },
      { message: "Claim endpoint", author: chen, files: [{ path: "openapi/offers.json", content: demoOffersOpenApi("1.1.0") }] },
    ],
  },
  // Not in the demo catalog: for the import wizard.
  {
    path: "growth/quest-engine",
    description: "Quest engine (Go service)",
    commits: [
      { message: "Go service", author: bob, files: [{ path: "go.mod", content: "module example.com/quest-engine\n\ngo 1.23\n" }, { path: "cmd/server/main.go", content: "package main\n\nfunc main() {}\n" }] },
      { message: "Dockerfile", author: bob, files: [{ path: "Dockerfile", content: "FROM golang:1.23\n" }] },
    ],
  },
  // Described for Backstage (catalog-info.yaml): for the import from Backstage.
  {
    path: "growth/loyalty",
    description: "Loyalty points (a Backstage catalog-info.yaml)",
    commits: [
      { message: "Loyalty service", author: bob, files: [{ path: "package.json", content: pkg({ name: "loyalty-points", private: true, dependencies: { fastify: "5.0.0" } }) }, { path: "src/server.ts", content: "// service\n" }, { path: "api/openapi.yaml", content: DEMO_LOYALTY_OPENAPI }] },
      { message: "Backstage catalog", author: alice, files: [{ path: "catalog-info.yaml", content: DEMO_LOYALTY_CATALOG }, { path: "web/catalog-info.yaml", content: DEMO_LOYALTY_WEB_CATALOG }] },
    ],
  },
  {
    path: "web/marketing-site",
    description: "Marketing site (React + Vite)",
    commits: [
      { message: "Vite app", author: chen, files: [{ path: "package.json", content: pkg({ name: "marketing-site", private: true, dependencies: { react: "19.0.0", "react-dom": "19.0.0" }, devDependencies: { vite: "7.0.0" } }) }, { path: "index.html", content: "<div id=root></div>\n" }, { path: "src/main.tsx", content: "// app\n" }] },
      { message: "Hero section", author: alice, files: [{ path: "src/Hero.tsx", content: "export const Hero = () => null;\n" }] },
    ],
  },
];

/** Creates the demo repositories that do not exist yet; answers the paths created now. */
export async function ensureDemoRepositories(provider: LocalScmProvider, repos: DemoRepository[] = DEMO_REPOSITORIES): Promise<string[]> {
  const created: string[] = [];
  for (const repo of repos) {
    if (await provider.getRepository(repo.path)) continue;
    await provider.createRepository(repo.path, { description: repo.description });
    for (const c of repo.commits) {
      await provider.commitFiles(repo.path, { branch: "main", message: c.message, author: c.author, files: c.files });
      if (c.tag) await provider.createTag(repo.path, { name: c.tag, ref: "main", message: c.message });
    }
    created.push(repo.path);
  }
  return created;
}
