import { Link } from "@/components/ui/link";
import { hasRole, type PortalUser } from "@/lib/portal/roles";
import { ButtonLink } from "@/components/ui";
import { NavLinks } from "./nav-links";
import { navItemsFor } from "./nav-items";
import { UserMenu } from "./user-menu";

/** The portal's top bar: brand, main navigation, and the user menu (or a sign-in link). */
export function AppHeader({ user }: { user: PortalUser | null }) {
  return (
    <header className="shell-header">
      <Link href="/" className="shell-brand">
        Platform portal
      </Link>
      <NavLinks items={navItemsFor(user)} pendingOrdersBadge={user ? hasRole(user, "lead") : false} reviewsBadge={user !== null} />
      {user ? (
        <UserMenu user={user} />
      ) : (
        <ButtonLink href="/auth/signin" variant="primary" size="small">
          Sign in
        </ButtonLink>
      )}
    </header>
  );
}
