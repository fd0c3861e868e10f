"use client";
// The funnel of a definition: its figures (a table people and screen readers read), the stages and the
// days as charts, conversion, and the per-variant results. Refreshed every 10 s and on demand.
import dynamic from "next/dynamic";
import { useQuery } from "@tanstack/react-query";
import { Alert, Button, Card } from "@/components/ui";
import { retryWhileUnavailable } from "@/components/http/api-client";
import { describeLiveOpsError, useLiveOpsApi, type DefinitionFunnel } from "./api";
import { formatCount, formatRate } from "./format";
import { STAGES } from "./funnel-stages";
import { VariantResults } from "./variant-results";
import styles from "./live-ops.module.css";

// Charts measure the page: drawn in the browser only.
const FunnelStagesChart = dynamic(() => import("./funnel-charts").then((m) => m.FunnelStagesChart), { ssr: false });
const FunnelDaysChart = dynamic(() => import("./funnel-charts").then((m) => m.FunnelDaysChart), { ssr: false });

export function FunnelSection({ gameId, offerId, hasVariants }: { gameId: string; offerId: string; hasVariants: boolean }) {
  const { api, keys } = useLiveOpsApi();
  const funnel = useQuery({ queryKey: keys.funnel(gameId, offerId), queryFn: ({ signal }) => api.funnel(gameId, offerId, signal), refetchInterval: 10_000, ...retryWhileUnavailable });
  return (
    <>
      <Card title="Funnel" data-testid="funnel">
        {funnel.isError ? <Alert tone="error">{describeLiveOpsError(funnel.error)}</Alert> : null}
        {funnel.data ? <FunnelFigures funnel={funnel.data} /> : <p className="muted">Loading the funnel…</p>}
        <div className={`row ${styles.refreshRow}`}>
          <Button size="small" onClick={() => void funnel.refetch()} disabled={funnel.isFetching}>
            {funnel.isFetching ? "Refreshing…" : "Refresh"}
          </Button>
        </div>
      </Card>
      {hasVariants || (funnel.data?.variants.length ?? 0) > 0 ? (
        <Card title="Variants">{funnel.data ? <VariantResults funnel={funnel.data} /> : <p className="muted">Loading…</p>}</Card>
      ) : null}
    </>
  );
}

export function FunnelFigures({ funnel }: { funnel: DefinitionFunnel }) {
  const { total } = funnel;
  return (
    <div className="stack">
      <dl className={styles.numbers} data-testid="funnel-figures" aria-label="Players at each stage, all time">
        {STAGES.map(([key, label]) => (
          <div key={key}>
            <dt>{label}</dt>
            <dd data-testid={`funnel-${key}`}>{formatCount(total[key])}</dd>
          </div>
        ))}
        <div>
          <dt>Conversion</dt>
          <dd data-testid="funnel-conversion">{formatRate(total.conversion)}</dd>
        </div>
      </dl>
      <p className={`muted ${styles.flush}`}>
        Conversion is claimed ÷ surfaced. Below: the stages, then the last {funnel.days} days (UTC).
      </p>
      <FunnelStagesChart funnel={funnel} />
      <FunnelDaysChart funnel={funnel} />
    </div>
  );
}
