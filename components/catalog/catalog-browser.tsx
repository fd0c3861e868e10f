"use client";
// The catalog list: search (`/` focuses it), filter chips with counts, sort, favorites toggle, and
// server-side paging, so the browser only ever holds one page even at 10,000 records.
import { Link } from "@/components/ui/link";
import { useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useRouter } from "next/navigation";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Alert, Badge, Button, Select } from "@/components/ui";
import type { ComponentList as ListResult } from "./api";
import styles from "./catalog.module.css";
import { describeApiError } from "@/components/http/api-client";
import { fetchList } from "./api";
import { ChipRow } from "./chip-row";
import { StarButton } from "./star-button";
import { ownerHref } from "@/components/owners/owner-href";
import { maxLengthOf, tooLongSentence } from "@/components/forms/sentences";
import { CatalogSearchText } from "@/lib/catalog/query";

export interface CatalogState {
  q: string;
  kind: string[];
  environment: string[];
  dependency: string[];
  /** Scorecard levels (any of); "none" for components below the lowest level. */
  level: string[];
  group: string;
  owner: string;
  favorites: boolean;
  sort: string;
  order: "asc" | "desc";
  page: number;
}

export interface CatalogOptionsProps {
  kinds: readonly string[];
  environments: readonly string[];
  dependencyFlags: readonly string[];
  groups: string[];
  owners: string[];
  /** The scorecard levels in force, lowest first. */
  levels: readonly string[];
  /** Components per level (and "none") over the whole catalog. */
  levelCounts: Record<string, number>;
}

export function stateToParams(s: CatalogState): URLSearchParams {
  const p = new URLSearchParams();
  if (s.q) p.set("q", s.q);
  if (s.kind.length) p.set("kind", s.kind.join(","));
  if (s.environment.length) p.set("environment", s.environment.join(","));
  if (s.dependency.length) p.set("dependency", s.dependency.join(","));
  if (s.level.length) p.set("level", s.level.join(","));
  if (s.group) p.set("group", s.group);
  if (s.owner) p.set("owner", s.owner);
  if (s.favorites) p.set("favorites", "1");
  if (s.sort !== "name") p.set("sort", s.sort);
  if (s.order !== "asc") p.set("order", s.order);
  if (s.page > 1) p.set("page", String(s.page));
  return p;
}

const PAGE_SIZE = 25;

function toggle(list: string[], value: string): string[] {
  return list.includes(value) ? list.filter((v) => v !== value) : [...list, value];
}

const SEARCH_MAX = maxLengthOf(CatalogSearchText);

/** `actions`: what the page offers on the whole catalog (an operator's refresh), shown under the heading. */
export function CatalogBrowser({ initialState, initialData, options, actions }: { initialState: CatalogState; initialData: ListResult; options: CatalogOptionsProps; actions?: ReactNode }) {
  const [state, setState] = useState<CatalogState>(initialState);
  const [typed, setTyped] = useState(initialState.q);
  const searchRef = useRef<HTMLInputElement>(null);
  const initialKey = useMemo(() => stateToParams(initialState).toString(), [initialState]);
  const params = stateToParams(state);
  params.set("pageSize", String(PAGE_SIZE));
  const key = stateToParams(state).toString();

  const query = useQuery({
    queryKey: ["catalog", "list", key],
    queryFn: ({ signal }) => fetchList(params.toString(), signal),
    placeholderData: keepPreviousData,
    initialData: key === initialKey ? initialData : undefined,
    staleTime: 5_000,
  });
  const data = query.data ?? initialData;

  // Debounce typing into the search: one request per pause, not per key. A search past the limit the
  // server enforces is not sent: the field says the limit, and the list stays as it was.
  const searchTooLong = typed.trim().length > SEARCH_MAX ? tooLongSentence("The search", SEARCH_MAX, typed.trim().length) : undefined;
  useEffect(() => {
    if (searchTooLong) return;
    const t = setTimeout(() => {
      setState((s) => (s.q === typed.trim() ? s : { ...s, q: typed.trim(), page: 1 }));
    }, 150);
    return () => clearTimeout(t);
  }, [typed, searchTooLong]);

  // The address holds the search and filters, through Next's router (not history.replaceState behind its
  // back): Back from a component then returns to this list as it was left. replace, not push: typing and
  // toggling chips adds no history entries.
  const router = useRouter();
  useEffect(() => {
    const qs = stateToParams(state).toString();
    if (qs === window.location.search.replace(/^\?/, "")) return;
    router.replace(qs ? `${window.location.pathname}?${qs}` : window.location.pathname, { scroll: false });
  }, [state, router]);

  // "/" focuses the search box (unless the user is typing somewhere).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "/" || e.metaKey || e.ctrlKey || e.altKey) return;
      const el = e.target as HTMLElement | null;
      if (el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT" || el.isContentEditable)) return;
      e.preventDefault();
      searchRef.current?.focus();
      searchRef.current?.select();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const update = (patch: Partial<CatalogState>) => setState((s) => ({ ...s, page: 1, ...patch }));
  const counts = data.counts;
  // A search is not a filter: "try fewer filters" is said only when some are set.
  const filtered = Boolean(state.kind.length || state.environment.length || state.dependency.length || state.level.length || state.group || state.owner || state.favorites);
  const anyFilter = Boolean(state.q) || filtered;

  return (
    <div className="stack">
      <div className={`row ${styles.pageHead}`}>
        <h1 className={styles.flush}>Catalog</h1>
        <span className="muted" data-testid="catalog-counts">
          {counts.matching === counts.all ? `${counts.all} components` : `${counts.matching} of ${counts.all} components`}
          {counts.stale ? ` · ${counts.stale} stale` : ""}
        </span>
      </div>
      {actions}

      {counts.errors > 0 ? (
        <Alert tone="warning" data-testid="catalog-error-banner">
          {counts.errors === 1 ? "1 file" : `${counts.errors} files`} of the config repository failed to load.{" "}
          <Link href="/catalog/errors">See which, and why</Link>
        </Alert>
      ) : null}

      <div className={styles.toolbar}>
        <input
          ref={searchRef}
          className={`ui-input ${styles.search}`}
          type="search"
          // Short enough to show whole in a phone's search box; the label names what is searched.
          placeholder="Search name, repo, owner  (press /)"
          aria-label="Search components by name, display name, repository or owner"
          aria-keyshortcuts="/"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          data-testid="catalog-search"
          aria-invalid={searchTooLong ? true : undefined}
          aria-describedby={searchTooLong ? "catalog-search-error" : undefined}
        />
        <Button aria-pressed={state.favorites} variant={state.favorites ? "primary" : "default"} onClick={() => update({ favorites: !state.favorites })} data-testid="favorites-toggle">
          ★ Favorites <span className={styles.count}>{counts.favorites}</span>
        </Button>
        <label className="row">
          <span className="muted">Sort</span>
          <Select className={styles.inlineSelect} value={state.sort} onChange={(e) => update({ sort: e.target.value })} aria-label="Sort by">
            <option value="name">Name</option>
            <option value="displayName">Display name</option>
            <option value="kind">Kind</option>
            <option value="repo">Repository</option>
            <option value="level">Scorecard level</option>
          </Select>
        </label>
        <Button size="small" onClick={() => update({ order: state.order === "asc" ? "desc" : "asc" })} aria-label={state.order === "asc" ? "Ascending; switch to descending" : "Descending; switch to ascending"}>
          {state.order === "asc" ? "↑" : "↓"}
        </Button>
        {anyFilter ? (
          <Button
            variant="ghost"
            size="small"
            onClick={() => {
              setTyped("");
              setState({ ...state, q: "", kind: [], environment: [], dependency: [], level: [], group: "", owner: "", favorites: false, page: 1 });
            }}
          >
            Clear
          </Button>
        ) : null}
      </div>
      {searchTooLong ? (
        <p className="ui-field__error" role="alert" id="catalog-search-error" data-testid="catalog-search-error">
          {searchTooLong}
        </p>
      ) : null}

      <div className={styles.filters}>
        <ChipRow label="Kind" name="kind" values={options.kinds} selected={state.kind} counts={counts.kind} onToggle={(v) => update({ kind: toggle(state.kind, v) })} />
        <ChipRow label="Environment" name="environment" values={[...options.environments, "none"]} selected={state.environment} counts={counts.environment} onToggle={(v) => update({ environment: toggle(state.environment, v) })} />
        <ChipRow label="Dependency" name="dependency" values={options.dependencyFlags} selected={state.dependency} counts={counts.dependency} onToggle={(v) => update({ dependency: toggle(state.dependency, v) })} />
        <ChipRow label="Level" name="level" values={[...options.levels, "none"]} selected={state.level} counts={options.levelCounts} onToggle={(v) => update({ level: toggle(state.level, v) })} />
        <div className={styles.chips}>
          <span className={styles.chipLabel}>Owner</span>
          <Select className={styles.inlineSelect} value={state.group} onChange={(e) => update({ group: e.target.value })} aria-label="Group">
            <option value="">Any group</option>
            {options.groups.map((g) => (
              <option key={g} value={g}>
                {g} ({counts.group[g.toLowerCase()] ?? 0})
              </option>
            ))}
          </Select>
          <Select className={styles.inlineSelect} value={state.owner} onChange={(e) => update({ owner: e.target.value })} aria-label="Owner">
            <option value="">Any owner</option>
            {options.owners.map((o) => (
              <option key={o} value={o}>
                {o} ({counts.owner[o.toLowerCase()] ?? 0})
              </option>
            ))}
          </Select>
        </div>
      </div>

      {data.items.length === 0 ? (
        <p className="muted" data-testid="catalog-empty">
          No component matches{state.q ? ` “${state.q}”` : ""}. {filtered ? "Try fewer filters." : state.q ? "Try another search." : ""}
        </p>
      ) : (
        // A table with column headers, so screen readers announce what each cell is.
        <table className={`${styles.list} ${query.isFetching && query.isPlaceholderData ? styles.busy : ""}`} data-testid="catalog-list" aria-busy={query.isFetching}>
          <thead>
            <tr className={styles.item}>
              <th scope="col">
                <span className="visually-hidden">Favorite</span>
              </th>
              <th scope="col">Component</th>
              <th scope="col">Kind</th>
              <th scope="col">Repository and owners</th>
              <th scope="col">Environments</th>
              <th scope="col">Level</th>
            </tr>
          </thead>
          <tbody>
            {data.items.map((item) => {
              const c = item.component;
              return (
                <tr key={item.name} className={styles.item} data-testid={`row-${item.name}`}>
                  <td>
                    <StarButton key={`${item.name}-${item.favorite}`} name={item.name} initial={item.favorite} />
                  </td>
                  <td className={styles.name}>
                    <Link href={`/catalog/${item.name}`} data-testid={`link-${item.name}`}>
                      {c.metadata.displayName}
                    </Link>
                    <span className={styles.sub}>
                      {item.name}
                      {item.stale ? (
                        <>
                          {" "}
                          <Badge tone="warning" title="The file no longer loads; showing its last valid version">
                            stale
                          </Badge>
                        </>
                      ) : null}
                    </span>
                  </td>
                  <td>
                    <Badge tone="accent">{c.spec.kind}</Badge>
                  </td>
                  <td className={styles.sub}>
                    <div>{c.spec.repo.path}</div>
                    <div>
                      {c.spec.owners.map((o, i) => (
                        <span key={`${o.user}-${i}`}>
                          {i ? ", " : null}
                          <Link href={ownerHref(o.user)}>{o.user}</Link>
                        </span>
                      ))}
                    </div>
                  </td>
                  <td>
                    <div className={styles.environmentBadges}>
                      {c.spec.environments.length ? c.spec.environments.map((e) => <Badge key={e}>{e}</Badge>) : <span className={styles.sub}>no environments</span>}
                    </div>
                  </td>
                  <td data-testid={`level-${item.name}`}>{item.level ? <Badge tone="accent">{item.level}</Badge> : <span className={styles.sub}>no level</span>}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}

      <div className={styles.pager}>
        <span className="muted" data-testid="catalog-page">
          Page {data.page} of {data.pages}
        </span>
        <div className="row">
          <Button size="small" disabled={state.page <= 1} onClick={() => setState((s) => ({ ...s, page: s.page - 1 }))}>
            ← Previous
          </Button>
          <Button size="small" disabled={data.page >= data.pages} onClick={() => setState((s) => ({ ...s, page: s.page + 1 }))}>
            Next →
          </Button>
        </div>
      </div>
      {query.isError ? <Alert tone="error">Could not load the catalog: {describeApiError(query.error)}</Alert> : null}
    </div>
  );
}
