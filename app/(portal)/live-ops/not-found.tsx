"use client";
// A live-ops address whose game or offer id cannot name one. Client-side to read the page's environment:
// the way back stays in it.
import { NotFoundPage } from "@/components/shell/not-found-page";
import { useOffersEnvironment } from "@/components/offers-environment/environment-context";

export default function LiveOpsNotFound() {
  const { href } = useOffersEnvironment();
  return (
    <NotFoundPage title="No such game or offer" back={{ href: href("/live-ops"), label: "Live ops" }}>
      Game and offer ids are 1 to 200 letters, digits and _ . @ + = | ~ -. Pick the game from the live-ops page instead.
    </NotFoundPage>
  );
}
