/** Kind inference on fixture repositories (real bare repositories through the local provider), one per kind. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { LocalScmProvider } from "../../scm/local";
import { memoryMergeRequestStore } from "../../scm/merge-request-store";
import { ensureDemoRepositories, type DemoRepository } from "../../scm/demo";
import { inferKind, inferRepository } from "./infer";

const a = { name: "T", email: "t@example.com" };
const fixture = (p: string, files: Record<string, string>): DemoRepository => ({
  path: p,
  description: p,
  commits: [{ message: "init", author: a, files: Object.entries(files).map(([path, content]) => ({ path, content })) }],
});

const fixtures: Array<[DemoRepository, string]> = [
  [fixture("fx/next-app", { "package.json": '{"dependencies":{"next":"16","react":"19"}}', "app/page.tsx": "x", Dockerfile: "FROM node" }), "frontend"],
  [fixture("fx/vue-app", { "package.json": '{"dependencies":{"vue":"3"}}', "vite.config.ts": "x" }), "frontend"],
  [fixture("fx/node-service", { "package.json": '{"dependencies":{"fastify":"5"}}', "src/server.ts": "x" }), "service"],
  [fixture("fx/docker-service", { Dockerfile: "FROM golang", "go.mod": "module x" }), "service"],
  [fixture("fx/mkdocs", { "mkdocs.yml": "site_name: x", "docs/index.md": "#" }), "docs"],
  [fixture("fx/docusaurus", { "package.json": '{"dependencies":{"react":"19"}}', "docusaurus.config.ts": "x" }), "docs"],
  [fixture("fx/rn-app", { "package.json": '{"dependencies":{"react-native":"0.80"}}', "ios/Podfile": "x", "android/build.gradle": "x" }), "mobile"],
  [fixture("fx/native-ios", { "ios/App.swift": "x" }), "mobile"],
  [fixture("fx/npm-lib", { "package.json": '{"name":"@x/lib","publishConfig":{"registry":"https://npm.example.com"},"peerDependencies":{"react":"19"}}', "src/index.ts": "x" }), "library"],
  [fixture("fx/py-lib", { "pyproject.toml": "[project]\nname = 'x'\n", "x/__init__.py": "" }), "library"],
  [fixture("fx/node-cli", { "package.json": '{"bin":{"x":"cli.js"}}', "src/cli.ts": "x" }), "tooling"],
  [fixture("fx/go-cli", { "go.mod": "module x", "cmd/x/main.go": "package main" }), "tooling"],
];

describe("kind inference", () => {
  let root: string;
  let provider: LocalScmProvider;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "infer-"));
    provider = new LocalScmProvider({ root, store: memoryMergeRequestStore() });
    await ensureDemoRepositories(provider, fixtures.map(([f]) => f));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it.each(fixtures.map(([f, kind]) => [f.path, kind]))("%s → %s", async (repo, kind) => {
    const r = await inferRepository(provider, repo);
    expect(r.kind).toBe(kind);
    expect(r.reasons.length).toBeGreaterThan(0);
  });

  it("reports platforms of a mobile app and the registry of a library", async () => {
    expect((await inferRepository(provider, "fx/rn-app")).platforms).toEqual(["ios", "android"]);
    expect((await inferRepository(provider, "fx/npm-lib")).registry).toBe("https://npm.example.com");
  });

  it("falls back to service, saying why", () => {
    const r = inferKind(["README.md"], {});
    expect(r.kind).toBe("service");
    expect(r.reasons[0]).toMatch(/no marker/);
  });
});
