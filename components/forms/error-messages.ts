import type { FieldErrors } from "react-hook-form";

interface ErrorLike {
  message?: unknown;
  type?: unknown;
}

export interface FormIssue {
  /** Where, as a record path reads: spec.owners[0].user; "" for the whole form. */
  path: string;
  message: string;
}

const isFieldError = (value: unknown): value is ErrorLike => typeof value === "object" && value !== null && typeof (value as ErrorLike).type === "string";

const join = (path: string, key: string) => (/^\d+$/.test(key) ? `${path}[${key}]` : path ? `${path}.${key}` : key);

/** Every error of a form with its path, in the order of its fields (list items by index, then the list's own). */
export function errorEntries(errors: FieldErrors | undefined): FormIssue[] {
  const out: FormIssue[] = [];
  const visit = (value: unknown, path: string) => {
    if (typeof value !== "object" || value === null) return;
    if (isFieldError(value) && typeof value.message === "string") {
      if (value.message) out.push({ path, message: value.message });
      return;
    }
    if (Array.isArray(value)) {
      value.forEach((item, i) => visit(item, join(path, String(i))));
      visit((value as { root?: unknown }).root, path);
      return;
    }
    for (const [key, child] of Object.entries(value)) if (key !== "ref") visit(child, key === "root" ? path : join(path, key));
  };
  visit(errors, "");
  return out;
}

/** Every message of a form's errors, once each, in the order of its fields. */
export function errorMessages(errors: FieldErrors | undefined): string[] {
  return [...new Set(errorEntries(errors).map((e) => e.message))];
}

/** The first message about `prefix` or anything under it (spec.owners matches spec.owners[0].user). */
export function issueAt(issues: FormIssue[], prefix: string): string | undefined {
  return issues.find((i) => i.path === prefix || i.path.startsWith(`${prefix}.`) || i.path.startsWith(`${prefix}[`))?.message;
}

const ordinal = (index: string) => Number(index) + 1;

/** Labels of a component record's fields, as the edit form names them; a record path it does not know reads as itself. */
const RECORD_LABELS: Array<[RegExp, (m: RegExpExecArray) => string]> = [
  [/^metadata\.name$/, () => "Name"],
  [/^metadata\.displayName$/, () => "Display name"],
  [/^metadata\.description$/, () => "Description"],
  [/^metadata\.tags\[(\d+)\]$/, (m) => `Tag ${ordinal(m[1])}`],
  [/^metadata\.tags$/, () => "Tags"],
  [/^metadata\.links\[(\d+)\]\.url$/, (m) => `Link ${ordinal(m[1])} address`],
  [/^metadata\.links\[(\d+)\]\.title$/, (m) => `Link ${ordinal(m[1])} title`],
  [/^metadata\.links/, () => "Links"],
  [/^spec\.kind$/, () => "Kind"],
  [/^spec\.lifecycle$/, () => "Lifecycle"],
  [/^spec\.repo\.path$/, () => "Repository path"],
  [/^spec\.owners\[(\d+)\]\.user$/, (m) => `Owner ${ordinal(m[1])} user`],
  [/^spec\.owners\[(\d+)\]\.group$/, (m) => `Owner ${ordinal(m[1])} group`],
  [/^spec\.owners/, () => "Owners"],
  [/^spec\.environments/, () => "Environments"],
  [/^spec\.runtime\.k8s\.namespaces\.([a-z]+)$/, (m) => `Namespace for ${m[1]}`],
  [/^spec\.runtime\.k8s\.deploymentContractPath$/, () => "Deployment contract path"],
  [/^spec\.runtime\.mobile/, () => "Mobile platforms"],
  [/^spec\.dependencies/, () => "Dependencies"],
  [/^spec\.system$/, () => "System"],
  [/^spec\.dependsOn/, () => "Depends on"],
  [/^spec\.providesApis\[(\d+)\]\.name$/, (m) => `API ${ordinal(m[1])} name`],
  [/^spec\.providesApis\[(\d+)\]\.type$/, (m) => `API ${ordinal(m[1])} type`],
  [/^spec\.providesApis\[(\d+)\]\.path$/, (m) => `API ${ordinal(m[1])} definition path`],
  [/^spec\.providesApis/, () => "Provides APIs"],
  [/^spec\.consumesApis/, () => "Consumes APIs"],
  [/^spec\.library\.defaultRegistry$/, () => "Default registry"],
  [/^spec\.library\.publish/, () => "Publish policy"],
  [/^spec\.library/, () => "Library"],
];

export function recordFieldLabel(path: string): string {
  for (const [pattern, label] of RECORD_LABELS) {
    const m = pattern.exec(path);
    if (m) return label(m);
  }
  return path || "The record";
}

/**
 * A schema message that names its field by its key ("displayName must not be empty"), said with the
 * field's label instead ("Display name must not be empty."); undefined for any other message.
 */
export function labelledIssue(path: string, message: string): string | undefined {
  const label = recordFieldLabel(path);
  const key = /([A-Za-z]+)(?:\[\d+\])*$/.exec(path)?.[1];
  let text: string;
  if (key && message.startsWith(`${key} `)) text = `${label} ${message.slice(key.length + 1).trim()}`;
  else if (message.toLowerCase().startsWith(`${label.toLowerCase()} `)) text = `${label}${message.slice(label.length)}`;
  else return undefined;
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** A record issue for a list of problems: led by its field's label, never by the schema's key name. */
export function recordIssueSentence(path: string, message: string): string {
  return labelledIssue(path, message) ?? `${recordFieldLabel(path)}: ${message}`;
}
