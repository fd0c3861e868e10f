// A component's relations on its page: its system, what it depends on and what uses it (links), the APIs
// it provides and consumes, its blast radius; and the references that do not resolve, as warnings.
import { Fragment } from "react";
import { Alert, Badge, Card } from "@/components/ui";
import { Link } from "@/components/ui/link";
import type { ComponentRelations, NameList, RelationWarning } from "@/lib/catalog/relation-schema";
import styles from "./catalog.module.css";

function ComponentLinks({ names, more = 0, testId }: { names: readonly string[]; more?: number; testId?: string }) {
  if (!names.length) return <span className="muted">none</span>;
  return (
    <span data-testid={testId}>
      {names.map((n, i) => (
        <Fragment key={n}>
          {i ? ", " : null}
          <Link href={`/catalog/${n}`}>{n}</Link>
        </Fragment>
      ))}
      {more > 0 ? <span className="muted"> and {more} more</span> : null}
    </span>
  );
}

const listed = (list: NameList, testId?: string) => <ComponentLinks names={list.names} more={list.total - list.names.length} testId={testId} />;

export function RelationWarnings({ relations }: { relations: ComponentRelations }) {
  if (!relations.warnings.length) return null;
  return (
    <Alert tone="warning" data-testid="relation-warnings">
      {relations.warnings.length === 1 ? "A relation does not resolve" : `${relations.warnings.length} relations do not resolve`} (the record loads; fix the name in its file):
      <ul>
        {relations.warnings.map((w) => (
          <li key={w.path}>
            <code>{w.path}</code>: {w.message}
          </li>
        ))}
      </ul>
    </Alert>
  );
}

export function RelationsCard({ name, relations: r }: { name: string; relations: ComponentRelations }) {
  return (
    <Card title="Relations">
      <dl className={styles.dl} data-testid="component-relations">
        <dt>System</dt>
        <dd data-testid="relation-system">
          {r.system ? (
            <>
              <code>{r.system.name}</code>: {listed(r.system.members)}
            </>
          ) : (
            <span className="muted">none</span>
          )}
        </dd>
        <dt>Depends on</dt>
        <dd data-testid="relation-depends-on">
          {r.dependsOn.length ? (
            r.dependsOn.map((d, i) => (
              <Fragment key={d.name}>
                {i ? ", " : null}
                {d.exists ? (
                  <Link href={`/catalog/${d.name}`}>{d.name}</Link>
                ) : (
                  <>
                    <code>{d.name}</code> <Badge tone="warning">not in the catalog</Badge>
                  </>
                )}
              </Fragment>
            ))
          ) : (
            <span className="muted">none</span>
          )}
        </dd>
        <dt>Used by</dt>
        <dd>{listed(r.usedBy, "relation-used-by")}</dd>
        <dt>Provides APIs</dt>
        <dd data-testid="relation-provides">
          {r.providesApis.length ? (
            <ul className={styles.links}>
              {r.providesApis.map((api) => (
                <li key={api.name}>
                  <Link href={`/catalog/${name}/apis/${api.name}`} data-testid="relation-api-docs">
                    <code>{api.name}</code>
                  </Link>{" "}
                  ({api.type}, <code>{api.path}</code>): consumed by {listed(api.consumers)}
                </li>
              ))}
            </ul>
          ) : (
            <span className="muted">none</span>
          )}
        </dd>
        <dt>Consumes APIs</dt>
        <dd data-testid="relation-consumes">
          {r.consumesApis.length ? (
            <ul className={styles.links}>
              {r.consumesApis.map((api) => (
                <li key={api.name}>
                  <code>{api.name}</code>: {api.providers.length ? <>from <ComponentLinks names={api.providers} /></> : <Badge tone="warning">no provider</Badge>}
                </li>
              ))}
            </ul>
          ) : (
            <span className="muted">none</span>
          )}
        </dd>
        <dt>Blast radius</dt>
        <dd data-testid="relation-blast-radius" title="Components that depend on this one, directly or through others (spec.dependsOn, or consuming an API it provides)">
          {r.blastRadius === 1 ? "1 component depends on it" : `${r.blastRadius} components depend on it`}, directly or transitively
        </dd>
        <dt>Graph</dt>
        <dd>
          <Link href={`/catalog/${name}/graph`} data-testid="relation-graph-link">
            Dependency graph of {name}
          </Link>{" "}
          <span className="muted">(both ways, 1 to 3 hops)</span>
        </dd>
      </dl>
    </Card>
  );
}

/** Every relation of the catalog that does not resolve (the catalog errors page). */
export function CatalogRelationWarnings({ warnings }: { warnings: readonly RelationWarning[] }) {
  if (!warnings.length) return null;
  return (
    <>
      <h2>Relations that do not resolve</h2>
      <p className="muted">Warnings, not load failures: these records load and show; each names a component or an API that no record has.</p>
      <ul data-testid="catalog-relation-warnings">
        {warnings.map((w) => (
          <li key={`${w.name}-${w.path}`}>
            <Link href={`/catalog/${w.name}`}>{w.name}</Link> (<code>{w.file}</code>) <code>{w.path}</code>: {w.message}
          </li>
        ))}
      </ul>
    </>
  );
}
