"use client";
// The admin's audit page: filters (actor, action, component, target, time) and older pages on demand.
import { useInfiniteQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Alert, Button, Field, Input, Select } from "@/components/ui";
import { AUDIT_ACTIONS, type AuditPage } from "@/lib/portal/audit-model";
import { AuditEntryView } from "./audit-entry";

interface Filters {
  actor: string;
  action: string;
  component: string;
  target: string;
  from: string;
  to: string;
}

const EMPTY: Filters = { actor: "", action: "", component: "", target: "", from: "", to: "" };
const GROUPS = [...new Set(AUDIT_ACTIONS.map((a) => a.split(".")[0]))];

function queryOf(f: Filters, before: number | null): string {
  const q = new URLSearchParams({ limit: "50" });
  for (const key of ["actor", "action", "component", "target"] as const) if (f[key].trim()) q.set(key, f[key].trim());
  if (f.from) q.set("from", new Date(f.from).toISOString());
  if (f.to) q.set("to", new Date(f.to).toISOString());
  if (before) q.set("before", String(before));
  return q.toString();
}

async function fetchPage(query: string): Promise<AuditPage> {
  const res = await fetch(`/api/audit?${query}`, { headers: { Accept: "application/json" } });
  const body = (await res.json().catch(() => ({}))) as AuditPage & { message?: string };
  if (!res.ok) throw new Error(body.message ?? `HTTP ${res.status}`);
  return body;
}

export function AuditBrowser() {
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const log = useInfiniteQuery({
    queryKey: ["audit", filters],
    queryFn: ({ pageParam }) => fetchPage(queryOf(filters, pageParam)),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.nextBefore,
    staleTime: 0,
  });
  const apply = (e: FormEvent) => {
    e.preventDefault();
    setFilters(draft);
  };
  const set = (key: keyof Filters) => (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [key]: e.target.value }));
  const entries = log.data?.pages.flatMap((p) => p.entries) ?? [];
  return (
    <div className="stack">
      <form onSubmit={apply} className="row" style={{ flexWrap: "wrap", alignItems: "end", gap: "0.75rem" }} data-testid="audit-filters">
        <Field label="Actor">{(id) => <Input id={id} value={draft.actor} onChange={set("actor")} placeholder="user id" />}</Field>
        <Field label="Action">
          {(id) => (
            <Select id={id} value={draft.action} onChange={set("action")}>
              <option value="">any</option>
              {GROUPS.map((g) => (
                <optgroup key={g} label={g}>
                  <option value={g}>every {g} action</option>
                  {AUDIT_ACTIONS.filter((a) => a.startsWith(`${g}.`)).map((a) => (
                    <option key={a} value={a}>
                      {a}
                    </option>
                  ))}
                </optgroup>
              ))}
            </Select>
          )}
        </Field>
        <Field label="Component">{(id) => <Input id={id} value={draft.component} onChange={set("component")} />}</Field>
        <Field label="Target">{(id) => <Input id={id} value={draft.target} onChange={set("target")} placeholder="name or id" />}</Field>
        <Field label="From">{(id) => <Input id={id} type="datetime-local" value={draft.from} onChange={set("from")} />}</Field>
        <Field label="To">{(id) => <Input id={id} type="datetime-local" value={draft.to} onChange={set("to")} />}</Field>
        <Button type="submit" variant="primary">
          Filter
        </Button>
        <Button
          onClick={() => {
            setDraft(EMPTY);
            setFilters(EMPTY);
          }}
        >
          Clear
        </Button>
      </form>
      {log.isError ? <Alert tone="error">{log.error.message}</Alert> : null}
      {log.isPending ? <p className="muted">Loading…</p> : null}
      {!log.isPending && entries.length === 0 ? <p className="muted">No entries match.</p> : null}
      <ol style={{ listStyle: "none", padding: 0, margin: 0, display: "grid", gap: "0.9rem" }} data-testid="audit-list">
        {entries.map((e) => (
          <li key={e.id}>
            <AuditEntryView entry={e} />
          </li>
        ))}
      </ol>
      {log.hasNextPage ? (
        <div>
          <Button onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage}>
            {log.isFetchingNextPage ? "Loading…" : "Older entries"}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
