// The component record editor's draft: the edits that reshape it (a switch that adds or removes a
// whole part of the record), and the clean-up before it is checked (empty optional text is "not set").
import { ENVIRONMENTS, MOBILE_PLATFORMS, type Component, type DependencyFlag, type Environment } from "@/lib/catalog/schema";

type Spec = Component["spec"];
type Runtime = NonNullable<Spec["runtime"]>;

/** runtime without the parts that are switched off; no runtime at all when none is left. */
function withRuntime(spec: Spec, runtime: Runtime): Spec {
  const { runtime: _old, ...rest } = spec;
  return runtime.k8s || runtime.mobile ? { ...rest, runtime } : rest;
}

export function withEnvironment(spec: Spec, env: Environment, on: boolean): Spec {
  const environments = ENVIRONMENTS.filter((x) => (x === env ? on : spec.environments.includes(x)));
  const namespaces = spec.runtime?.k8s?.namespaces;
  if (on || !namespaces || !(env in namespaces)) return { ...spec, environments };
  // A namespace only exists for an environment of the component.
  const { [env]: _gone, ...rest } = namespaces;
  const { namespaces: _old, ...k8s } = spec.runtime!.k8s!;
  return withRuntime({ ...spec, environments }, { ...spec.runtime, k8s: Object.keys(rest).length ? { ...k8s, namespaces: rest } : k8s });
}

export function withKubernetes(spec: Spec, on: boolean): Spec {
  const { k8s: _old, ...runtime } = spec.runtime ?? {};
  return withRuntime(spec, on ? { ...runtime, k8s: { deploymentContractPath: "deploy/contract.yaml" } } : runtime);
}

export function withPlatform(spec: Spec, platform: (typeof MOBILE_PLATFORMS)[number], on: boolean): Spec {
  const current = spec.runtime?.mobile?.platforms ?? [];
  const platforms = MOBILE_PLATFORMS.filter((p) => (p === platform ? on : current.includes(p)));
  const { mobile: _old, ...runtime } = spec.runtime ?? {};
  return withRuntime(spec, platforms.length ? { ...runtime, mobile: { platforms } } : runtime);
}

export function withLibrary(spec: Spec, on: boolean): Spec {
  const { library: _old, ...rest } = spec;
  return on ? { ...rest, library: { model: "single", defaultRegistry: "" } } : rest;
}

export function withPublishPolicy(spec: Spec, on: boolean): Spec {
  if (!spec.library) return spec;
  const { publish: _old, ...library } = spec.library;
  return { ...spec, library: on ? { ...library, publish: { strategy: "tag", visibilityPolicy: { default: "internal", allowPublic: false } } } : library };
}

export function withDependency(spec: Spec, flag: DependencyFlag, on: boolean): Spec {
  return { ...spec, dependencies: { ...(spec.dependencies ?? {}), [flag]: on } };
}

/** Backstage's optional metadata as the record holds it: empty text, lists and link icons are not set. */
function cleanMetadata(metadata: Component["metadata"]): Component["metadata"] {
  const { description, tags, links, ...rest } = metadata;
  const out: Component["metadata"] = { ...rest };
  if (description?.trim()) out.description = description;
  if (tags?.length) out.tags = tags;
  if (links?.length) out.links = links.map(({ url, title, icon }) => (icon?.trim() ? { url, title, icon } : { url, title }));
  return out;
}

/** Relations as the record holds them: an empty system or list is not set. */
function cleanRelations(spec: Spec): Spec {
  // Deleted from a copy, so the keys that stay keep their order (the diff shows only the edit).
  const out: Spec = { ...spec };
  if (!out.system?.trim()) delete out.system;
  if (!out.dependsOn?.length) delete out.dependsOn;
  if (!out.providesApis?.length) delete out.providesApis;
  if (!out.consumesApis?.length) delete out.consumesApis;
  return out;
}

/** The draft as the record it stands for: an empty group or namespace is not set, and unset keys are left out. */
export function cleanDraft(draft: Component): Component {
  const relations = cleanRelations(draft.spec);
  const { lifecycle, ...specRest } = relations;
  const spec = lifecycle ? relations : specRest;
  const owners = spec.owners.map(({ user, group }) => (group ? { user, group } : { user }));
  let runtime = spec.runtime;
  const namespaces = runtime?.k8s?.namespaces;
  if (runtime?.k8s && namespaces) {
    const set = Object.fromEntries(Object.entries(namespaces).filter(([, ns]) => ns));
    const { namespaces: _all, ...k8s } = runtime.k8s;
    runtime = { ...runtime, k8s: Object.keys(set).length ? { ...k8s, namespaces: set } : k8s };
  }
  return JSON.parse(JSON.stringify({ ...draft, metadata: cleanMetadata(draft.metadata), spec: { ...spec, owners, ...(runtime ? { runtime } : {}) } })) as Component;
}
