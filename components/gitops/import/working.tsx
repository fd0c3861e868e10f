// A spinner with what is being done, in a cell of the review or import table.
import styles from "../gitops.module.css";

export function Working({ text }: { text: string }) {
  return (
    <span className={styles.progress}>
      <span className={styles.spinner} aria-hidden="true" />
      <span className="muted">{text}</span>
    </span>
  );
}
