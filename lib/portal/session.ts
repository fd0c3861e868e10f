// Session helpers for server components and pages.
import "server-only";
import { redirect } from "next/navigation";
import { currentUser, hasRole, type PortalUser, type Role } from "./authorize";
import { signInPath } from "./auth/redirect";

export { currentUser, signInPath };

/**
 * The signed-in user; signed out, redirects to the sign-in page (which returns to `returnTo`).
 * With a role the user lacks, answers null (render a "you need the … role" message; the server routes check too).
 */
export async function requireUser(returnTo?: string): Promise<PortalUser> {
  const user = await currentUser();
  if (!user) redirect(signInPath(returnTo));
  return user;
}

export async function requireRole(role: Role, returnTo?: string): Promise<PortalUser | null> {
  const user = await requireUser(returnTo);
  return hasRole(user, role) ? user : null;
}
