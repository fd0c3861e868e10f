// The audience builder's model: a tree of groups (all / any, nestable) and conditions (field, op,
// value as typed), each of which may be negated. The builder edits this draft; toRule() turns it into
// the offers service's rule JSON, and faults come back to the node (and the part of it: field, op,
// value) that caused them — the builder's own checks of what was typed first, then the contract's
// audienceIssues over the rule, then the service's answer mapped through the same paths.
// Pure TypeScript: no React.
import {
  AUDIENCE_LIMITS,
  audienceIssues,
  CORE_NUMBER_FIELDS,
  CURRENCY_COUNTERS,
  parseAudienceField,
  type AudienceComparison,
  type AudienceOp,
  type AudienceRule,
} from "@/lib/offers-client/schemas";

export type Join = "all" | "any";
/** Which control of a condition a fault belongs to; `node` is the group or condition as a whole. */
export type FaultPart = "field" | "level" | "op" | "value" | "low" | "high" | "node";

export interface ConditionDraft {
  kind: "condition";
  id: string;
  negate: boolean;
  /** A field choice: a rule field path, or LEVEL_FIELD (the level's name is typed in `level`). */
  field: string;
  level: string;
  op: AudienceOp;
  /** The value as typed: a number or text, or a comma-separated list for `in`. */
  value: string;
  /** `between`: low and high as typed. */
  low: string;
  high: string;
  /** `exists`: whether the field must be present. */
  exists: boolean;
}

export interface GroupDraft {
  kind: "group";
  id: string;
  negate: boolean;
  join: Join;
  members: AudienceNode[];
}

export type AudienceNode = ConditionDraft | GroupDraft;

/** The field choice that stands for levels.<name>.level, the name typed beside it. */
export const LEVEL_FIELD = "levels.*.level";

export interface FieldChoice {
  value: string;
  label: string;
}

export interface Currency {
  id: string;
  name: string;
}

const CORE_LABELS: Record<string, string> = { daysInGame: "Days in game", loginStreak: "Login streak", trustScore: "Trust score", username: "Username" };
const COUNTER_LABELS: Record<string, string> = { balance: "balance", in: "earned (in)", out: "spent (out)" };

/** Field choices for a game: the snapshot's own fields, each currency's counters, and a level by name. */
export function fieldChoices(currencies: Currency[], keep: string[] = []): FieldChoice[] {
  const choices: FieldChoice[] = [...CORE_NUMBER_FIELDS, "username"].map((f) => ({ value: f, label: CORE_LABELS[f] ?? f }));
  for (const c of currencies) for (const counter of CURRENCY_COUNTERS) choices.push({ value: `currencies.${c.id}.${counter}`, label: `${c.name} ${COUNTER_LABELS[counter]}` });
  // A rule may name a currency the game no longer declares: it stays choosable, under its id.
  for (const field of keep) {
    if (field === LEVEL_FIELD || choices.some((c) => c.value === field)) continue;
    const parsed = parseAudienceField(field);
    if (parsed?.kind === "currency") choices.push({ value: field, label: `${parsed.id} ${COUNTER_LABELS[parsed.counter]}` });
  }
  choices.push({ value: LEVEL_FIELD, label: "Level (by name)" });
  return choices;
}

export const OP_LABELS: Record<AudienceOp, string> = {
  eq: "=",
  ne: "≠",
  gt: ">",
  gte: "≥",
  lt: "<",
  lte: "≤",
  in: "is one of",
  between: "is between",
  exists: "exists",
};

const TEXT_OPS: AudienceOp[] = ["eq", "ne", "in", "exists"];
const NUMBER_OPS: AudienceOp[] = ["eq", "ne", "gt", "gte", "lt", "lte", "in", "between", "exists"];

export const isTextField = (field: string) => field === "username";
/** The ops a field takes: username compares as text (eq, ne, in, exists); every other field as a number. */
export const opsFor = (field: string): AudienceOp[] => (isTextField(field) ? TEXT_OPS : NUMBER_OPS);

let counter = 0;
export const newId = (prefix = "n") => `${prefix}${++counter}`;

export function newCondition(patch: Partial<ConditionDraft> = {}): ConditionDraft {
  return { kind: "condition", id: newId("c"), negate: false, field: "loginStreak", level: "", op: "gte", value: "", low: "", high: "", exists: true, ...patch };
}

export function newGroup(patch: Partial<GroupDraft> = {}): GroupDraft {
  return { kind: "group", id: newId("g"), negate: false, join: "all", members: [], ...patch };
}

// ---------- editing the tree ----------

/** The tree with `id`'s node replaced by `change(node)`. */
export function updateNode(root: GroupDraft, id: string, change: (node: AudienceNode) => AudienceNode): GroupDraft {
  const visit = (node: AudienceNode): AudienceNode => {
    if (node.id === id) return change(node);
    if (node.kind === "group") return { ...node, members: node.members.map(visit) };
    return node;
  };
  return visit(root) as GroupDraft;
}

export function removeNode(root: GroupDraft, id: string): GroupDraft {
  const visit = (group: GroupDraft): GroupDraft => ({ ...group, members: group.members.filter((m) => m.id !== id).map((m) => (m.kind === "group" ? visit(m) : m)) });
  return visit(root);
}

export function addMember(root: GroupDraft, groupId: string, member: AudienceNode): GroupDraft {
  return updateNode(root, groupId, (node) => (node.kind === "group" ? { ...node, members: [...node.members, member] } : node));
}

/** How deep a node sits (the root group is 1), for the nesting limit. */
export function depthOf(root: GroupDraft, id: string): number {
  const find = (node: AudienceNode, depth: number): number => {
    if (node.id === id) return depth;
    if (node.kind !== "group") return 0;
    for (const m of node.members) {
      const d = find(m, depth + 1);
      if (d) return d;
    }
    return 0;
  };
  return find(root, 1);
}

/** A group may hold another group while the rule stays within the service's nesting limit (a negation counts as a level). */
export const canNest = (root: GroupDraft, groupId: string) => depthOf(root, groupId) + 2 <= AUDIENCE_LIMITS.depth;

// ---------- the rule ----------

const pathKey = (path: Array<string | number>) => path.join("/");

function fieldOf(c: ConditionDraft): string {
  return c.field === LEVEL_FIELD ? `levels.${c.level.trim()}.level` : c.field;
}

const numberOf = (text: string): number | null => {
  const t = text.trim();
  if (!t) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
};

/** What was typed, checked before the contract sees it, in words for people; null when it reads. */
function typedFaults(c: ConditionDraft): Partial<Record<FaultPart, string>> {
  const faults: Partial<Record<FaultPart, string>> = {};
  if (c.field === LEVEL_FIELD && !c.level.trim()) faults.level = "Enter the name of the level.";
  const text = isTextField(c.field);
  switch (c.op) {
    case "exists":
      break;
    case "between":
      if (numberOf(c.low) === null) faults.low = "Enter a number.";
      if (numberOf(c.high) === null) faults.high = "Enter a number.";
      if (!faults.low && !faults.high && numberOf(c.low)! > numberOf(c.high)!) faults.high = "Enter a number no smaller than Low.";
      break;
    case "in": {
      const items = listItems(c.value);
      if (items.length === 0) faults.value = text ? "List one or more names, separated by commas." : "List one or more numbers, separated by commas.";
      else if (!text && items.some((item) => numberOf(item) === null)) faults.value = "Every value of the list must be a number, such as 1, 5, 10.";
      break;
    }
    default:
      if (text) {
        if (!c.value) faults.value = "Enter a name.";
      } else if (numberOf(c.value) === null) faults.value = c.value.trim() ? "This is not a number: enter one, such as 10." : "Enter a number.";
  }
  return faults;
}

const listItems = (text: string) =>
  text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

function comparisonOf(c: ConditionDraft): AudienceComparison {
  const field = fieldOf(c);
  const text = isTextField(c.field);
  switch (c.op) {
    case "exists":
      return { field, op: "exists", value: c.exists };
    case "between":
      return { field, op: "between", value: [numberOf(c.low) ?? Number.NaN, numberOf(c.high) ?? Number.NaN] };
    case "in":
      return { field, op: "in", value: listItems(c.value).map((item) => (text ? item : (numberOf(item) ?? item))) };
    default:
      return { field, op: c.op, value: text ? c.value : (numberOf(c.value) ?? c.value) };
  }
}

export interface BuiltRule {
  rule: AudienceRule;
  /** Where each node sits in the rule (its inner position, under a `not` when negated) → node id. */
  nodeAt: Map<string, string>;
}

/** The rule JSON the draft stands for, and where each node landed in it. */
export function toRule(root: GroupDraft): BuiltRule {
  const nodeAt = new Map<string, string>();
  const build = (node: AudienceNode, path: Array<string | number>): AudienceRule => {
    const inner = node.negate ? [...path, "not"] : path;
    nodeAt.set(pathKey(inner), node.id);
    const built: AudienceRule = node.kind === "group" ? ({ [node.join]: node.members.map((m, i) => build(m, [...inner, node.join, i])) } as AudienceRule) : comparisonOf(node);
    return node.negate ? { not: built } : built;
  };
  return { rule: build(root, []), nodeAt };
}

export type Faults = Map<string, Partial<Record<FaultPart, string>>>;

/**
 * Places issues whose paths are relative to the rule (the contract's audienceIssues, or the service's
 * answer with its leading "audience" removed) on the node they concern: the longest path of a node
 * that starts the issue's path; what follows it (field, op, value) names the control.
 */
export function placeIssues(issues: Array<{ path: Array<string | number>; message: string }>, built: BuiltRule, into: Faults = new Map()): Faults {
  for (const issue of issues) {
    const path = issue.path.map(String);
    for (let n = path.length; n >= 0; n--) {
      const id = built.nodeAt.get(path.slice(0, n).join("/"));
      if (!id) continue;
      const rest = path[n];
      const part: FaultPart = rest === "field" || rest === "op" || rest === "value" ? rest : "node";
      const existing = into.get(id) ?? {};
      if (!existing[part]) into.set(id, { ...existing, [part]: issue.message });
      break;
    }
  }
  return into;
}

/** Every fault of the draft at its node: what was typed first, then the contract's rules (nesting, counts, lengths). */
export function audienceFaults(root: GroupDraft): { built: BuiltRule; faults: Faults } {
  const built = toRule(root);
  const faults: Faults = new Map();
  const visit = (node: AudienceNode) => {
    if (node.kind === "group") node.members.forEach(visit);
    else {
      const typed = typedFaults(node);
      if (Object.keys(typed).length) faults.set(node.id, typed);
    }
  };
  visit(root);
  // The contract's faults of a condition whose typing is already faulted would only repeat it.
  const contract = audienceIssues(built.rule).filter((issue) => {
    const owner = placeIssues([issue], built);
    const [id] = owner.keys();
    return !id || !faults.has(id);
  });
  placeIssues(contract, built, faults);
  return { built, faults };
}

export function faultCount(faults: Faults): number {
  let n = 0;
  for (const parts of faults.values()) n += Object.keys(parts).length;
  return n;
}

// ---------- from a stored rule ----------

function conditionFrom(c: AudienceComparison, negate: boolean): ConditionDraft {
  const parsed = parseAudienceField(c.field);
  const level = parsed?.kind === "level" ? parsed.name : "";
  const base = newCondition({ negate, field: parsed?.kind === "level" ? LEVEL_FIELD : c.field, level, op: c.op });
  const v = c.value;
  switch (c.op) {
    case "exists":
      return { ...base, exists: v !== false };
    case "between":
      return Array.isArray(v) ? { ...base, low: String(v[0] ?? ""), high: String(v[1] ?? "") } : base;
    case "in":
      return { ...base, value: Array.isArray(v) ? v.join(", ") : "" };
    default:
      return { ...base, value: v === undefined ? "" : String(v) };
  }
}

/** The draft of a stored rule; a top-level comparison or negation becomes the only member of an all-group. */
export function fromRule(rule: AudienceRule | null | undefined): GroupDraft {
  const node = (r: AudienceRule, negate = false): AudienceNode => {
    if ("not" in r) return node(r.not, !negate);
    if ("all" in r) return newGroup({ negate, join: "all", members: r.all.map((m) => node(m)) });
    if ("any" in r) return newGroup({ negate, join: "any", members: r.any.map((m) => node(m)) });
    return conditionFrom(r, negate);
  };
  if (!rule) return newGroup();
  const root = node(rule);
  return root.kind === "group" ? root : newGroup({ members: [root] });
}

/** The fields a draft names (so a currency the game no longer declares stays choosable). */
export function fieldsOf(root: GroupDraft): string[] {
  const out: string[] = [];
  const visit = (n: AudienceNode) => (n.kind === "group" ? n.members.forEach(visit) : out.push(n.field));
  visit(root);
  return out;
}
