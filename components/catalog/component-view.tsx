"use client";
// One component: overview (owners, repository, environments, runtime, dependencies, library),
// the favorite star, and for engineers the edit form (edit/component-edit-form.tsx).
import { Link } from "@/components/ui/link";
import { useState } from "react";
import { Alert, Badge, Button, Card, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui";
import { DEPENDENCY_FLAGS, type Component } from "@/lib/catalog/schema";
import type { ComponentStatus } from "@/lib/catalog/status";
import type { ComponentRelations } from "@/lib/catalog/relation-schema";
import { ComponentEditForm } from "./edit/component-edit-form";
import { StarButton } from "./star-button";
import { ownerHref } from "@/components/owners/owner-href";
import { RelationsCard, RelationWarnings } from "./relations-card";
import type { ProposalAnswer } from "./api";
import styles from "./catalog.module.css";

export interface ComponentViewProps {
  name: string;
  file: string;
  component: Component;
  yaml: string;
  etag: string;
  stale: boolean;
  staleReason: string | null;
  favorite: boolean;
  canEdit: boolean;
  /** Operators and the component's owners commit their edits; others propose them. */
  canCommit: boolean;
  /** The repository's page in the configured source control; null when it has none (local repositories). */
  repositoryUrl: string | null;
  status: ComponentStatus;
  /** Its relations in the catalog as the page was answered (the page is answered again after a save). */
  relations: ComponentRelations;
}

export function ComponentView(props: ComponentViewProps) {
  const [current, setCurrent] = useState({ component: props.component, yaml: props.yaml, etag: props.etag, stale: props.stale });
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const [proposed, setProposed] = useState<ProposalAnswer | null>(null);
  const c = current.component;
  const spec = c.spec;
  return (
    <div className="stack">
      <p>
        <Link href="/catalog">← Catalog</Link>
      </p>
      <div className="row">
        <StarButton name={props.name} initial={props.favorite} />
        <h1 className={styles.flush} data-testid="component-title">
          {c.metadata.displayName}
        </h1>
        <Badge tone="accent">{spec.kind}</Badge>
        {spec.lifecycle ? (
          <Badge tone={spec.lifecycle === "deprecated" ? "danger" : spec.lifecycle === "experimental" ? "warning" : "success"} data-testid="component-lifecycle">
            {spec.lifecycle}
          </Badge>
        ) : null}
        {current.stale ? <Badge tone="warning">stale</Badge> : null}
      </div>
      {c.metadata.description ? (
        <p className={styles.description} data-testid="component-description">
          {c.metadata.description}
        </p>
      ) : null}
      {c.metadata.tags?.length ? (
        <ul className={styles.tags} aria-label="Tags" data-testid="component-tags">
          {c.metadata.tags.map((t) => (
            <li key={t}>
              <Link href={`/catalog?q=${encodeURIComponent(t)}`} className={styles.tag}>
                {t}
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
      <p className={`muted ${styles.flush}`}>
        <code>{props.name}</code> · <code>{props.file}</code>
      </p>
      {current.stale ? <Alert tone="warning">The file no longer loads ({props.staleReason}); this is its last valid version. Saving writes a valid record over it.</Alert> : null}
      <RelationWarnings relations={props.relations} />
      {saved ? <Alert tone="success">Saved and committed.</Alert> : null}
      {proposed ? (
        <Alert tone="success" data-testid="proposed">
          Proposed in merge request !{proposed.mergeRequest.iid}. The record changes once an owner or an operator merges it.{" "}
          <Link href={proposed.reviewUrl}>Review merge request !{proposed.mergeRequest.iid}</Link>
        </Alert>
      ) : null}

      <div className={styles.grid}>
        <Card title="Ownership">
          <dl className={styles.dl}>
            <dt>Repository</dt>
            <dd data-testid="component-repository">
              {props.repositoryUrl ? (
                <a href={props.repositoryUrl} target="_blank" rel="noopener noreferrer">
                  <code>{spec.repo.path}</code>
                </a>
              ) : (
                <>
                  <code>{spec.repo.path}</code> <span className="muted">(local source control: no web page)</span>
                </>
              )}
            </dd>
            {c.metadata.links?.length ? (
              <>
                <dt>Links</dt>
                <dd>
                  <ul className={styles.links} data-testid="component-links">
                    {c.metadata.links.map((l, i) => (
                      <li key={i}>
                        <a href={l.url} target="_blank" rel="noopener noreferrer" title={l.url}>
                          {l.title}
                        </a>
                      </li>
                    ))}
                  </ul>
                </dd>
              </>
            ) : null}
            {spec.owners.map((o, i) => (
              <OwnerLine key={i} user={o.user} group={o.group} first={i === 0} />
            ))}
          </dl>
        </Card>
        <Card title="Environments">
          {props.status.environments.length === 0 ? (
            <p className="muted">Not deployed to any environment.</p>
          ) : (
            <Table label="Environments">
              <TableHeader>
                <TableRow>
                  <TableHead>Environment</TableHead>
                  <TableHead>Namespace</TableHead>
                  <TableHead>Deployed</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {props.status.environments.map((e) => (
                  <TableRow key={e.environment}>
                    <TableCell>{e.environment}</TableCell>
                    <TableCell>{e.namespace ? <code>{e.namespace}</code> : <span className="muted">—</span>}</TableCell>
                    <TableCell>{e.deployedVersion ?? <span className="muted">—</span>}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
          <p className="muted">Open merge requests: {props.status.openMergeRequests}</p>
        </Card>
        <Card title="Runtime">
          <dl className={styles.dl}>
            {spec.runtime?.k8s ? (
              <>
                <dt>Kubernetes</dt>
                <dd>
                  contract <code>{spec.runtime.k8s.deploymentContractPath}</code>
                </dd>
              </>
            ) : null}
            {spec.runtime?.mobile ? (
              <>
                <dt>Mobile</dt>
                <dd>{spec.runtime.mobile.platforms.join(", ")}</dd>
              </>
            ) : null}
            {!spec.runtime?.k8s && !spec.runtime?.mobile ? (
              <>
                <dt>Runtime</dt>
                <dd className="muted">none</dd>
              </>
            ) : null}
            <dt>Dependencies</dt>
            <dd>
              {DEPENDENCY_FLAGS.filter((d) => spec.dependencies?.[d]).join(", ") || <span className="muted">none</span>}
            </dd>
          </dl>
        </Card>
        <RelationsCard name={props.name} relations={props.relations} />
        {spec.library ? (
          <Card title="Library">
            <dl className={styles.dl}>
              <dt>Model</dt>
              <dd>{spec.library.model}</dd>
              <dt>Registry</dt>
              <dd>
                <code>{spec.library.defaultRegistry}</code>
              </dd>
              {spec.library.publish ? (
                <>
                  <dt>Publish</dt>
                  <dd>{spec.library.publish.strategy}</dd>
                  <dt>Visibility</dt>
                  <dd>
                    {spec.library.publish.visibilityPolicy.default}
                    {spec.library.publish.visibilityPolicy.allowPublic ? " (public allowed)" : " (never public)"}
                  </dd>
                </>
              ) : (
                <>
                  <dt>Publish</dt>
                  <dd className="muted">no policy</dd>
                </>
              )}
            </dl>
          </Card>
        ) : null}
      </div>

      {props.canEdit ? (
        editing ? (
          <ComponentEditForm
            key={current.etag}
            name={props.name}
            component={c}
            yaml={current.yaml}
            etag={current.etag}
            canCommit={props.canCommit}
            onCancel={() => setEditing(false)}
            onProposed={(answer) => {
              setEditing(false);
              setProposed(answer);
            }}
            onSaved={(next) => {
              setCurrent({ component: next.component, yaml: next.yaml, etag: next.etag, stale: next.stale });
              setEditing(false);
              setSaved(true);
            }}
          />
        ) : (
          <div>
            <Button
              onClick={() => {
                setSaved(false);
                setProposed(null);
                setEditing(true);
              }}
              data-testid="edit-component"
            >
              Edit
            </Button>
          </div>
        )
      ) : null}
    </div>
  );
}

function OwnerLine({ user, group, first }: { user: string; group?: string; first: boolean }) {
  return (
    <>
      <dt>{first ? "Owners" : ""}</dt>
      <dd data-testid="component-owner">
        <Link href={ownerHref(user)}>{user}</Link>
        {group ? (
          <span className="muted">
            {" "}
            · <Link href={ownerHref(group)}>{group}</Link>
          </span>
        ) : null}
      </dd>
    </>
  );
}
