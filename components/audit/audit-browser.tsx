"use client";
// The admin's audit page: filters (actor, action, component, target, time), kept in the address, and older
// pages on demand.
import { useInfiniteQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useForm } from "react-hook-form";
import { sentenceResolver } from "@/components/forms/sentences";
import { Alert, Button, Field, Input, Select } from "@/components/ui";
import { describeApiError } from "@/components/http/api-client";
import { AUDIT_ACTIONS } from "@/lib/portal/audit-shapes";
import { fetchAuditPage } from "./api";
import { AuditEntryView } from "./audit-entry";
import { NO_FILTERS, addressOfFilters, auditFilterFormSchema, auditQuery, filtersOfAddress, formOfFilters, type AuditFilterForm, type AuditFilters } from "./audit-filters";
import styles from "./audit.module.css";

const GROUPS = [...new Set(AUDIT_ACTIONS.map((a) => a.split(".")[0]))];
const ALL: AuditFilters = auditFilterFormSchema.parse(NO_FILTERS);
const resolver = sentenceResolver(auditFilterFormSchema, { actor: "Actor", action: "Action", component: "Component", target: "Target", from: "From", to: "To" });

export function AuditBrowser() {
  const router = useRouter();
  const pathname = usePathname();
  const search = useSearchParams()?.toString() ?? "";
  const addressed = useMemo(() => filtersOfAddress(new URLSearchParams(search)), [search]);
  const form = useForm<AuditFilterForm, unknown, AuditFilters>({ resolver, defaultValues: formOfFilters(addressed) });
  const [filters, setFilters] = useState<AuditFilters>(addressed);
  // Back, forward or a followed link: the page shows the filters its address holds (the list at once, the form after).
  const [shownAddress, setShownAddress] = useState(search);
  if (shownAddress !== search) {
    setShownAddress(search);
    setFilters(addressed);
  }
  useEffect(() => {
    form.reset(formOfFilters(addressed));
  }, [addressed, form]);
  // Each filtering is a step of history (pushed, so back returns to the previous filters).
  const apply = (next: AuditFilters) => {
    setFilters(next);
    const qs = addressOfFilters(next);
    router.push(qs ? `${pathname}?${qs}` : pathname, { scroll: false });
  };
  const log = useInfiniteQuery({
    queryKey: ["audit", filters],
    queryFn: ({ pageParam }) => fetchAuditPage(auditQuery(filters, pageParam)),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.nextBefore,
    staleTime: 0,
  });
  const errors = form.formState.errors;
  const entries = log.data?.pages.flatMap((p) => p.entries) ?? [];
  return (
    <div className="stack">
      <form onSubmit={form.handleSubmit(apply)} className={styles.filters} data-testid="audit-filters" noValidate>
        <Field label="Actor" error={errors.actor?.message}>
          {(id) => <Input id={id} placeholder="user id" {...form.register("actor")} />}
        </Field>
        <Field label="Action" error={errors.action?.message}>
          {(id) => (
            <Select id={id} {...form.register("action")}>
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
        <Field label="Component" error={errors.component?.message}>
          {(id) => <Input id={id} {...form.register("component")} />}
        </Field>
        <Field label="Target" error={errors.target?.message}>
          {(id) => <Input id={id} placeholder="name or id" {...form.register("target")} />}
        </Field>
        <Field label="From" error={errors.from?.message}>
          {(id) => <Input id={id} type="datetime-local" {...form.register("from")} />}
        </Field>
        <Field label="To" error={errors.to?.message}>
          {(id) => <Input id={id} type="datetime-local" {...form.register("to")} />}
        </Field>
        <Button type="submit" variant="primary">
          Filter
        </Button>
        <Button
          onClick={() => {
            form.reset(NO_FILTERS);
            apply(ALL);
          }}
        >
          Clear
        </Button>
      </form>
      {log.isError ? <Alert tone="error">{describeApiError(log.error)}</Alert> : null}
      {log.isPending ? <p className="muted">Loading…</p> : null}
      {!log.isPending && entries.length === 0 ? <p className="muted">No entries match.</p> : null}
      <ol className={styles.log} data-testid="audit-list">
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
