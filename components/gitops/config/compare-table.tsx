// Current (live) and persistent values of one environment side by side, drift marked.
import { Badge } from "@/components/ui";
import type { ConfigValues } from "@/lib/portal/gitops/config-values";
import { compareViews, formatValue } from "./config-edit";
import styles from "../gitops.module.css";

export function CompareTable({ current, persistent }: { current: ConfigValues; persistent: ConfigValues }) {
  const rows = compareViews(current, persistent);
  if (rows.length === 0) return <p className="muted">No values in either view yet.</p>;
  const drift = rows.filter((r) => r.drift).length;
  return (
    <>
      <table className="ui-table" data-testid="config-compare">
        <thead>
          <tr>
            <th>Key</th>
            <th>Current (live)</th>
            <th>Persistent (config repository)</th>
            <th aria-label="Difference" />
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key} className={r.drift ? styles.drift : undefined} data-testid={`config-row-${r.key}`} data-drift={r.drift ? "true" : "false"}>
              <td className={styles.mono}>{r.key}</td>
              <td className={r.current === undefined ? styles.missing : styles.mono}>{r.current === undefined ? "not set" : formatValue(r.current)}</td>
              <td className={r.persistent === undefined ? styles.missing : styles.mono}>{r.persistent === undefined ? "not set" : formatValue(r.persistent)}</td>
              <td>{r.drift ? <Badge tone="warning">drift</Badge> : null}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted">{drift === 0 ? "Current and persistent values match." : `${drift} key${drift === 1 ? " differs" : "s differ"}: the next release makes the persistent values current.`}</p>
    </>
  );
}
