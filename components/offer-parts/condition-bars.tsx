// An offer's completion conditions as progress bars. No hooks: server and client components both render it.
import type { Offer } from "@/lib/offers-client/schemas";
import { conditionLabel, conditionProgress, formatAmount } from "./offer-math";
import styles from "./offer-parts.module.css";

export function ConditionBars({ offer }: { offer: Pick<Offer, "status" | "completionConditions" | "completionTrackers"> }) {
  const rows = conditionProgress(offer);
  if (rows.length === 0) return null;
  return (
    <div className={styles.conditions}>
      {rows.map((row) => {
        const label = conditionLabel(row);
        return (
          <div key={row.key} className={styles.condition}>
            <div className={styles.conditionHead}>
              <span>{label}</span>
              <span className={styles.conditionNumbers}>
                {formatAmount(row.progress)} / {formatAmount(row.amount)}
              </span>
            </div>
            <div
              className={styles.bar}
              role="progressbar"
              aria-label={label}
              aria-valuemin={0}
              aria-valuemax={row.amount}
              aria-valuenow={row.progress}
              aria-valuetext={`${formatAmount(row.progress)} of ${formatAmount(row.amount)}`}
            >
              <div className={[styles.barFill, row.done ? styles.barDone : ""].join(" ")} style={{ width: `${Math.round(row.fraction * 1000) / 10}%` }} />
            </div>
          </div>
        );
      })}
    </div>
  );
}
