// Which values an editor changes: the persistent ones (a commit) or the live ones (operators).
import type { ConfigView } from "../api";
import styles from "../gitops.module.css";

export function TargetPicker({ target, onChange }: { target: ConfigView; onChange: (v: ConfigView) => void }) {
  return (
    <div className={styles.switcher} role="group" aria-label="Change">
      <span className="muted">Change:</span>
      <button type="button" className={styles.pill} aria-pressed={target === "persistent"} onClick={() => onChange("persistent")}>
        persistent (commit)
      </button>
      <button type="button" className={styles.pill} aria-pressed={target === "current"} onClick={() => onChange("current")}>
        current (live now)
      </button>
    </div>
  );
}
