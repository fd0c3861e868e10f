"use client";
// The import wizard: owner → repositories (search, checkboxes; those already in the catalog are marked
// and cannot be picked) → review of the inferred records (kind editable; each repository inferred with
// a dry run of its own, so progress shows per repository) → import (one commit for operators, one
// merge request for everyone else) with a result per repository and a link to the entry or the MR.
import Link from "next/link";
import { useEffect, useState } from "react";
import { useInfiniteQuery, useMutation, useQueries, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Card } from "@/components/ui/card";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/input";
import { COMPONENT_KINDS, type ComponentKind } from "@/lib/catalog/schema";
import { describeError, fetchOwners, fetchRepositories, importComponents, type ImportAnswer, type ImportRequest, type ImportResult } from "./api";
import styles from "./gitops.module.css";

type Step = "owner" | "repositories" | "review" | "import";
const STEPS: Array<{ id: Step; label: string }> = [
  { id: "owner", label: "1. Owner" },
  { id: "repositories", label: "2. Repositories" },
  { id: "review", label: "3. Review" },
  { id: "import", label: "4. Import" },
];

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const id = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(id);
  }, [value, ms]);
  return debounced;
}

export function ImportWizard({ canOperate }: { canOperate: boolean }) {
  const [step, setStep] = useState<Step>("owner");
  const [owner, setOwner] = useState<string | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const [kinds, setKinds] = useState<Record<string, ComponentKind>>({});
  const queryClient = useQueryClient();
  // Started by the review step's button (not by an effect: an import must never run twice).
  const run = useMutation({
    mutationFn: (requests: Array<string | ImportRequest>) => importComponents(requests),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ["import"] });
      await queryClient.invalidateQueries({ queryKey: ["catalog"] });
    },
  });

  return (
    <div className="stack" data-testid="import-wizard">
      <ol className={styles.steps} aria-label="Steps">
        {STEPS.map((s) => (
          <li key={s.id} aria-current={s.id === step ? "step" : undefined}>
            {s.label}
          </li>
        ))}
      </ol>
      <p className="muted" style={{ margin: 0 }}>
        {canOperate
          ? "As an operator, the imported records are committed to the config repository and show in the catalog at once."
          : "The imported records are proposed as one merge request in the config repository; they show in the catalog once it is merged."}
      </p>
      {step === "owner" ? (
        <OwnerStep
          owner={owner}
          onPick={(o) => {
            if (o !== owner) setSelected([]);
            setOwner(o);
            setStep("repositories");
          }}
        />
      ) : null}
      {step === "repositories" && owner ? (
        <RepositoriesStep owner={owner} selected={selected} onSelected={setSelected} onBack={() => setStep("owner")} onNext={() => setStep("review")} />
      ) : null}
      {step === "review" ? (
        <ReviewStep
          repositories={selected}
          kinds={kinds}
          onKind={(path, kind) => setKinds((k) => ({ ...k, [path]: kind }))}
          onBack={() => setStep("repositories")}
          onImport={() => {
            run.mutate(selected.map((path) => (kinds[path] ? { path, kind: kinds[path] } : path)));
            setStep("import");
          }}
        />
      ) : null}
      {step === "import" ? (
        <ImportStep
          repositories={selected}
          running={run.isPending}
          answer={run.data}
          error={run.isError ? run.error : null}
          onRetry={() => run.variables && run.mutate(run.variables)}
          onRestart={() => {
            run.reset();
            setSelected([]);
            setKinds({});
            setStep("owner");
          }}
        />
      ) : null}
    </div>
  );
}

function OwnerStep({ owner, onPick }: { owner: string | null; onPick: (owner: string) => void }) {
  const owners = useQuery({ queryKey: ["import", "owners"], queryFn: ({ signal }) => fetchOwners(signal) });
  return (
    <Card title="Whose repositories?">
      {owners.isPending ? <p className="muted">Loading owners…</p> : null}
      {owners.isError ? <Alert tone="error">The owners cannot be listed: {describeError(owners.error)}</Alert> : null}
      {owners.data ? (
        owners.data.owners.length === 0 ? (
          <p className="muted">Source control lists no groups or users.</p>
        ) : (
          <div className={styles.switcher} role="group" aria-label="Owner">
            {owners.data.owners.map((o) => (
              <button key={o.path} type="button" className={styles.pill} aria-pressed={o.path === owner} onClick={() => onPick(o.path)} data-testid={`owner-${o.path}`}>
                {o.path} <span className="muted">{o.kind}</span>
              </button>
            ))}
          </div>
        )
      ) : null}
    </Card>
  );
}

function RepositoriesStep({ owner, selected, onSelected, onBack, onNext }: { owner: string; selected: string[]; onSelected: (s: string[]) => void; onBack: () => void; onNext: () => void }) {
  const [search, setSearch] = useState("");
  const term = useDebounced(search.trim(), 250);
  const repos = useInfiniteQuery({
    queryKey: ["import", "repositories", owner, term],
    queryFn: ({ pageParam, signal }) => fetchRepositories({ owner, search: term || undefined, page: pageParam }, signal),
    initialPageParam: 1,
    getNextPageParam: (last) => last.nextPage ?? undefined,
  });
  const items = repos.data?.pages.flatMap((p) => p.items) ?? [];
  const toggle = (path: string, on: boolean) => onSelected(on ? [...new Set([...selected, path])] : selected.filter((p) => p !== path));
  const pickable = items.filter((r) => !r.inCatalog);
  return (
    <Card title={`Repositories of ${owner}`}>
      <div className="stack">
        <Input type="search" aria-label="Search repositories" placeholder="Search repositories" value={search} onChange={(e) => setSearch(e.target.value)} data-testid="repository-search" />
        {repos.isPending ? <p className="muted">Loading repositories…</p> : null}
        {repos.isError ? <Alert tone="error">The repositories cannot be listed: {describeError(repos.error)}</Alert> : null}
        {repos.data && items.length === 0 ? <p className="muted">No repositories{term ? ` match “${term}”` : ""}.</p> : null}
        {items.length > 0 ? (
          <>
            <div className="row">
              <Button size="small" variant="ghost" onClick={() => onSelected([...new Set([...selected, ...pickable.map((r) => r.path)])])} disabled={pickable.length === 0}>
                Select all shown
              </Button>
              <Button size="small" variant="ghost" onClick={() => onSelected([])} disabled={selected.length === 0}>
                Clear
              </Button>
            </div>
            <ul className={styles.repoList} data-testid="repository-list">
              {items.map((r) => (
                <li key={r.path} className={r.inCatalog ? styles.disabled : undefined} data-testid={`repo-${r.path}`}>
                  <label>
                    <input type="checkbox" checked={!r.inCatalog && selected.includes(r.path)} disabled={!!r.inCatalog} onChange={(e) => toggle(r.path, e.target.checked)} aria-label={r.path} />
                    <span className="stack" style={{ gap: 2 }}>
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
        <div className="row">
          <Button variant="ghost" onClick={onBack}>
            Back
          </Button>
          <Button variant="primary" disabled={selected.length === 0} onClick={onNext} data-testid="review-import">
            Review {selected.length || ""} {selected.length === 1 ? "repository" : "repositories"}
          </Button>
        </div>
      </div>
    </Card>
  );
}

function RecordSummary({ result }: { result: ImportResult }) {
  const spec = result.component?.spec;
  if (!spec) return null;
  return (
    <div className="stack" style={{ gap: 2 }}>
      <span>
        Owners: {spec.owners.map((o) => (o.group ? `${o.user} (${o.group})` : o.user)).join(", ")}
      </span>
      <span>Environments: {spec.environments.length ? spec.environments.join(", ") : <span className="muted">none</span>}</span>
      {result.reasons.length ? (
        <ul className={styles.reasons}>
          {result.reasons.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function Working({ text }: { text: string }) {
  return (
    <span className={styles.progress}>
      <span className={styles.spinner} aria-hidden="true" />
      <span className="muted">{text}</span>
    </span>
  );
}

function ReviewStep({
  repositories,
  kinds,
  onKind,
  onBack,
  onImport,
}: {
  repositories: string[];
  kinds: Record<string, ComponentKind>;
  onKind: (path: string, kind: ComponentKind) => void;
  onBack: () => void;
  onImport: () => void;
}) {
  const previews = useQueries({
    queries: repositories.map((path) => ({
      queryKey: ["import", "preview", path, kinds[path] ?? null],
      queryFn: async () => (await importComponents([kinds[path] ? { path, kind: kinds[path] } : path], true)).results[0],
      staleTime: 60_000,
      retry: false,
    })),
  });
  const done = previews.filter((p) => !p.isPending).length;
  const ready = previews.filter((p) => p.data?.status === "ready").length;
  return (
    <Card title="Review the inferred records">
      <div className="stack">
        <p className="muted" style={{ margin: 0 }}>
          {done < repositories.length ? `Inferring ${done + 1} of ${repositories.length}…` : `${ready} of ${repositories.length} ready to import.`} Pick another kind where the inference is wrong.
        </p>
        <table className="ui-table" data-testid="import-review">
          <thead>
            <tr>
              <th>Repository</th>
              <th>Component</th>
              <th>Kind</th>
              <th>Record</th>
            </tr>
          </thead>
          <tbody>
            {repositories.map((path, i) => {
              const p = previews[i];
              const r = p.data;
              return (
                <tr key={path} data-testid={`review-${path}`}>
                  <td>
                    <code>{path}</code>
                  </td>
                  {p.isPending ? (
                    <td colSpan={3}>
                      <Working text="inferring…" />
                    </td>
                  ) : p.isError ? (
                    <td colSpan={3}>
                      <Alert tone="error">{describeError(p.error)}</Alert>
                    </td>
                  ) : r && r.status === "ready" ? (
                    <>
                      <td>{r.name}</td>
                      <td>
                        <Select aria-label={`Kind of ${path}`} value={r.kind ?? ""} onChange={(e) => onKind(path, e.target.value as ComponentKind)} data-testid={`kind-${path}`}>
                          {COMPONENT_KINDS.map((k) => (
                            <option key={k} value={k}>
                              {k}
                              {k === r.inferredKind ? " (inferred)" : ""}
                            </option>
                          ))}
                        </Select>
                      </td>
                      <td>
                        <RecordSummary result={r} />
                      </td>
                    </>
                  ) : r ? (
                    <td colSpan={3}>
                      {r.status === "exists" ? <Badge tone="success">in catalog</Badge> : <Badge tone="danger">{r.status}</Badge>} {r.message}
                    </td>
                  ) : null}
                </tr>
              );
            })}
          </tbody>
        </table>
        <div className="row">
          <Button variant="ghost" onClick={onBack}>
            Back
          </Button>
          <Button variant="primary" disabled={done < repositories.length || ready === 0} onClick={onImport} data-testid="start-import">
            Import {ready || ""} {ready === 1 ? "repository" : "repositories"}
          </Button>
        </div>
      </div>
    </Card>
  );
}

function ResultCell({ result, answer }: { result: ImportResult; answer: ImportAnswer }) {
  switch (result.status) {
    case "imported":
      return (
        <>
          <Badge tone="success">imported</Badge> <Link href={`/catalog/${result.name}`} data-testid={`open-${result.name}`}>{`Open ${result.name} in the catalog`}</Link>
        </>
      );
    case "proposed":
      return (
        <>
          <Badge tone="accent">proposed</Badge> {result.name}{" "}
          {answer.mergeRequest?.webUrl ? (
            <a href={answer.mergeRequest.webUrl} target="_blank" rel="noreferrer">
              merge request !{answer.mergeRequest.iid}
            </a>
          ) : (
            <>in merge request !{answer.mergeRequest?.iid}</>
          )}
        </>
      );
    case "exists":
      return (
        <>
          <Badge tone="success">in catalog</Badge> {result.name ? <Link href={`/catalog/${result.name}`}>{result.name}</Link> : null}
        </>
      );
    default:
      return (
        <>
          <Badge tone="danger">{result.status}</Badge> {result.message}
        </>
      );
  }
}

function ImportStep({
  repositories,
  running,
  answer,
  error,
  onRetry,
  onRestart,
}: {
  repositories: string[];
  running: boolean;
  answer: ImportAnswer | undefined;
  error: unknown;
  onRetry: () => void;
  onRestart: () => void;
}) {
  const byRepo = new Map((answer?.results ?? []).map((r) => [r.repository, r]));
  return (
    <Card title="Import">
      <div className="stack">
        {error ? (
          <Alert tone="error" data-testid="import-error">
            Nothing was imported: {describeError(error)}{" "}
            <Button size="small" onClick={onRetry}>
              Try again
            </Button>
          </Alert>
        ) : null}
        {answer ? (
          <Alert tone={answer.results.some((r) => r.status === "failed") ? "warning" : "success"} data-testid="import-summary">
            {answer.commit ? (
              <>
                Committed <code>{answer.commit.slice(0, 8)}</code> to the config repository.
              </>
            ) : answer.mergeRequest ? (
              <>
                Merge request <strong>!{answer.mergeRequest.iid}</strong> opened in the config repository (branch <code>{answer.mergeRequest.sourceBranch}</code>).
              </>
            ) : (
              <>Nothing was written.</>
            )}
          </Alert>
        ) : null}
        <table className="ui-table" data-testid="import-results">
          <thead>
            <tr>
              <th>Repository</th>
              <th>Result</th>
            </tr>
          </thead>
          <tbody>
            {repositories.map((path) => {
              const r = byRepo.get(path);
              return (
                <tr key={path} data-testid={`result-${path}`}>
                  <td>
                    <code>{path}</code>
                  </td>
                  <td>{r && answer ? <ResultCell result={r} answer={answer} /> : running ? <Working text="importing…" /> : <span className="muted">—</span>}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <div className="row">
          <Button onClick={onRestart} disabled={running}>
            Import more
          </Button>
          <Link href="/catalog">Go to the catalog</Link>
        </div>
      </div>
    </Card>
  );
}
