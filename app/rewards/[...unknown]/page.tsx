// Any other address under /rewards (a mangled link from a game): the rewards look's "nothing here",
// not the portal's.
import { notFound } from "next/navigation";

export default function UnknownRewardsPage(): never {
  notFound();
}
