// Portal roles: what each grants is in DESIGN ("Portal"); admin implies every role.
import { z } from "zod";

export const roleNames = ["engineer", "lead", "operator", "support", "liveops", "admin"] as const;
export const roleSchema = z.enum(roleNames);
export type Role = z.infer<typeof roleSchema>;

export interface PortalUser {
  /** The source-control user name (GitLab username; the name typed in the development sign-in). */
  id: string;
  /** Display name. */
  name: string;
  email?: string;
  roles: Role[];
  groups: string[];
}

/** True when the user holds the role; admin implies every role. */
export function hasRole(user: Pick<PortalUser, "roles">, role: Role): boolean {
  return user.roles.includes("admin") || user.roles.includes(role);
}

/** Roles in their canonical order, without duplicates or unknown names. */
export function normalizeRoles(roles: Iterable<string>): Role[] {
  const set = new Set(roles);
  return roleNames.filter((r) => set.has(r));
}
