// The portal's main navigation (a plain module: server and client components both read it).
export interface NavItem {
  href: string;
  label: string;
  description: string;
}

export const navItems: NavItem[] = [
  { href: "/catalog", label: "Catalog", description: "Every software component: owners, environments, configuration and releases." },
  { href: "/app-orders", label: "App orders", description: "Order a new app or service; leads approve or reject the request." },
  { href: "/offers", label: "Offers", description: "Inspect a player's offers, rewards and live events." },
];
