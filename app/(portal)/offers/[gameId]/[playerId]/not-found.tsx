"use client";
// A player page whose ids cannot name a player: the rule in words, never the id (it may be anything, of
// any length). Client-side to read the page's environment: the way back stays in it.
import { NotFoundPage } from "@/components/shell/not-found-page";
import { useOffersEnvironment } from "@/components/offers-environment/environment-context";
import { IDENTIFIER_RULE_IN_WORDS } from "@/lib/offers-client/schemas";

export default function PlayerNotFound() {
  const { href } = useOffersEnvironment();
  return (
    <NotFoundPage title="Not a valid player id" back={{ href: href("/offers"), label: "Offers" }}>
      A player id is {IDENTIFIER_RULE_IN_WORDS}; a game id follows the same rule. Find the player by id or username from the offers page
      instead.
    </NotFoundPage>
  );
}
