"use client";
// Per-variant results: surfaced, claimed and claim rate per variant (as figures, and as a small chart on a
// scale all variants share, hidden from assistive technology like the funnel's), and each variant's
// difference in claim rate against the first one with its 95% interval and what it likely means.
import dynamic from "next/dynamic";
import type { DefinitionFunnel } from "./api";
import { formatCount, formatRate } from "./format";
import { differenceText, verdict } from "./variant-words";
import styles from "./live-ops.module.css";

// Charts measure the page: drawn in the browser only.
const VariantChart = dynamic(() => import("./funnel-charts").then((m) => m.VariantChart), { ssr: false });

export function VariantResults({ funnel }: { funnel: DefinitionFunnel }) {
  if (funnel.variants.length === 0) return <p className="muted">No player has been given a variant yet.</p>;
  const baseline = funnel.variants[0]!.variantId;
  const max = Math.max(...funnel.variants.map((v) => v.surfaced));
  const unseen = new Set(funnel.variants.filter((v) => v.surfaced === 0).map((v) => v.variantId));
  return (
    <ul className={styles.checks} data-testid="variant-results" aria-label="Results per variant">
      {funnel.variants.map((v) => {
        const c = funnel.comparisons.find((x) => x.variantId === v.variantId);
        const difference = c ? differenceText(c) : null;
        return (
          <li key={v.variantId} className={styles.variantResult} data-testid="variant-result" data-variant={v.variantId}>
            <h3 className={styles.flush}>
              Variant {v.variantId}
              {v.variantId === baseline ? <span className="muted"> (baseline)</span> : null}
            </h3>
            <dl className={styles.numbers}>
              <div>
                <dt>Surfaced</dt>
                <dd>{formatCount(v.surfaced)}</dd>
              </div>
              <div>
                <dt>Claimed</dt>
                <dd>{formatCount(v.claimed)}</dd>
              </div>
              <div>
                <dt>Claim rate</dt>
                <dd>{formatRate(v.conversion)}</dd>
              </div>
            </dl>
            <VariantChart surfaced={v.surfaced} claimed={v.claimed} max={max} />
            {c ? (
              <p className={styles.verdict} data-testid="variant-verdict">
                {difference ? (
                  <>
                    Claim rate against {baseline}: <strong>{difference}</strong>.{" "}
                  </>
                ) : null}
                {verdict(c, unseen)}
              </p>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
