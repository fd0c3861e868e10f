"use client";
// Step 2 of the import wizard: the owner's repositories (search, checkboxes; those already in the
// catalog are marked and cannot be picked). The picks live in the wizard's form and survive a search.
import { Link } from "@/components/ui/link";
import { useState } from "react";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useFormContext, useWatch } from "react-hook-form";
import { Alert, Badge, Button, Card, FieldError, Input } from "@/components/ui";
import { describeApiError } from "@/components/http/api-client";
import { fetchRepositories } from "../api";
import type { ImportForm } from "./import-form";
import { useDebounced } from "@/components/hooks/use-debounced";
import styles from "../gitops.module.css";

export function RepositoriesStep({ owner, onBack, onNext }: { owner: string; onBack: () => void; onNext: () => void }) {
  const { control, setValue, formState } = useFormContext<ImportForm>();
  const picked = useWatch({ control, name: "repositories" });
  const [search, setSearch] = useState("");
  const term = useDebounced(search.trim(), 250);
  const repos = useInfiniteQuery({
    queryKey: ["import", "repositories", owner, term],
    queryFn: ({ pageParam, signal }) => fetchRepositories({ owner, search: term || undefined, page: pageParam }, signal),
    initialPageParam: 1,
    getNextPageParam: (last) => last.nextPage ?? undefined,
  });
  const items = repos.data?.pages.flatMap((p) => p.items) ?? [];
  const pickable = items.filter((r) => !r.inCatalog);
  const paths = picked.map((p) => p.path);
  const pick = (next: string[]) =>
    setValue(
      "repositories",
      [...new Set(next)].map((path) => picked.find((p) => p.path === path) ?? { path, kind: "" }),
      { shouldValidate: formState.isSubmitted || formState.errors.repositories !== undefined },
    );
  return (
    <Card title={`Repositories of ${owner}`}>
      <div className="stack">
        <Input type="search" aria-label="Search repositories" placeholder="Search repositories" value={search} onChange={(e) => setSearch(e.target.value)} data-testid="repository-search" />
        {repos.isPending ? <p className="muted">Loading repositories…</p> : null}
        {repos.isError ? <Alert tone="error">The repositories cannot be listed: {describeApiError(repos.error)}</Alert> : null}
        {repos.data && items.length === 0 ? <p className="muted">No repositories{term ? ` match “${term}”` : ""}.</p> : null}
        {items.length > 0 ? (
          <>
            <div className="row">
              <Button size="small" variant="ghost" onClick={() => pick([...paths, ...pickable.map((r) => r.path)])} disabled={pickable.length === 0}>
                Select all shown
              </Button>
              <Button size="small" variant="ghost" onClick={() => pick([])} disabled={paths.length === 0}>
                Clear
              </Button>
            </div>
            <ul className={styles.repoList} data-testid="repository-list">
              {items.map((r) => (
                <li key={r.path} className={r.inCatalog ? styles.disabled : undefined} data-testid={`repo-${r.path}`}>
                  <label>
                    <input
                      type="checkbox"
                      checked={!r.inCatalog && paths.includes(r.path)}
                      disabled={!!r.inCatalog}
                      onChange={(e) => pick(e.target.checked ? [...paths, r.path] : paths.filter((p) => p !== r.path))}
                      aria-label={r.path}
                    />
                    <span className={styles.lines}>
                      <span>
                        <code>{r.path}</code>{" "}
                        {r.inCatalog ? (
                          <Badge tone="success" title="Already in the catalog">
                            in catalog
                          </Badge>
                        ) : null}
                      </span>
                      {r.description ? <span className="muted">{r.description}</span> : null}
                    </span>
                  </label>
                  {r.inCatalog ? <Link href={`/catalog/${r.inCatalog}`}>{r.inCatalog}</Link> : null}
                </li>
              ))}
            </ul>
            {repos.hasNextPage ? (
              <div>
                <Button size="small" onClick={() => void repos.fetchNextPage()} disabled={repos.isFetchingNextPage}>
                  {repos.isFetchingNextPage ? "Loading…" : "Load more"}
                </Button>
              </div>
            ) : null}
          </>
        ) : null}
        <FieldError>{formState.errors.repositories?.message ?? formState.errors.repositories?.root?.message}</FieldError>
        <div className="row">
          <Button variant="ghost" onClick={onBack}>
            Back
          </Button>
          <Button variant="primary" disabled={paths.length === 0} onClick={onNext} data-testid="review-import">
            Review {paths.length || ""} {paths.length === 1 ? "repository" : "repositories"}
          </Button>
        </div>
      </div>
    </Card>
  );
}
