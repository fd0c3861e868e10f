// A definition's lifecycle status as a coloured badge. No hooks: server and client components both render it.
import { Badge, type BadgeTone } from "@/components/ui";
import type { DefinitionStatus } from "@/lib/offers-client/schemas";

const LOOK: Record<DefinitionStatus, { label: string; tone: BadgeTone }> = {
  draft: { label: "Draft", tone: "neutral" },
  active: { label: "Active", tone: "success" },
  paused: { label: "Paused", tone: "warning" },
  archived: { label: "Archived", tone: "danger" },
};

export function DefinitionStatusBadge({ status }: { status: DefinitionStatus }) {
  const look = LOOK[status] ?? { label: status, tone: "neutral" };
  return (
    <Badge tone={look.tone} data-testid="definition-status" data-status={status}>
      {look.label}
    </Badge>
  );
}
