// The GitOps tabs of a component page, named in its address (?tab=…). Not in gitops-tabs.tsx: a
// server page reading this list must get the values, not a client reference.
export const GITOPS_TABS = ["config", "releases", "merge-requests"] as const;
export type GitOpsTabId = (typeof GITOPS_TABS)[number];
