// What a save changes, key by key: + added, - removed, ~ changed.
import { formatValue, type Change } from "./config-edit";
import styles from "../gitops.module.css";

export function ChangeList({ changes, testId }: { changes: Change[]; testId?: string }) {
  return (
    <ul className={styles.preview} data-testid={testId}>
      {changes.map((c) => (
        <li key={c.key} className={c.op === "add" ? styles.add : c.op === "remove" ? styles.del : styles.chg}>
          {c.op === "add" ? `+ ${c.key}: ${formatValue(c.after)}` : c.op === "remove" ? `- ${c.key}: ${formatValue(c.before)}` : `~ ${c.key}: ${formatValue(c.before)} → ${formatValue(c.after)}`}
        </li>
      ))}
    </ul>
  );
}
