// An offer's status as a coloured badge. No hooks: server and client components both render it.
import { Badge } from "@/components/ui";
import { statusLabel, statusTone } from "./offer-math";

export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge tone={statusTone(status)} data-testid="offer-status" data-status={status}>
      {statusLabel(status)}
    </Badge>
  );
}
