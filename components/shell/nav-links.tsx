"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { navItems, type NavItem } from "./nav-items";
import { PendingOrdersBadge } from "@/components/app-orders/pending-badge";
import { ReviewsBadge } from "@/components/reviews/reviews-badge";

export function NavLinks({ items = navItems, pendingOrdersBadge = false, reviewsBadge = false }: { items?: NavItem[]; pendingOrdersBadge?: boolean; reviewsBadge?: boolean }) {
  const pathname = usePathname();
  return (
    <nav className="shell-nav" aria-label="Main">
      {items.map((item) => {
        const active = pathname === item.href || pathname.startsWith(`${item.href}/`);
        return (
          <Link key={item.href} href={item.href} className="shell-nav__link" aria-current={active ? "page" : undefined}>
            {item.label}
            {pendingOrdersBadge && item.href === "/app-orders" ? <PendingOrdersBadge /> : null}
            {reviewsBadge && item.href === "/reviews" ? <ReviewsBadge /> : null}
          </Link>
        );
      })}
    </nav>
  );
}
