// An owner's page: the components a user or group owns, the open merge requests on them, and the app orders
// waiting for a lead. Scorecard levels have their slot (`levels`, `rollup`): the page shows them when given.
import type { ReactNode } from "react";
import { Badge, Card, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui";
import { Link } from "@/components/ui/link";
import type { OwnerAnswer } from "@/lib/portal/contracts/owners";
import { ownerHref } from "./owner-href";

export interface OwnerViewProps {
  answer: OwnerAnswer;
  /** The caller's own page: their groups are known and listed. */
  self: boolean;
  /** A scorecard level per component name: adds a Level column. */
  levels?: ReadonlyMap<string, ReactNode>;
  /** The owner's scorecard rollup, shown above their components. */
  rollup?: ReactNode;
  /** A group's scorecard per day, shown below its components. */
  trend?: ReactNode;
}

function what(a: OwnerAnswer): string {
  if (a.asUser && a.asGroup) return "user and group";
  return a.asGroup ? "group" : "user";
}

export function OwnerView({ answer: a, self, levels, rollup, trend }: OwnerViewProps) {
  const { items, total } = a.components;
  return (
    <div className="stack">
      <h1>
        {a.owner} <Badge>{what(a)}</Badge>
      </h1>
      {self && a.groups ? (
        <p className="muted" data-testid="owner-groups">
          {a.groups.length ? (
            <>
              Your groups:{" "}
              {a.groups.map((g, i) => (
                <span key={g}>
                  {i ? ", " : null}
                  <Link href={ownerHref(g)}>{g}</Link>
                </span>
              ))}
              . Their components are listed with yours.
            </>
          ) : (
            "You belong to no group the portal knows of."
          )}
        </p>
      ) : a.asUser ? (
        <p className="muted">Components whose records name {a.owner}; the portal knows a user&apos;s groups only on their own page.</p>
      ) : null}
      <Card title={`Components (${total})`}>
        {rollup}
        {items.length ? (
          <Table label={`Components owned by ${a.owner}`} data-testid="owner-components">
            <TableHeader>
              <TableRow>
                <TableHead>Component</TableHead>
                <TableHead>Kind</TableHead>
                <TableHead>Owned</TableHead>
                {levels ? <TableHead>Level</TableHead> : null}
              </TableRow>
            </TableHeader>
            <TableBody>
              {items.map((c) => (
                <TableRow key={c.name} data-name={c.name}>
                  <TableCell>
                    <Link href={`/catalog/${c.name}`}>{c.displayName}</Link>
                    <div className="muted">
                      {c.name}
                      {c.lifecycle ? ` · ${c.lifecycle}` : ""}
                    </div>
                  </TableCell>
                  <TableCell>
                    <Badge tone="accent">{c.kind}</Badge>
                  </TableCell>
                  <TableCell>
                    {c.direct ? "named" : null}
                    {c.viaGroups.map((g, i) => (
                      <span key={g}>
                        {c.direct || i ? ", " : null}
                        through <Link href={ownerHref(g)}>{g}</Link>
                      </span>
                    ))}
                  </TableCell>
                  {levels ? <TableCell>{levels.get(c.name) ?? <span className="muted">none</span>}</TableCell> : null}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : (
          <p className="muted">No component of the catalog names {self ? "you or your groups" : a.owner} as an owner.</p>
        )}
        {total > items.length ? <p className="muted">The first {items.length} of {total} are listed; the catalog filters by owner and group for the rest.</p> : null}
      </Card>
      {trend}
      <Card title={`Open reviews to decide (${a.reviews.length})`}>
        {a.reviews.length ? (
          <ul data-testid="owner-reviews">
            {a.reviews.map((r) => (
              <li key={r.iid}>
                <Link href={`/reviews/${r.iid}`}>
                  !{r.iid} {r.title}
                </Link>{" "}
                <span className="muted">
                  on {r.scope.kind === "component" ? r.scope.component : "the config"}, by {r.author}, opened {r.createdAt.slice(0, 10)}
                </span>
                {r.hasConflicts ? (
                  <>
                    {" "}
                    <Badge tone="warning">conflicts</Badge>
                  </>
                ) : null}
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">No merge request is open on these components.</p>
        )}
      </Card>
      <Card title="App orders">
        {a.orders.mayDecide ? (
          a.orders.toDecide.length ? (
            <>
              <p>
                {a.orders.toDecide.length === 1 ? "1 order waits" : `${a.orders.toDecide.length} orders wait`} for a lead: <Link href="/app-orders/queue">decide them in the queue</Link>.
              </p>
              <ul data-testid="owner-orders-to-decide">
                {a.orders.toDecide.map((o) => (
                  <li key={o.id}>
                    {o.displayName} (<code>{o.name}</code>, {o.kind}) <span className="muted">ordered by {o.requester}</span>
                  </li>
                ))}
              </ul>
            </>
          ) : (
            <p className="muted">No app order waits for a lead.</p>
          )
        ) : (
          <p className="muted">{a.owner} does not decide app orders (leads do).</p>
        )}
        {a.orders.requested.length ? (
          <>
            <p>Ordered by {a.owner}, waiting for a lead:</p>
            <ul data-testid="owner-orders-requested">
              {a.orders.requested.map((o) => (
                <li key={o.id}>
                  {o.displayName} (<code>{o.name}</code>, {o.kind}) <span className="muted">since {o.createdAt.slice(0, 10)}</span>
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </Card>
    </div>
  );
}
