// One API a component provides, at a ref: which definition (repository, path, ref selector), then by state the
// rendered OpenAPI definition, its lint errors, the raw AsyncAPI/gRPC text, or why there is nothing to show.
import { Alert, Badge, Button, Card, Field, Select } from "@/components/ui";
import { Link } from "@/components/ui/link";
import { API_DEFINITION_LIMIT_IN_WORDS, type ApiDocsAnswer } from "@/lib/portal/contracts/api-docs";
import { OpenApiViewer } from "./openapi-viewer";
import styles from "./api-docs.module.css";

export const apiDocsHref = (component: string, api: string, ref?: string) =>
  `/catalog/${component}/apis/${api}${ref ? `?ref=${encodeURIComponent(ref)}` : ""}`;

function RefSelector({ answer: a }: { answer: ApiDocsAnswer }) {
  if (a.refs.length < 2) return null;
  return (
    <form method="get" action={apiDocsHref(a.component, a.api.name)} className={styles.refForm} data-testid="api-ref-selector">
      <Field label="Version">
        {(id) => (
          <Select id={id} name="ref" defaultValue={a.ref}>
            {a.refs.map((r) => (
              <option key={r.name} value={r.name}>
                {r.kind === "branch" ? `${r.name} (default branch)` : r.name}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Button type="submit">Show</Button>
    </form>
  );
}

function Definition({ answer: a }: { answer: ApiDocsAnswer }) {
  switch (a.state) {
    case "valid":
      return a.document ? (
        <div className={styles.viewer}>
          <OpenApiViewer document={a.document} />
        </div>
      ) : null;
    case "invalid":
      return (
        <Alert tone="error" data-testid="api-lint-errors">
          {a.detail}
          <ul>
            {a.problems.map((p, i) => (
              <li key={`${p.path}-${i}`}>
                <code>{p.path}</code>: {p.message} <span className="muted">({p.rule})</span>
              </li>
            ))}
          </ul>
        </Alert>
      );
    case "raw":
      return (
        <>
          <Alert tone="info" data-testid="api-raw-note">
            The portal renders OpenAPI definitions only for now: this {a.api.type === "grpc" ? "gRPC" : "AsyncAPI"} definition is shown as it is in the repository.
          </Alert>
          <pre className={styles.raw} data-testid="api-raw-definition" tabIndex={0} aria-label={`${a.api.path} at ${a.ref}`}>
            {a.definition}
          </pre>
        </>
      );
    case "missing":
      return (
        <Alert tone="warning" data-testid="api-missing">
          {a.detail}
        </Alert>
      );
    case "too-large":
      return (
        <Alert tone="warning" data-testid="api-too-large">
          {a.detail} Definitions up to {API_DEFINITION_LIMIT_IN_WORDS} are shown.
        </Alert>
      );
  }
}

export function ApiDocsView({ answer: a }: { answer: ApiDocsAnswer }) {
  return (
    <div className="stack">
      <Card title={`API ${a.api.name}`} data-testid="api-docs" data-state={a.state}>
        <div className={styles.header}>
          <p>
            <Badge>{a.api.type}</Badge> provided by <Link href={`/catalog/${a.component}`}>{a.component}</Link>: <code>{a.api.path}</code> in <code>{a.repository}</code>
            {a.ref ? (
              <>
                {" "}
                at <code data-testid="api-ref">{a.ref}</code>
              </>
            ) : null}
          </p>
          <RefSelector answer={a} />
        </div>
      </Card>
      <Definition answer={a} />
    </div>
  );
}
