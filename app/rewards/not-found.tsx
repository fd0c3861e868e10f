// An address under /rewards that names nothing, in the rewards look.
import { Link } from "@/components/ui/link";
import { RewardsMessage } from "@/components/rewards/rewards-message";

export default function RewardsNotFound() {
  return (
    <RewardsMessage title="Nothing here" testId="rewards-not-found">
      <p>This page does not exist.</p>
      <p>
        <Link href="/rewards">Show your rewards</Link>
      </p>
    </RewardsMessage>
  );
}
