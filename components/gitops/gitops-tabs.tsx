"use client";
// The GitOps tabs of a component page: Config, Releases, Merge requests. The server checks every
// role; this only hides what the signed-in user's role cannot do (canOperate = operator or admin).
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { fetchMergeRequests, gitopsKeys } from "./api";
import { ConfigTab } from "./config-tab";
import { ReleasesTab } from "./releases-tab";
import { MergeRequestsTab } from "./merge-requests-tab";
import styles from "./gitops.module.css";

export interface GitOpsTabsProps {
  name: string;
  repository: string;
  environments: string[];
  canOperate: boolean;
}

type TabId = "config" | "releases" | "merge-requests";

const TABS: Array<{ id: TabId; label: string }> = [
  { id: "config", label: "Config" },
  { id: "releases", label: "Releases" },
  { id: "merge-requests", label: "Merge requests" },
];

export function GitOpsTabs(props: GitOpsTabsProps) {
  const [tab, setTab] = useState<TabId>("config");
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
