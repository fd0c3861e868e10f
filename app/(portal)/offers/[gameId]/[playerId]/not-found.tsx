"use client";
// A player page whose ids cannot name a player. Client-side to read the page's environment: the way back stays in it.
import { NotFoundPage } from "@/components/shell/not-found-page";
import { useOffersEnvironment } from "@/components/offers-environment/environment-context";

export default function PlayerNotFound() {
  const { href } = useOffersEnvironment();
  return (
    <NotFoundPage title="No such player" back={{ href: href("/offers"), label: "Offers" }}>
      A game id and a player id are 1 to 200 characters. Find the player from the offers page instead.
    </NotFoundPage>
  );
}
