// Below both config editors: add a key, what is wrong, and preview or cancel.
import { Alert, Button } from "@/components/ui";
import styles from "../gitops.module.css";

export function EditorActions(props: {
  testIds: { add: string; issues: string; preview: string };
  previewLabel: string;
  issues: string[];
  hasChanges: boolean;
  onAdd: () => void;
  onCancel: () => void;
}) {
  const valid = props.issues.length === 0;
  return (
    <>
      <div>
        <Button size="small" onClick={props.onAdd} data-testid={props.testIds.add}>
          Add key
        </Button>
      </div>
      {valid ? null : (
        <Alert tone="error" data-testid={props.testIds.issues}>
          {props.issues.length === 1 ? (
            props.issues[0]
          ) : (
            <ul className={styles.issues}>
              {props.issues.map((issue) => (
                <li key={issue}>{issue}</li>
              ))}
            </ul>
          )}
        </Alert>
      )}
      <div className="row">
        <Button type="submit" variant="primary" disabled={!valid || !props.hasChanges} data-testid={props.testIds.preview}>
          {props.previewLabel}
        </Button>
        <Button variant="ghost" onClick={props.onCancel}>
          Cancel
        </Button>
        {valid && !props.hasChanges ? <span className="muted">No changes yet.</span> : null}
      </div>
    </>
  );
}
