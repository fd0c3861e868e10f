// Records that failed to load: file, field and message for each, the relations that do not resolve (warnings),
// and the stale records.
import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { currentUser, hasRole } from "@/lib/portal/authorize";
import { getPortalServices } from "@/lib/portal/services";
import { Alert, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui";
import { RefreshCatalogButton } from "@/components/catalog/refresh-catalog-button";
import { CatalogRelationWarnings } from "@/components/catalog/relations-card";
import { SignInNeeded } from "@/components/shell/sign-in-needed";
import styles from "@/components/catalog/catalog.module.css";

export const metadata: Metadata = { title: "Catalog errors" };
export const dynamic = "force-dynamic";

export default async function CatalogErrorsPage() {
  const user = await currentUser();
  if (!user) return <SignInNeeded title="Catalog" reason="Sign in to browse the catalog." next="/catalog/errors" />;
  const catalog = await getPortalServices().catalog();
  const errors = catalog.errors;
  const stale = catalog.entries().filter((e) => e.stale);
  const operator = hasRole(user, "operator");
  return (
    <div className="stack">
      <p>
        <Link href="/catalog">← Catalog</Link>
      </p>
      <h1>Records that failed to load</h1>
      <p className="muted">
        Config directory <code>{catalog.configDir}</code>. Fix the file in the config repository, then {operator ? "refresh the catalog" : "ask an operator to refresh the catalog"} or wait for the next refresh.
      </p>
      {operator ? <RefreshCatalogButton /> : null}
      {errors.length === 0 ? (
        <Alert tone="success">Every record loads.</Alert>
      ) : (
        <Table label="Records that failed to load" className={styles.errorsTable} data-testid="catalog-errors">
          <TableHeader>
            <TableRow>
              <TableHead>File</TableHead>
              <TableHead>Field</TableHead>
              <TableHead>Message</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {errors.map((e, i) => (
              <TableRow key={`${e.file}-${e.path}-${i}`}>
                <TableCell>
                  <code>{e.file}</code>
                </TableCell>
                <TableCell>{e.path ? <code>{e.path}</code> : <span className="muted">whole file</span>}</TableCell>
                <TableCell>{e.message}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <CatalogRelationWarnings warnings={catalog.relations.warnings()} />
      {stale.length ? (
        <>
          <h2>Shown from their last valid version</h2>
          <ul>
            {stale.map((e) => (
              <li key={e.name}>
                <Link href={`/catalog/${e.name}`}>{e.component.metadata.displayName}</Link> (<code>{e.file}</code>): {e.staleReason}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}
