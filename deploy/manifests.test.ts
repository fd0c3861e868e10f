/**
 * The deployment files as an operator relies on them: every Kubernetes manifest is valid against the
 * Kubernetes schemas (kubernetes-models, offline), the topology is the one docs/operations/running.md
 * describes, secrets are referenced by name only, and every environment variable the manifests and
 * Dockerfiles give a service is one of its settings in lib/env (a misspelt one, or one of the other service, would
 * be silently ignored).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseAllDocuments, parse as parseYaml } from "yaml";
import { offersSchema } from "../lib/env/offers";
import { portalSchema } from "../lib/env/portal";
import { offersBuildOptions } from "../scripts/offers-build-options.mjs";

const deployDir = path.resolve("deploy");
const k8sDir = path.join(deployDir, "k8s");

/** Variables that are not our settings but read by a tool inside the image, with the tool. */
const FOREIGN_VARIABLES: Record<string, string> = {
  NEXT_TELEMETRY_DISABLED: "Next.js (no telemetry calls from a build or a production server)",
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Manifest = { apiVersion: string; kind: string; metadata: { name: string }; spec?: any; data?: Record<string, string> };

function loadManifests(): Array<Manifest & { file: string }> {
  const out: Array<Manifest & { file: string }> = [];
  for (const file of readdirSync(k8sDir).filter((f) => f.endsWith(".yaml")).sort()) {
    for (const doc of parseAllDocuments(readFileSync(path.join(k8sDir, file), "utf8"))) {
      if (doc.errors.length) throw new Error(`${file}: ${doc.errors[0]!.message}`);
      const value = doc.toJS() as Manifest | null;
      if (value) out.push({ ...value, file });
    }
  }
  return out;
}

const manifests = loadManifests();
const byKind = (kind: string) => manifests.filter((m) => m.kind === kind);
const named = (kind: string, name: string) => {
  const found = manifests.find((m) => m.kind === kind && m.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in deploy/k8s`);
  return found;
};

/** The kubernetes-models module of an apiVersion: "apps/v1" → kubernetes-models/apps/v1, "v1" → kubernetes-models/v1. */
async function modelFor(apiVersion: string, kind: string): Promise<{ validate(): void }> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const mod = (await import(/* @vite-ignore */ `kubernetes-models/${apiVersion}`)) as Record<string, any>;
  const Model = mod[kind];
  if (!Model) throw new Error(`kubernetes-models has no ${kind} in ${apiVersion}`);
  return Model as never;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function containersOf(m: Manifest): any[] {
  return m.spec?.template?.spec?.containers ?? [];
}

interface DockerfileInfo {
  name: string;
  stages: Array<{ name?: string; lines: string[] }>;
  env: string[];
}

function readDockerfile(name: string): DockerfileInfo {
  // Continuation lines joined, comments dropped.
  const text = readFileSync(path.join(deployDir, name), "utf8").replace(/\\\n/g, " ");
  const lines = text.split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
  const stages: DockerfileInfo["stages"] = [];
  const env: string[] = [];
  for (const line of lines) {
    const from = /^FROM\s+\S+(?:\s+AS\s+(\S+))?/i.exec(line);
    if (from) stages.push({ name: from[1], lines: [] });
    else stages.at(-1)?.lines.push(line);
    if (/^ENV\s/i.test(line)) for (const [, key] of line.slice(4).matchAll(/([A-Z_][A-Z0-9_]*)=/g)) env.push(key!);
  }
  return { name, stages, env };
}

const dockerfiles = ["offers.Dockerfile", "portal.Dockerfile"].map(readDockerfile);

describe("Kubernetes manifests", () => {
  it("are every one valid against the Kubernetes schemas", async () => {
    expect(manifests.length).toBeGreaterThan(10);
    for (const manifest of manifests) {
      const { file, ...resource } = manifest;
      const Model = await modelFor(resource.apiVersion, resource.kind);
      const model = new (Model as unknown as new (data: unknown) => { validate(): void })(resource);
      expect(() => model.validate(), `${file}: ${resource.kind} ${resource.metadata?.name}`).not.toThrow();
    }
  });

  it("the validator refuses a broken manifest (so a pass means something)", async () => {
    const deployment = structuredClone(named("Deployment", "offers"));
    const { file: _file, ...resource } = deployment;
    resource.spec.template.spec.containers[0].ports[0].containerPort = "four thousand";
    const Model = await modelFor("apps/v1", "Deployment");
    expect(() => new (Model as unknown as new (data: unknown) => { validate(): void })(resource).validate()).toThrow(/containerPort/);
  });

  it("are all listed in deploy/kustomization.yaml, with the proxy's configuration generated from deploy/nginx", () => {
    const kustomization = parseYaml(readFileSync(path.join(deployDir, "kustomization.yaml"), "utf8"));
    const files = readdirSync(k8sDir).filter((f) => f.endsWith(".yaml")).map((f) => `k8s/${f}`);
    expect([...kustomization.resources].sort()).toEqual(files.sort());
    const generated = kustomization.configMapGenerator.find((g: { name: string }) => g.name === "proxy-config");
    for (const file of generated.files as string[]) expect(existsSync(path.join(deployDir, file)), file).toBe(true);
    expect(generated.files).toContain("nginx/proxy.conf");
  });

  it("run the offers service as several instances with the probes, drain window and budgets of the topology", () => {
    const offers = named("Deployment", "offers");
    const [container] = containersOf(offers);
    expect(container.readinessProbe.httpGet.path).toBe("/ready");
    expect(container.livenessProbe.httpGet.path).toBe("/health");
    // main.ts exits 10 s after SIGTERM at the latest; preStop runs before SIGTERM.
    const preStop = Number(container.lifecycle.preStop.exec.command[1]);
    expect(offers.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(preStop + 10);

    const hpa = named("HorizontalPodAutoscaler", "offers");
    expect(hpa.spec.scaleTargetRef).toMatchObject({ kind: "Deployment", name: "offers" });
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
    expect(offers.spec.replicas).toBeUndefined(); // the autoscaler owns it

    for (const app of ["offers", "portal", "proxy"]) {
      const budget = byKind("PodDisruptionBudget").find((p) => p.spec.selector.matchLabels["app.kubernetes.io/name"] === app);
      expect(budget, `a PodDisruptionBudget for ${app}`).toBeDefined();
    }
    // The proxy balances over the instances' own addresses (a headless Service).
    expect(named("Service", "offers-instances").spec.clusterIP).toBe("None");
    const upstreams = readFileSync(path.join(deployDir, "nginx", "upstreams.conf"), "utf8");
    expect(upstreams).toMatch(/server offers-instances\.offers\.svc\.cluster\.local:4000 resolve/);
  });

  it("run every container as a non-root user without privilege escalation", () => {
    for (const deployment of byKind("Deployment")) {
      const pod = deployment.spec.template.spec;
      expect(pod.securityContext.runAsNonRoot, deployment.metadata.name).toBe(true);
      for (const container of containersOf(deployment)) {
        expect(container.securityContext.allowPrivilegeEscalation, container.name).toBe(false);
        expect(container.readinessProbe, `${container.name} readiness`).toBeDefined();
      }
    }
  });

  it("never hold a secret value: no Secret objects, and secret settings come from secretKeyRef", () => {
    expect(byKind("Secret")).toEqual([]);
    const secretLike = /(SECRET|TOKEN|_KEY|DATABASE_URL|REDIS_URL|CONFIG_REPO_URL)/;
    for (const deployment of byKind("Deployment")) {
      for (const container of containersOf(deployment)) {
        for (const variable of container.env ?? []) {
          if (secretLike.test(variable.name)) {
            expect(variable.value, `${variable.name} must come from a Secret`).toBeUndefined();
            expect(variable.valueFrom?.secretKeyRef?.name, variable.name).toMatch(/-secrets$/);
          }
        }
      }
    }
    for (const config of byKind("ConfigMap")) {
      for (const key of Object.keys(config.data ?? {})) expect(key, `${config.metadata.name} holds ${key}`).not.toMatch(secretLike);
    }
  });

  it("give each service only environment variables it reads (lib/env: the shared settings and its own)", () => {
    const readBy: Record<string, Set<string>> = {
      offers: new Set([...Object.keys(offersSchema.shape), ...Object.keys(FOREIGN_VARIABLES)]),
      portal: new Set([...Object.keys(portalSchema.shape), ...Object.keys(FOREIGN_VARIABLES)]),
    };
    const configMaps = new Map(byKind("ConfigMap").map((c) => [c.metadata.name, Object.keys(c.data ?? {})]));
    const set: Array<{ service: string; name: string; from: string }> = [];
    for (const deployment of byKind("Deployment")) {
      for (const container of containersOf(deployment)) {
        const service = container.name as string;
        for (const variable of container.env ?? []) set.push({ service, name: variable.name, from: `Deployment ${deployment.metadata.name}` });
        for (const source of container.envFrom ?? []) {
          // A whole Secret as environment would set variables nobody can read here: only ConfigMaps.
          expect(source.secretRef, `${container.name}: envFrom a Secret`).toBeUndefined();
          const keys = configMaps.get(source.configMapRef.name);
          expect(keys, `ConfigMap ${source.configMapRef.name}`).toBeDefined();
          for (const name of keys!) set.push({ service, name, from: `ConfigMap ${source.configMapRef.name}` });
        }
      }
    }
    for (const dockerfile of dockerfiles) for (const name of dockerfile.env) set.push({ service: dockerfile.name.replace(/\.Dockerfile$/, ""), name, from: dockerfile.name });
    expect(set.length).toBeGreaterThan(20);
    // The proxy (nginx) reads no setting of ours; every other container is one of the two services.
    const ours = set.filter(({ service }) => service !== "nginx");
    expect([...new Set(ours.map(({ service }) => service))].sort()).toEqual(["offers", "portal"]);
    expect(ours.filter(({ service, name }) => !readBy[service]!.has(name)).map(({ service, name, from }) => `${from} gives ${service} ${name}`)).toEqual([]);
  });
});

describe("Dockerfiles", () => {
  it("build in stages and run as a non-root user with a health check", () => {
    for (const { name, stages } of dockerfiles) {
      expect(stages.length, name).toBeGreaterThanOrEqual(3);
      const runtime = stages.at(-1)!.lines;
      expect(runtime.some((l) => /^USER\s+node$/.test(l)), `${name}: USER node`).toBe(true);
      expect(runtime.some((l) => /^HEALTHCHECK\s.*\/health/.test(l)), `${name}: HEALTHCHECK`).toBe(true);
      expect(runtime.some((l) => /^CMD\s+\[/.test(l)), `${name}: exec-form CMD (node gets SIGTERM)`).toBe(true);
    }
  });

  it("ship production dependencies only: the runtime's node_modules come from an npm ci --omit=dev stage", () => {
    for (const { name, stages } of dockerfiles) {
      const runtime = stages.at(-1)!.lines;
      const copy = runtime.find((l) => /^COPY\s.*node_modules/.test(l));
      const from = /--from=(\S+)/.exec(copy ?? "")?.[1];
      const stage = stages.find((s) => s.name === from);
      expect(stage?.lines.some((l) => /npm ci .*--omit=dev/.test(l)), `${name}: node_modules from ${from}`).toBe(true);
    }
  });

  it("copy files that exist and run what the build produces", () => {
    const offers = dockerfiles.find((d) => d.name === "offers.Dockerfile")!;
    const build = readFileSync(path.resolve("scripts/build-offers.mjs"), "utf8");
    expect(offersBuildOptions.entryPoints).toMatchObject({ main: "lib/offers/main.ts" });
    expect(build).toMatch(/outdir: "dist\/offers"/);
    // The build stage's context holds the build script and every local module it imports.
    const context = readFileSync(path.resolve("deploy/offers.Dockerfile.dockerignore"), "utf8");
    for (const script of ["scripts/build-offers.mjs", ...[...build.matchAll(/from "\.\/([^"]+)"/g)].map((m) => `scripts/${m[1]}`)]) {
      expect(context, script).toContain(`!${script}`);
    }
    expect(offers.stages.at(-1)!.lines.at(-1)).toContain('"dist/offers/main.mjs"');
    const portal = dockerfiles.find((d) => d.name === "portal.Dockerfile")!;
    expect(portal.stages.at(-1)!.lines.at(-1)).toMatch(/"node_modules\/.bin\/next", "start"/);
    for (const { name, stages } of dockerfiles) {
      for (const line of stages.at(-1)!.lines.filter((l) => /^COPY --from=build /.test(l))) {
        const sources = line.replace(/^COPY --from=build /, "").split(/\s+/).slice(0, -1);
        for (const source of sources) {
          const relative = source.replace(/^\/app\//, "");
          // Build outputs are made in the image; everything else comes from the repository.
          if (/^(dist|\.next)\b/.test(relative)) continue;
          expect(existsSync(path.resolve(relative)), `${name}: ${relative}`).toBe(true);
        }
      }
    }
  });
});
