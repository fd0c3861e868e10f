// A player page whose ids cannot name a player.
import { NotFoundPage } from "@/components/shell/not-found-page";

export default function PlayerNotFound() {
  return (
    <NotFoundPage title="No such player" back={{ href: "/offers", label: "Offers" }}>
      A game id and a player id are 1 to 200 characters. Find the player from the offers page instead.
    </NotFoundPage>
  );
}
