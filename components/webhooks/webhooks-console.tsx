"use client";
// Reward webhooks of a game (live ops): delivery figures, endpoints (add, disable, rotate the secret,
// send a test event), the delivery log and replays. Figures and log refresh by themselves.
import { Link } from "@/components/ui/link";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Alert } from "@/components/ui";
import { retryWhileUnavailable } from "@/components/http/api-client";
import { AddEndpointForm } from "./add-endpoint-form";
import { useOffersEnvironment } from "@/components/offers-environment/environment-context";
import { describeWebhookError, isGameNotFound, useWebhooksApi } from "./api";
import { DeliveryFigures } from "./delivery-figures";
import { DeliveryLog } from "./delivery-log";
import { EndpointsCard } from "./endpoints-card";
import { formatTime, urlInMessage } from "./format";
import { ReplayFailedForm } from "./replay-failed-form";
import { SecretDialog } from "./secret-dialog";
import styles from "./webhooks.module.css";

export function WebhooksConsole({ gameId, refreshMs = 3_000 }: { gameId: string; refreshMs?: number | false }) {
  const [secret, setSecret] = useState<{ title: string; secret: string; note?: string } | null>(null);
  const { api, keys } = useWebhooksApi();
  const { href } = useOffersEnvironment();
  const overview = useQuery({
    queryKey: keys.overview(gameId),
    queryFn: ({ signal }) => api.overview(gameId, signal),
    refetchInterval: refreshMs,
    ...retryWhileUnavailable,
  });

  return (
    <div className="stack">
      <div>
        <p className={`muted ${styles.flush}`}>
          <Link href={href(`/live-ops/${encodeURIComponent(gameId)}`)}>Live ops · {gameId}</Link>
        </p>
        <h1>Reward webhooks</h1>
        <p className="muted">
          Every claimed reward is sent to the game&apos;s endpoints as a signed <code>reward.granted</code> event (Standard Webhooks), retried for 24
          hours, then kept as a dead letter to replay. Game servers can also pull the same events from <code>GET /v1/rewards/events</code>.
        </p>
      </div>

      {overview.isError ? (
        <Alert tone="error">{isGameNotFound(overview.error) ? `The offers service has no game “${gameId}”.` : describeWebhookError(overview.error)}</Alert>
      ) : overview.failureCount > 0 && overview.failureReason ? (
        <Alert tone="warning">{describeWebhookError(overview.failureReason)}</Alert>
      ) : null}
      {overview.isPending ? <p className="muted">Loading…</p> : null}

      {overview.data ? (
        <>
          <DeliveryFigures stats={overview.data.stats} />
          <EndpointsCard
            gameId={gameId}
            endpoints={overview.data.endpoints}
            onRotated={(endpoint, rotated) =>
              setSecret({
                title: "New signing secret",
                secret: rotated.secret,
                note: `The previous secret of ${urlInMessage(endpoint.url)} keeps signing beside it until ${formatTime(rotated.previousSecretExpiresAt)}: switch your game server over before then.`,
              })
            }
          >
            <AddEndpointForm gameId={gameId} onCreated={(created) => setSecret({ title: "Endpoint added", secret: created.secret, note: `Deliveries to ${created.url} start with the next claimed reward.` })} />
          </EndpointsCard>
          <DeliveryLog gameId={gameId} refreshMs={refreshMs} />
          <ReplayFailedForm gameId={gameId} endpoints={overview.data.endpoints} />
        </>
      ) : null}

      <SecretDialog shown={secret} onClose={() => setSecret(null)} />
    </div>
  );
}
