// What an edit changes, one row per field: before → after.
import type { DiffRow } from "./definition-diff";
import styles from "../live-ops.module.css";

export function DiffTable({ rows }: { rows: DiffRow[] }) {
  return (
    <table className={styles.diff} data-testid="definition-diff">
      <caption className="visually-hidden">What changes, field by field</caption>
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Before</th>
          <th scope="col">After</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.field}>
            <th scope="row">{row.field}</th>
            <td>
              <span className="visually-hidden">was </span>
              <span className={styles.before}>{row.before}</span>
            </td>
            <td>
              <span className="visually-hidden">becomes </span>
              <span className={styles.after}>{row.after}</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
