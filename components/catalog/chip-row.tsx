// One row of filter chips (kind, environment, dependency) with the count each would match.
import styles from "./catalog.module.css";

export function ChipRow({ label, name, values, selected, counts, onToggle }: { label: string; name: string; values: readonly string[]; selected: string[]; counts: Record<string, number>; onToggle: (v: string) => void }) {
  return (
    <div className={styles.chips} role="group" aria-label={label}>
      <span className={styles.chipLabel}>{label}</span>
      {values.map((v) => {
        const n = counts[v] ?? 0;
        const on = selected.includes(v);
        return (
          <button key={v} type="button" className={styles.chip} aria-pressed={on} disabled={!on && n === 0} onClick={() => onToggle(v)} data-testid={`chip-${name}-${v}`}>
            {v}
            <span className={styles.count}>{n}</span>
          </button>
        );
      })}
    </div>
  );
}
