"use client";
import { Link } from "@/components/ui/link";
import { usePathname, useSearchParams } from "next/navigation";
import { ENV_PARAM, environmentFromParam, pageHref } from "@/components/offers-environment/environment";
import { navItems, type NavItem } from "./nav-items";
import { PendingOrdersBadge } from "@/components/app-orders/pending-badge";
import { ReviewsBadge } from "@/components/reviews/reviews-badge";

export function NavLinks({ items = navItems, pendingOrdersBadge = false, reviewsBadge = false }: { items?: NavItem[]; pendingOrdersBadge?: boolean; reviewsBadge?: boolean }) {
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const isActive = (item: NavItem) => pathname === item.href || pathname.startsWith(`${item.href}/`);
  // From one offers page to another (support, live ops) the environment stays, as on the pages' own links.
  const environment = items.some((item) => item.offersEnvironment && isActive(item)) ? environmentFromParam(searchParams?.get(ENV_PARAM)) : "live";
  return (
    <nav className="shell-nav" aria-label="Main">
      {items.map((item) => {
        const active = isActive(item);
        return (
          <Link key={item.href} href={item.offersEnvironment ? pageHref(item.href, environment) : item.href} className="shell-nav__link" aria-current={active ? "page" : undefined}>
            {item.label}
            {pendingOrdersBadge && item.href === "/app-orders" ? <PendingOrdersBadge /> : null}
            {reviewsBadge && item.href === "/reviews" ? <ReviewsBadge /> : null}
          </Link>
        );
      })}
    </nav>
  );
}
