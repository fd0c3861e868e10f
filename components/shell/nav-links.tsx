"use client";
import { Link } from "@/components/ui/link";
import { usePathname, useSearchParams } from "next/navigation";
import { useId, useState } from "react";
import { ENV_PARAM, environmentFromParam, pageHref } from "@/components/offers-environment/environment";
import { navItems, type NavItem } from "./nav-items";
import { PendingOrdersBadge } from "@/components/app-orders/pending-badge";
import { ReviewsBadge } from "@/components/reviews/reviews-badge";

/**
 * The main navigation: a row of section links in the header; on a phone, a Menu button naming the
 * current section that opens the list of sections (and closes on a choice, Escape or a second press).
 */
export function NavLinks({ items = navItems, pendingOrdersBadge = false, reviewsBadge = false }: { items?: NavItem[]; pendingOrdersBadge?: boolean; reviewsBadge?: boolean }) {
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const [open, setOpen] = useState(false);
  const listId = useId();
  const isActive = (item: NavItem) => pathname === item.href || pathname.startsWith(`${item.href}/`);
  const current = items.find(isActive);
  // From one offers page to another (support, live ops) the environment stays, as on the pages' own links.
  const environment = current?.offersEnvironment ? environmentFromParam(searchParams?.get(ENV_PARAM)) : "live";
  return (
    <nav
      className="shell-nav"
      aria-label="Main"
      onKeyDown={(event) => {
        if (event.key === "Escape" && open) {
          setOpen(false);
          event.currentTarget.querySelector<HTMLButtonElement>(".shell-nav__toggle")?.focus();
        }
      }}
    >
      <button type="button" className="shell-nav__toggle" aria-expanded={open} aria-controls={listId} onClick={() => setOpen(!open)}>
        <span aria-hidden="true" className="shell-nav__icon">
          ☰
        </span>
        {current ? (
          <>
            <span className="visually-hidden">Menu: </span>
            <span className="shell-nav__current" data-testid="nav-current">{current.label}</span>
          </>
        ) : (
          "Menu"
        )}
      </button>
      <div id={listId} className="shell-nav__list" data-open={open || undefined}>
        {items.map((item) => {
          const active = isActive(item);
          return (
            <Link
              key={item.href}
              href={item.offersEnvironment ? pageHref(item.href, environment) : item.href}
              className="shell-nav__link"
              aria-current={active ? "page" : undefined}
              onClick={() => setOpen(false)}
            >
              {item.label}
              {pendingOrdersBadge && item.href === "/app-orders" ? <PendingOrdersBadge /> : null}
              {reviewsBadge && item.href === "/reviews" ? <ReviewsBadge /> : null}
            </Link>
          );
        })}
      </div>
    </nav>
  );
}
