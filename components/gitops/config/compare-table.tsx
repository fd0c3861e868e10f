// Current (live) and persistent values of one environment side by side, drift marked.
import { Badge, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui";
import type { ConfigValues } from "@/lib/portal/gitops/config-values";
import { compareViews, formatValue } from "./config-edit";
import styles from "../gitops.module.css";

export function CompareTable({ current, persistent }: { current: ConfigValues; persistent: ConfigValues }) {
  const rows = compareViews(current, persistent);
  if (rows.length === 0) return <p className="muted">No values in either view yet.</p>;
  const drift = rows.filter((r) => r.drift).length;
  return (
    <>
      <Table label="Current and persistent values" data-testid="config-compare">
        <TableHeader>
          <TableRow>
            <TableHead>Key</TableHead>
            <TableHead>Current (live)</TableHead>
            <TableHead>Persistent (config repository)</TableHead>
            <TableHead aria-label="Difference" />
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((r) => (
            <TableRow key={r.key} className={r.drift ? styles.drift : undefined} data-testid={`config-row-${r.key}`} data-drift={r.drift ? "true" : "false"}>
              <TableCell className={styles.mono}>{r.key}</TableCell>
              <TableCell className={r.current === undefined ? styles.missing : styles.mono}>{r.current === undefined ? "not set" : formatValue(r.current)}</TableCell>
              <TableCell className={r.persistent === undefined ? styles.missing : styles.mono}>{r.persistent === undefined ? "not set" : formatValue(r.persistent)}</TableCell>
              <TableCell>{r.drift ? <Badge tone="warning">drift</Badge> : null}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <p className="muted">{drift === 0 ? "Current and persistent values match." : `${drift} key${drift === 1 ? " differs" : "s differ"}: the next release makes the persistent values current.`}</p>
    </>
  );
}
