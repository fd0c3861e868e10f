// The order wizard's form: its values, the order they stand for, and the resolver that checks them
// with the very check the server runs (validateOrder: the order's zod schema, then the catalog's
// component schema), its record paths mapped back to the wizard's fields.
import type { FieldError, Resolver } from "react-hook-form";
import { toNestErrors } from "@hookform/resolvers";
import type { DependencyFlag, FieldIssue } from "@/lib/catalog/schema";
import { formFieldOf, validateOrder, type OrderInput } from "@/lib/portal/app-orders/model";
import { labelledIssue } from "@/components/forms/error-messages";

export interface OrderFormValues {
  name: string;
  displayName: string;
  kind: string;
  repoPath: string;
  owners: Array<{ user: string; group: string }>;
  environments: string[];
  dependencies: Partial<Record<DependencyFlag, boolean>>;
  libraryModel: string;
  libraryRegistry: string;
}

export const DEPENDENCY_LABELS: Record<DependencyFlag, string> = { mongo: "MongoDB", redis: "Redis", pubsub: "Pub/Sub", gcpSecrets: "GCP secrets" };

export const ORDER_STEPS = ["Basics", "Environments and resources", "Review"] as const;

/** The fields each step holds (the review step holds none of its own). */
export const STEP_FIELDS: Array<Array<keyof OrderFormValues>> = [
  ["name", "displayName", "kind", "repoPath", "owners"],
  ["environments", "dependencies", "libraryModel", "libraryRegistry"],
  [],
];

export function emptyOrder(userId: string): OrderFormValues {
  return {
    name: "",
    displayName: "",
    kind: "service",
    repoPath: "",
    owners: [{ user: userId, group: "" }],
    environments: ["dev", "staging", "production"],
    dependencies: {},
    libraryModel: "single",
    libraryRegistry: "",
  };
}

/** The order the form stands for: blank extra owners and unticked resources left out, library settings for libraries only. */
export function orderOf(form: OrderFormValues): OrderInput {
  return {
    name: form.name,
    displayName: form.displayName,
    kind: form.kind,
    repoPath: form.repoPath,
    owners: form.owners.filter((o, i) => i === 0 || o.user.trim() || o.group.trim()).map((o) => (o.group.trim() ? { user: o.user, group: o.group } : { user: o.user })),
    environments: form.environments,
    dependencies: Object.fromEntries(Object.entries(form.dependencies).filter(([, on]) => on)),
    ...(form.kind === "library" ? { library: { model: form.libraryModel, defaultRegistry: form.libraryRegistry } } : {}),
  };
}

/** The form field an issue of the record (or of the order) is about, as react-hook-form names it. */
export function fieldOfIssue(path: string): string {
  const field = formFieldOf(path);
  if (field === "library.model" || field === "library") return "libraryModel";
  if (field.startsWith("library.defaultRegistry")) return "libraryRegistry";
  if (field.startsWith("library")) return "libraryModel";
  if (field.startsWith("dependencies")) return "dependencies";
  if (field === "") return "root";
  return field.replace(/\[(\d+)\]/g, ".$1");
}

/** The step that holds a field (the review step for anything else). */
export function stepOf(field: string): number {
  const top = field.split(".")[0];
  const step = STEP_FIELDS.findIndex((fields) => (fields as string[]).includes(top));
  return step === -1 ? ORDER_STEPS.length - 1 : step;
}

/** Issues as react-hook-form's flat errors: one per field, their messages joined. */
export function errorsOf(issues: FieldIssue[], type = "validate"): Record<string, FieldError> {
  const errors: Record<string, FieldError> = {};
  for (const issue of issues) {
    const field = fieldOfIssue(issue.path);
    const before = errors[field]?.message;
    const message = labelledIssue(issue.path, issue.message) ?? issue.message;
    errors[field] = { type, message: before ? `${before}; ${message}` : message };
  }
  return errors;
}

export const orderResolver: Resolver<OrderFormValues, unknown, OrderInput> = async (values, _context, options) => {
  const order = orderOf(values);
  const checked = validateOrder(order);
  if (checked.ok) return { values: order, errors: {} };
  return { values: {}, errors: toNestErrors(errorsOf(checked.issues), options) };
};
