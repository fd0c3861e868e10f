"use client";
// The GitOps tabs of a component page: Config, Releases, Merge requests. The server checks every
// role; this only hides what the signed-in user's role cannot do (canOperate = operator or admin).
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { fetchMergeRequests, gitopsKeys } from "./api";
import { ConfigTab } from "./config/config-tab";
import { ReleasesTab } from "./releases/releases-tab";
import { MergeRequestsTab } from "./merge-requests-tab";
import type { GitOpsTabId } from "./tab-ids";
import styles from "./gitops.module.css";

export interface GitOpsTabsProps {
  name: string;
  repository: string;
  environments: string[];
  canOperate: boolean;
  /** Operators and the component's owners commit config; others propose it. */
  canCommit: boolean;
  /** The tab named by the page's `?tab=` (links and reloads open it). */
  initialTab?: GitOpsTabId;
}

const TABS: Array<{ id: GitOpsTabId; label: string }> = [
  { id: "config", label: "Config" },
  { id: "releases", label: "Releases" },
  { id: "merge-requests", label: "Merge requests" },
];

export function GitOpsTabs({ initialTab = "config", ...props }: GitOpsTabsProps) {
  const [tab, setSelected] = useState<GitOpsTabId>(initialTab);
  // The open tab is kept in the address (?tab=…), so a link or a reload opens it again.
  const setTab = (next: GitOpsTabId) => {
    setSelected(next);
    const url = new URL(window.location.href);
    if (next === "config") url.searchParams.delete("tab");
    else url.searchParams.set("tab", next);
    // A null state: Next.js then adopts the new address as its own (it would restore the old one on refresh otherwise).
    window.history.replaceState(null, "", url);
  };
  const mrs = useQuery({ queryKey: gitopsKeys.mergeRequests(props.name), queryFn: ({ signal }) => fetchMergeRequests(props.name, signal) });
  const mrCount = mrs.data?.mergeRequests.length;
  return (
    <section data-testid="gitops-tabs" aria-label="GitOps">
      <div className={styles.tabs} role="tablist">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`gitops-tab-${t.id}`}
            aria-controls={`gitops-panel-${t.id}`}
            aria-selected={tab === t.id}
            className={styles.tab}
            onClick={() => setTab(t.id)}
            data-testid={`tab-${t.id}`}
          >
            {t.label}
            {t.id === "merge-requests" && mrCount ? <span className={styles.count}>{mrCount}</span> : null}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`gitops-panel-${tab}`} aria-labelledby={`gitops-tab-${tab}`}>
        {tab === "config" ? <ConfigTab {...props} onShowMergeRequests={() => setTab("merge-requests")} /> : null}
        {tab === "releases" ? <ReleasesTab {...props} /> : null}
        {tab === "merge-requests" ? <MergeRequestsTab name={props.name} repository={props.repository} /> : null}
      </div>
    </section>
  );
}
