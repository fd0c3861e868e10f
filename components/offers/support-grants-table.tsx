"use client";
// Support grants with their status; a pending one offers Approve and Reject to anyone but its requester.
import { useState } from "react";
import { Badge, Button, Table, TableBody, TableCell, TableHead, TableHeader, TableRow, type BadgeTone } from "@/components/ui";
import { Link } from "@/components/ui/link";
import { useOffersEnvironment } from "@/components/offers-environment/environment-context";
import type { SupportGrant } from "./api";
import { DecideGrantDialog, type Decision } from "./decide-grant-dialog";
import { formatTime } from "./format";

const TONES: Record<SupportGrant["status"], BadgeTone> = { granted: "success", pending: "warning", rejected: "danger", expired: "neutral" };
const LABELS: Record<SupportGrant["status"], string> = { granted: "Granted", pending: "Waits for approval", rejected: "Rejected", expired: "Expired" };

export function SupportGrantsTable({ grants, me, showPlayer = false, label, onDecided }: { grants: SupportGrant[]; me: string | null; showPlayer?: boolean; label: string; onDecided: (grant: SupportGrant) => void }) {
  const { href } = useOffersEnvironment();
  const [deciding, setDeciding] = useState<{ grant: SupportGrant; decision: Decision } | null>(null);
  return (
    <>
      <Table label={label}>
        <TableHeader>
          <TableRow>
            <TableHead>Asked</TableHead>
            {showPlayer ? <TableHead>Player</TableHead> : null}
            <TableHead>Reward</TableHead>
            <TableHead>Reason</TableHead>
            <TableHead>Status</TableHead>
            <TableHead>Actions</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {grants.map((grant) => {
            const own = me !== null && grant.requestedBy.toLowerCase() === me.toLowerCase();
            return (
              <TableRow key={grant.grantId} data-testid={`support-grant-${grant.grantId}`}>
                <TableCell>
                  {formatTime(grant.requestedAt)}
                  <br />
                  <span className="muted">by {grant.requestedBy}</span>
                </TableCell>
                {showPlayer ? (
                  <TableCell>
                    <Link href={href(`/offers/${encodeURIComponent(grant.gameId)}/${encodeURIComponent(grant.playerId)}`)}>{grant.playerId}</Link>
                  </TableCell>
                ) : null}
                <TableCell>
                  {grant.amount.toLocaleString("en-US")} {grant.name} <code className="muted">{grant.rewardId}</code>
                </TableCell>
                <TableCell>{grant.reason}</TableCell>
                <TableCell>
                  <Badge tone={TONES[grant.status]}>{LABELS[grant.status]}</Badge>
                  {grant.decidedBy && grant.status !== "expired" ? (
                    <>
                      <br />
                      <span className="muted">
                        by {grant.decidedBy}
                        {grant.decisionReason ? `: ${grant.decisionReason}` : ""}
                      </span>
                    </>
                  ) : null}
                </TableCell>
                <TableCell>
                  {grant.status !== "pending" ? null : own ? (
                    <span className="muted">Someone else decides</span>
                  ) : (
                    <div className="row">
                      <Button size="small" onClick={() => setDeciding({ grant, decision: "approve" })} data-testid="grant-approve">
                        Approve
                      </Button>
                      <Button size="small" variant="danger" onClick={() => setDeciding({ grant, decision: "reject" })} data-testid="grant-reject">
                        Reject
                      </Button>
                    </div>
                  )}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      <DecideGrantDialog
        grant={deciding?.grant ?? null}
        decision={deciding?.decision ?? "approve"}
        onClose={() => setDeciding(null)}
        onDecided={(grant) => {
          setDeciding(null);
          onDecided(grant);
        }}
      />
    </>
  );
}
