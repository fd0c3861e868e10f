/** The values the catalog's forms offer: the fixed lists of the record schema, and those the records use. */
import { COMPONENT_KINDS, DEPENDENCY_FLAGS, ENVIRONMENTS, LIBRARY_MODELS, MOBILE_PLATFORMS } from "./schema";
import type { CatalogEntry } from "./search";

export interface CatalogOptionsAnswer {
  kinds: readonly string[];
  environments: readonly string[];
  platforms: readonly string[];
  dependencyFlags: readonly string[];
  libraryModels: readonly string[];
  owners: string[];
  groups: string[];
  registries: string[];
  publishStrategies: string[];
  visibilities: string[];
  apiVersions: string[];
}

/** Values the forms need, from the records on show. */
export function formOptions(entries: readonly CatalogEntry[]): CatalogOptionsAnswer {
  const owners = new Set<string>();
  const groups = new Set<string>();
  const registries = new Set<string>();
  const strategies = new Set<string>();
  const visibilities = new Set<string>();
  const apiVersions = new Set<string>();
  for (const { component: c } of entries) {
    apiVersions.add(c.apiVersion);
    for (const o of c.spec.owners) {
      owners.add(o.user);
      if (o.group) groups.add(o.group);
    }
    if (c.spec.library) {
      registries.add(c.spec.library.defaultRegistry);
      if (c.spec.library.publish) {
        strategies.add(c.spec.library.publish.strategy);
        visibilities.add(c.spec.library.publish.visibilityPolicy.default);
      }
    }
  }
  const sorted = (s: Set<string>) => [...s].sort((a, b) => a.localeCompare(b));
  return {
    kinds: COMPONENT_KINDS,
    environments: ENVIRONMENTS,
    platforms: MOBILE_PLATFORMS,
    dependencyFlags: DEPENDENCY_FLAGS,
    libraryModels: LIBRARY_MODELS,
    owners: sorted(owners),
    groups: sorted(groups),
    registries: sorted(registries),
    publishStrategies: sorted(strategies),
    visibilities: sorted(visibilities),
    apiVersions: sorted(apiVersions),
  };
}
