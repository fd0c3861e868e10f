"use client";
// Operators re-read the catalog (or one component's file) from the config repository, and are told
// in a sentence what changed; the page's server data is refreshed so it shows the new state at once.
import { useState } from "react";
import { useRouter } from "next/navigation";
import { useQueryClient } from "@tanstack/react-query";
import { Button } from "@/components/ui";
import { apiFetch, describeApiError } from "@/components/http/api-client";
import type { RefreshChanges } from "@/lib/catalog/catalog";

/** What POST /api/cache/refresh answers (the fields this button reads). */
export interface RefreshAnswer {
  components: number;
  errorCount: number;
  changes?: RefreshChanges;
}

/** What POST /api/cache/refresh?name= answers (the fields this button reads). */
export interface RefreshOneAnswer {
  name: string;
  changed?: boolean;
  removed: boolean;
  stale: boolean;
  errors: unknown[];
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The catalog refresh's outcome for people, e.g. "3 records changed, 1 new error". */
export function describeRefresh(answer: RefreshAnswer): string {
  const c = answer.changes;
  if (!c) return `Refreshed: ${count(answer.components, "component")}, ${count(answer.errorCount, "error")}`;
  const parts: string[] = [];
  if (c.changed) parts.push(`${count(c.changed, "record")} changed`);
  if (c.added) parts.push(`${count(c.added, "record")} added`);
  if (c.removed) parts.push(`${count(c.removed, "record")} removed`);
  const errorDelta = c.errorsAfter - c.errorsBefore;
  if (errorDelta > 0) parts.push(`${count(errorDelta, "new error")}`);
  if (errorDelta < 0) parts.push(`${count(-errorDelta, "error")} fixed`);
  if (!parts.length) return "Nothing changed";
  const sentence = parts.join(", ");
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

/** One record's re-read for people, e.g. "Re-read checkout-api: changed". */
export function describeRefreshOne(answer: RefreshOneAnswer): string {
  if (answer.removed) return `Re-read ${answer.name}: its file is gone, the record was removed`;
  const state = answer.changed === false ? "unchanged" : "changed";
  const errors = answer.errors.length ? ` (${count(answer.errors.length, "error")} in its file)` : "";
  return `Re-read ${answer.name}: ${state}${errors}`;
}

/** "Refresh catalog", or with `name` "Refresh this component". The API refuses non-operators; pages show it to operators only. */
export function RefreshCatalogButton({ name }: { name?: string }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const label = name === undefined ? "Refresh catalog" : "Refresh this component";

  const run = async () => {
    setBusy(true);
    setResult(null);
    try {
      const text =
        name === undefined
          ? describeRefresh(await apiFetch<RefreshAnswer>("/api/cache/refresh", { method: "POST" }))
          : describeRefreshOne(await apiFetch<RefreshOneAnswer>(`/api/cache/refresh?name=${encodeURIComponent(name)}`, { method: "POST" }));
      setResult({ ok: true, text });
      // The server-rendered page and any cached lists show the re-read records at once.
      router.refresh();
      await queryClient.invalidateQueries({ queryKey: ["catalog"] });
    } catch (error) {
      setResult({ ok: false, text: describeApiError(error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="row" aria-busy={busy} data-testid={name === undefined ? "refresh-catalog" : "refresh-component"}>
      <Button onClick={run} disabled={busy}>
        {busy ? "Refreshing…" : label}
      </Button>
      <span role="status" className="muted">
        {result?.ok ? result.text : null}
      </span>
      {result && !result.ok ? <span role="alert">{result.text}</span> : null}
    </div>
  );
}
