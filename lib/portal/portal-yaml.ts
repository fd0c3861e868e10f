// config/portal.yaml (PORTAL_CONFIG): roles by user and by group, and provider labels.
// Read again whenever the file changes, so role edits apply without a restart or a new sign-in.
import "server-only";
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { z } from "zod";
import { normalizeRoles, roleSchema, type Role } from "./roles";

const roleList = z.array(roleSchema);

export const portalConfigSchema = z.object({
  roles: z
    .object({
      default: roleList.default(["engineer"]),
      users: z.record(z.string(), roleList).default({}),
      groups: z.record(z.string(), roleList).default({}),
    })
    .default({ default: ["engineer"], users: {}, groups: {} }),
  providers: z
    .object({
      gitlab: z.object({ label: z.string().default("GitLab") }).default({ label: "GitLab" }),
      dev: z.object({ label: z.string().default("Development sign-in") }).default({ label: "Development sign-in" }),
    })
    .default({ gitlab: { label: "GitLab" }, dev: { label: "Development sign-in" } }),
});

export type PortalConfig = z.infer<typeof portalConfigSchema>;

export class PortalConfigError extends Error {}

/** Parses the YAML text of portal.yaml; throws PortalConfigError naming the file and the bad keys. */
export function parsePortalConfig(text: string, file = "portal.yaml"): PortalConfig {
  let raw: unknown;
  try {
    raw = parse(text) ?? {};
  } catch (error) {
    throw new PortalConfigError(`${file}: not valid YAML: ${(error as Error).message}`);
  }
  const result = portalConfigSchema.safeParse(raw);
  if (!result.success) {
    const issues = result.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
    throw new PortalConfigError(`${file}: ${issues}`);
  }
  return result.data;
}

let cache: { file: string; mtimeMs: number; size: number; config: PortalConfig } | undefined;

/**
 * The portal config from PORTAL_CONFIG (relative to the working directory), re-read when the file changes.
 * An edit that breaks the file is logged and the last valid version stays in force; with no valid
 * version yet (a bad file at start), it throws.
 */
export function loadPortalConfig(configPath: string): PortalConfig {
  const file = path.resolve(configPath);
  const stat = statSync(file);
  if (cache && cache.file === file && cache.mtimeMs === stat.mtimeMs && cache.size === stat.size) return cache.config;
  try {
    const config = parsePortalConfig(readFileSync(file, "utf8"), configPath);
    cache = { file, mtimeMs: stat.mtimeMs, size: stat.size, config };
    return config;
  } catch (error) {
    if (!cache || cache.file !== file) throw error;
    console.error(`[portal] ${(error as Error).message}; keeping the last valid version`);
    cache = { ...cache, mtimeMs: stat.mtimeMs, size: stat.size };
    return cache.config;
  }
}

/**
 * A user's roles: the default roles, those of the user name, and those of each group
 * (user names and group paths compare case-insensitively). Canonical order, no duplicates.
 */
export function resolveRoles(config: PortalConfig, userId: string, groups: readonly string[]): Role[] {
  const roles: string[] = [...config.roles.default];
  const lower = (s: string) => s.toLowerCase();
  for (const [user, userRoles] of Object.entries(config.roles.users)) {
    if (lower(user) === lower(userId)) roles.push(...userRoles);
  }
  const memberOf = new Set(groups.map(lower));
  for (const [group, groupRoles] of Object.entries(config.roles.groups)) {
    if (memberOf.has(lower(group))) roles.push(...groupRoles);
  }
  return normalizeRoles(roles);
}
