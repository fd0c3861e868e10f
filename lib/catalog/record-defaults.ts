/**
 * What a new record of a kind starts with when its source says nothing of it (an import): environments and
 * runtime for what deploys, platforms for mobile apps, a registry for libraries. The import by inference and
 * the import from Backstage build records the same way; review changes them before merging.
 */
import type { Component, ComponentKind } from "./schema";

export interface KindHints {
  /** Mobile platforms seen in the repository. */
  platforms?: Array<"ios" | "android" | "web">;
  /** Where the package publishes (package.json publishConfig.registry). */
  registry?: string | null;
}

export const DEFAULT_ENVIRONMENTS = ["dev", "staging", "production"] as const;
export const DEFAULT_DEPLOYMENT_CONTRACT = "deploy/contract.yaml";
export const DEFAULT_REGISTRY = "npm.example.com";

/** spec.environments, runtime and library of a new record of `kind`. */
export function kindDefaults(kind: ComponentKind, hints: KindHints = {}): Pick<Component["spec"], "environments" | "runtime" | "library"> {
  const deploys = kind === "service" || kind === "frontend";
  const out: Pick<Component["spec"], "environments" | "runtime" | "library"> = { environments: deploys ? [...DEFAULT_ENVIRONMENTS] : [] };
  if (deploys) out.runtime = { k8s: { deploymentContractPath: DEFAULT_DEPLOYMENT_CONTRACT } };
  if (kind === "mobile") out.runtime = { mobile: { platforms: hints.platforms?.length ? hints.platforms : ["ios", "android"] } };
  if (kind === "library") out.library = { model: "single", defaultRegistry: hints.registry ? hints.registry.replace(/^https?:\/\//, "").replace(/\/$/, "") : DEFAULT_REGISTRY };
  return out;
}

/** "quest-engine" → "Quest Engine". */
export function titleOf(name: string): string {
  return name
    .split("-")
    .map((w) => (w ? w[0].toUpperCase() + w.slice(1) : w))
    .join(" ");
}
