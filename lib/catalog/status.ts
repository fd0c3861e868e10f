/**
 * GET /api/components/:name/status — the shape (ours; the interface does not show it):
 *
 * {
 *   name: "checkout-api",
 *   environments: [
 *     { environment: "staging", namespace: "checkout-staging" | null, deployedVersion: null }
 *   ],
 *   openMergeRequests: 0,
 *   stale: false
 * }
 *
 * One entry per environment the component lists (in spec order). namespace comes from
 * spec.runtime.k8s.namespaces (null when none is set). deployedVersion stays null until releases
 * exist; openMergeRequests stays 0 until merge requests exist.
 */
import { z } from "zod";
import { ENVIRONMENTS } from "./schema";
import type { CatalogEntry } from "./search";

export const componentStatusSchema = z.object({
  name: z.string(),
  environments: z.array(
    z.object({
      environment: z.enum(ENVIRONMENTS),
      namespace: z.string().nullable(),
      deployedVersion: z.string().nullable(),
    }),
  ),
  openMergeRequests: z.number().int().min(0),
  stale: z.boolean(),
});

export type ComponentStatus = z.infer<typeof componentStatusSchema>;

export function componentStatus(entry: CatalogEntry, extra: { deployedVersions?: Partial<Record<string, string>>; openMergeRequests?: number } = {}): ComponentStatus {
  const spec = entry.component.spec;
  return {
    name: entry.name,
    environments: spec.environments.map((environment) => ({
      environment,
      namespace: spec.runtime?.k8s?.namespaces?.[environment] ?? null,
      deployedVersion: extra.deployedVersions?.[environment] ?? null,
    })),
    openMergeRequests: extra.openMergeRequests ?? 0,
    stale: entry.stale,
  };
}
