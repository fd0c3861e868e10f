/** Writes N realistic component files (with comments and relations) into a folder. Deterministic (seeded). */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { stringify } from "yaml";
import { COMPONENT_KINDS, DEPENDENCY_FLAGS, ENVIRONMENTS, type Component } from "../../lib/catalog/schema";

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const words = ["checkout", "offers", "player", "match", "leader", "inventory", "payments", "store", "notify", "analytics", "search", "chat", "guild", "quest", "reward", "profile", "session", "billing", "audit", "flags"];
const suffixes = ["api", "service", "web", "worker", "sdk", "docs", "cli", "app", "gateway", "ingest"];

/** The name record i gets (its first two draws), so another record can refer to it. */
export function generatedName(i: number): string {
  const random = rng(i + 1);
  const pick = <T,>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
  return `${pick(words)}-${pick(suffixes)}-${String(i).padStart(5, "0")}`;
}

/** Record i provides an API (a fifth of them do), named api-<i>. */
function providesApi(i: number): boolean {
  return rng(i * 7919 + 13)() < 0.2;
}

/** One record in 50 is a platform service (auth, storage…) that many others depend on. */
const PLATFORM_EVERY = 50;
/** Systems are runs of this many consecutive records. */
const SYSTEM_SIZE = 20;

/**
 * Relations, drawn from a generator of their own (the other fields stay as they were), shaped like a real
 * catalog: four in five records belong to a system (a run of 20); up to 3 dependencies, most on a platform
 * service at or before the record (platform services depend on earlier ones, so their blast radius is most of the
 * catalog), the others on a record of the same system (cycles, and past the catalog's end names that no record
 * has); an API for a fifth; up to 2 APIs consumed from records shortly before.
 */
function relationsOf(i: number): Pick<Component["spec"], "system" | "dependsOn" | "providesApis" | "consumesApis"> {
  const random = rng(i * 7919 + 13);
  const provides = random() < 0.2;
  const out: ReturnType<typeof relationsOf> = {};
  const block = Math.floor(i / SYSTEM_SIZE);
  if (random() < 0.8) out.system = `system-${block}`;
  const dependsOn = new Set<string>();
  const deps = Math.floor(random() * 4);
  for (let k = 0; k < deps; k++) {
    const j = random() < 0.6 ? PLATFORM_EVERY * Math.floor(random() * (Math.floor(i / PLATFORM_EVERY) + 1)) : block * SYSTEM_SIZE + Math.floor(random() * SYSTEM_SIZE);
    if (j !== i) dependsOn.add(generatedName(j));
  }
  if (dependsOn.size) out.dependsOn = [...dependsOn];
  if (provides) out.providesApis = [{ name: `api-${i}`, type: (["openapi", "asyncapi", "grpc"] as const)[i % 3], path: "api/definition.yaml" }];
  const consumes = new Set<string>();
  const wanted = Math.floor(random() * 3);
  for (let j = i - 1 - Math.floor(random() * 200); j >= 0 && j >= i - 400 && consumes.size < wanted; j--) if (providesApi(j)) consumes.add(`api-${j}`);
  if (consumes.size) out.consumesApis = [...consumes];
  return out;
}

export function generateComponent(i: number, random = rng(i + 1)): Component {
  const pick = <T,>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
  const base = `${pick(words)}-${pick(suffixes)}`;
  const name = `${base}-${String(i).padStart(5, "0")}`;
  const kind = COMPONENT_KINDS[i % COMPONENT_KINDS.length];
  const group = `team-${Math.floor(random() * 50)}`;
  const environments = ENVIRONMENTS.filter(() => random() < 0.6);
  const owners = [{ user: `user${Math.floor(random() * 300)}`, group: `org/${group}` }];
  if (random() < 0.4) owners.push({ user: `user${Math.floor(random() * 300)}` } as (typeof owners)[number]);
  const c: Component = {
    apiVersion: "platform.example.com/v1alpha1",
    kind: "Component",
    metadata: { name, displayName: base.split("-").map((w) => w[0].toUpperCase() + w.slice(1)).join(" ") + ` ${i}` },
    spec: { kind, repo: { path: `org/${group}/${name}` }, owners, environments },
  };
  if (kind === "mobile") c.spec.runtime = { mobile: { platforms: ["ios", "android"] } };
  else if (environments.length && kind !== "library") {
    c.spec.runtime = { k8s: { namespaces: Object.fromEntries(environments.map((e) => [e, `${name}-${e}`.slice(0, 63)])), deploymentContractPath: "deploy/contract.yaml" } };
  }
  const deps = Object.fromEntries(DEPENDENCY_FLAGS.filter(() => random() < 0.3).map((d) => [d, true]));
  if (Object.keys(deps).length) c.spec.dependencies = deps;
  if (kind === "library") c.spec.library = { model: random() < 0.5 ? "single" : "monorepo", defaultRegistry: "npm.example.com", publish: { strategy: "tag", visibilityPolicy: { default: "internal", allowPublic: false } } };
  Object.assign(c.spec, relationsOf(i));
  return c;
}

export async function generateCatalog(dir: string, count: number): Promise<void> {
  await mkdir(dir, { recursive: true });
  const batch = 200;
  for (let start = 0; start < count; start += batch) {
    await Promise.all(
      Array.from({ length: Math.min(batch, count - start) }, (_, k) => {
        const c = generateComponent(start + k);
        return writeFile(path.join(dir, `${c.metadata.name}.yaml`), `# Generated for the catalog benchmark.\n${stringify(c)}`);
      }),
    );
  }
}

/**
 * Distinct list queries of four shapes over the generated records, more than the portal's query cache
 * holds (64), so repeating them never hits it: a word with a suffix (200), a team with an environment
 * (50), a user with a kind (100), a group sorted by display name (50).
 */
export function distinctQueries(): string[] {
  const out = new Set<string>();
  for (const w of words) for (const s of suffixes) out.add(`q=${w}-${s}`);
  for (let n = 0; n < 50; n++) out.add(`q=team-${n}&environment=${ENVIRONMENTS[n % ENVIRONMENTS.length]}`);
  for (let n = 0; n < 100; n++) out.add(`q=user${n * 3}&kind=${COMPONENT_KINDS[n % COMPONENT_KINDS.length]}`);
  for (let n = 0; n < 50; n++) out.add(`group=org/team-${n}&sort=displayName`);
  return [...out];
}
