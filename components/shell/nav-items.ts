// The portal's main navigation (a plain module: server and client components both read it).
import { hasRole, type PortalUser, type Role } from "@/lib/portal/roles";

export interface NavItem {
  href: string;
  label: string;
  description: string;
  /** Shown only to holders of this role (the server checks it again on every route). */
  role?: Role;
  /** One of the offers pages, which are about the environment of the games the URL names (?env=test). */
  offersEnvironment?: boolean;
}

export const navItems: NavItem[] = [
  { href: "/catalog", label: "Catalog", description: "Every software component: owners, environments, configuration and releases." },
  { href: "/reviews", label: "Reviews", description: "Merge requests proposed in the portal: review the diff, approve, merge or close." },
  { href: "/app-orders", label: "App orders", description: "Order a new app or service; leads approve or reject the request." },
  { href: "/import", label: "Import", description: "Bring existing repositories into the catalog, with their kind inferred." },
  { href: "/offers", label: "Offers", description: "Inspect a player's offers, rewards and live events.", role: "support", offersEnvironment: true },
  { href: "/live-ops", label: "Live ops", description: "Author, target, activate and measure offers; deliver claimed rewards to game servers.", role: "liveops", offersEnvironment: true },
  { href: "/audit", label: "Audit", description: "Every change made through the portal: who, what, when, before and after.", role: "admin" },
];

/** The items a user may use; a visitor sees those that need no particular role. */
export function navItemsFor(user: PortalUser | null): NavItem[] {
  return navItems.filter((item) => !item.role || (user !== null && hasRole(user, item.role)));
}
