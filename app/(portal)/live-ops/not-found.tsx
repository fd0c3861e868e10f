// A live-ops address whose game or offer id cannot name one.
import { NotFoundPage } from "@/components/shell/not-found-page";

export default function LiveOpsNotFound() {
  return (
    <NotFoundPage title="No such game or offer" back={{ href: "/live-ops", label: "Live ops" }}>
      Game and offer ids are 1 to 200 letters, digits and _ . @ + = | ~ -. Pick the game from the live-ops page instead.
    </NotFoundPage>
  );
}
