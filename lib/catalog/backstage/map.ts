/**
 * Backstage entities → catalog records, with a report of what did not map (per entity, per field, in words).
 * Pure: the importer (lib/portal/gitops/backstage-import.ts) reads the files and writes the records.
 *
 * - Component → a record: metadata.name (our name rule; refused names are reported, not changed), title,
 *   description, tags, links, spec.type → kind, lifecycle, owner, system, dependsOn, providesApis, consumesApis.
 * - API → its providers' spec.providesApis entry {name, type, path}: the path from `definition: {$text: ./file}`;
 *   an inline definition or an address is reported (our records point to a file of the repository).
 * - System → spec.system (the name). Group → the owners' group: the path of its parents (`core/realtime`), its
 *   members as the owners' users. `component:default/x` style references → names.
 * Every field not used is a note. Every record answered validates against the record schema, or the entity is
 * answered as failed with the schema's messages.
 */
import { API_TYPES, DESCRIPTION_MAX, DISPLAY_NAME_MAX, LIFECYCLES, LINKS_MAX, TAG_PATTERN, TAGS_MAX, isValidName, linkSchema, validateComponent, type ApiType, type Component, type ComponentKind, type Owner, type ProvidedApi } from "../schema";
import { kindDefaults, titleOf } from "../record-defaults";
import { parseRef, refText, resolveInRepo, type EntityRef } from "./refs";
import type { BackstageEntity } from "./parse";

/** One thing that did not map: the entity (or file) it belongs to, the field ("" for all of it), what happened. */
export interface UnmappedNote {
  entity: string;
  field: string;
  message: string;
}

export interface MappedComponent {
  entity: string;
  component: Component;
}

export interface FailedEntity {
  entity: string;
  /** metadata.name as written, when there is one. */
  name: string | null;
  message: string;
}

export interface BackstageMapping {
  components: MappedComponent[];
  failed: FailedEntity[];
  unmapped: UnmappedNote[];
}

export interface MapContext {
  /** The repository the entities were read from: every record's spec.repo.path. */
  repoPath: string;
  apiVersion: string;
  /** Named as owner when the entity's owner gives no user (the importing user). */
  fallbackUser: string;
  /** Names already in the catalog: a Component of that name is not imported again. */
  taken: ReadonlySet<string>;
}

/** spec.type → our kind; other types become services, reported. */
export const TYPE_TO_KIND: Readonly<Record<string, ComponentKind>> = {
  service: "service",
  backend: "service",
  worker: "service",
  website: "frontend",
  frontend: "frontend",
  "web-app": "frontend",
  library: "library",
  documentation: "docs",
  docs: "docs",
  tool: "tooling",
  tooling: "tooling",
  cli: "tooling",
  mobile: "mobile",
  "mobile-app": "mobile",
  app: "mobile",
};

const NAME_RULE = "lowercase letters, digits and hyphens (1–63, no leading or trailing hyphen)";
const MEMBERS_MAX = 10;

const isMapping = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown): string | null => (typeof v === "string" && v.trim() ? v.trim() : null);
const show = (v: unknown): string => {
  const s = typeof v === "string" ? v : JSON.stringify(v) ?? String(v);
  return JSON.stringify(s.length > 60 ? `${s.slice(0, 60)}…` : s);
};

/** Notes every key of `obj` not in `used`, as `prefix.key`. */
function noteRest(notes: UnmappedNote[], entity: string, obj: unknown, prefix: string, used: readonly string[], why: string): void {
  if (!isMapping(obj)) return;
  for (const key of Object.keys(obj)) {
    if (used.includes(key)) continue;
    if (prefix === "metadata" && (key === "annotations" || key === "labels") && isMapping(obj[key])) {
      for (const k of Object.keys(obj[key])) notes.push({ entity, field: `metadata.${key}.${k}`, message: `not kept: ${why}` });
      continue;
    }
    notes.push({ entity, field: prefix ? `${prefix}.${key}` : key, message: `not kept: ${why}` });
  }
}

/** References of a list field as names of `kind`; others (another kind, a refused name) are notes. */
function refNames(notes: UnmappedNote[], entity: string, field: string, value: unknown, kind: string, what: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    notes.push({ entity, field, message: "is not a list, so it was not kept" });
    return [];
  }
  const names: string[] = [];
  value.forEach((v, i) => {
    const ref = parseRef(v, kind);
    const at = `${field}[${i}]`;
    if (!ref) notes.push({ entity, field: at, message: `${show(v)} is not an entity reference, so it was not kept` });
    else if (ref.kind !== kind) notes.push({ entity, field: at, message: `${refText(ref)} is a ${ref.kind}; our ${field.split(".").pop()} names ${what} only, so it was not kept` });
    else if (!isValidName(ref.name)) notes.push({ entity, field: at, message: `the name "${ref.name}" is refused (names are ${NAME_RULE}), so it was not kept` });
    else if (!names.includes(ref.name)) names.push(ref.name);
  });
  return names;
}

interface GroupInfo {
  path: string;
  members: string[];
}

/** Each Group entity's path (its parents' names, outermost first) and its members' user names. */
function groupsOf(entities: readonly BackstageEntity[]): Map<string, GroupInfo> {
  const parent = new Map<string, string | null>();
  const raw = new Map<string, Record<string, unknown>>();
  for (const e of entities) {
    if (e.kind !== "group" || !e.ref) continue;
    const spec = isMapping(e.raw.spec) ? e.raw.spec : {};
    parent.set(e.ref.name, parseRef(spec.parent, "group")?.name ?? null);
    raw.set(e.ref.name, spec);
  }
  const out = new Map<string, GroupInfo>();
  for (const [name, spec] of raw) {
    const chain = [name];
    let up = parent.get(name) ?? null;
    // A cycle of parents stops where it repeats.
    while (up && !chain.includes(up) && chain.length < 10) {
      chain.unshift(up);
      up = parent.get(up) ?? null;
    }
    const members = Array.isArray(spec.members) ? spec.members.flatMap((m) => parseRef(m, "user")?.name ?? []) : [];
    out.set(name, { path: chain.join("/"), members: [...new Set(members)].slice(0, MEMBERS_MAX) });
  }
  return out;
}

function ownersOf(notes: UnmappedNote[], entity: string, owner: unknown, groups: Map<string, GroupInfo>, fallbackUser: string): Owner[] {
  const ref = parseRef(owner, "group");
  if (!ref) {
    notes.push({ entity, field: "spec.owner", message: owner === undefined ? `no owner: ${fallbackUser} (who imports) is named as the owner; review it` : `${show(owner)} is not an owner reference: ${fallbackUser} (who imports) is named as the owner; review it` });
    return [{ user: fallbackUser }];
  }
  if (ref.kind === "user") return [{ user: ref.name }];
  if (ref.kind !== "group") {
    notes.push({ entity, field: "spec.owner", message: `${refText(ref)} is neither a user nor a group: ${fallbackUser} (who imports) is named as the owner; review it` });
    return [{ user: fallbackUser }];
  }
  const group = groups.get(ref.name);
  if (group?.members.length) return group.members.map((user) => ({ user, group: group.path }));
  notes.push({
    entity,
    field: "spec.owner",
    message: group
      ? `the group ${group.path} lists no members: ${fallbackUser} (who imports) is named beside it; review it`
      : `the group ${ref.name} is not described in this repository: its name is kept as the group path and ${fallbackUser} (who imports) is named beside it; review both`,
  });
  return [{ user: fallbackUser, group: group?.path ?? ref.name }];
}

interface ApiInfo {
  label: string;
  api: ProvidedApi | null;
  /** Why the API does not map, when it does not. */
  why: string | null;
}

function apisOf(entities: readonly BackstageEntity[], notes: UnmappedNote[]): Map<string, ApiInfo> {
  const out = new Map<string, ApiInfo>();
  for (const e of entities) {
    if (e.kind !== "api" || !e.ref) continue;
    const { name } = e.ref;
    const spec = isMapping(e.raw.spec) ? e.raw.spec : {};
    noteRest(notes, e.label, e.raw, "", ["apiVersion", "kind", "metadata", "spec"], "an API is an entry of its provider's spec.providesApis");
    noteRest(notes, e.label, e.raw.metadata, "metadata", ["name", "namespace"], "an API is an entry of its provider's spec.providesApis (name, type, path)");
    noteRest(notes, e.label, spec, "spec", ["type", "definition"], "the providing component's record carries the API (its owners, lifecycle and system are the component's)");
    const fail = (field: string, why: string) => {
      notes.push({ entity: e.label, field, message: why });
      out.set(name, { label: e.label, api: null, why });
    };
    if (!isValidName(name)) {
      fail("metadata.name", `the name "${name}" is refused (names are ${NAME_RULE}), so the API was not kept`);
      continue;
    }
    const type = text(spec.type)?.toLowerCase();
    if (!type || !(API_TYPES as readonly string[]).includes(type)) {
      fail("spec.type", `${type ? `"${type}"` : "no type"}: the catalog knows ${API_TYPES.join(", ")} APIs, so the API was not kept`);
      continue;
    }
    const def = spec.definition;
    if (typeof def === "string") {
      fail("spec.definition", `the definition is inline (${def.length} characters): our records point to a file of the component's repository; commit it as a file and add the path to providesApis`);
      continue;
    }
    const target = isMapping(def) ? (text(def.$text) ?? text(def.$yaml) ?? text(def.$json)) : null;
    const path = target ? resolveInRepo(e.file, target) : null;
    if (!path) {
      fail("spec.definition", target ? `${show(target)} is not a file of this repository, so the API was not kept (our records point to a file of the component's repository)` : "no definition file ($text: ./path), so the API was not kept");
      continue;
    }
    out.set(name, { label: e.label, api: { name, type: type as ApiType, path }, why: null });
  }
  return out;
}

function metadataOf(notes: UnmappedNote[], entity: string, metadata: Record<string, unknown>, name: string): Component["metadata"] {
  const out: Component["metadata"] = { name, displayName: titleOf(name) };
  const title = text(metadata.title);
  if (title && title.length <= DISPLAY_NAME_MAX) out.displayName = title;
  else if (title) notes.push({ entity, field: "metadata.title", message: `longer than ${DISPLAY_NAME_MAX} characters: "${out.displayName}" is shown instead` });
  const description = text(metadata.description);
  if (description && description.length <= DESCRIPTION_MAX) out.description = description;
  else if (description) notes.push({ entity, field: "metadata.description", message: `longer than ${DESCRIPTION_MAX} characters, so it was not kept` });
  if (Array.isArray(metadata.tags)) {
    const tags: string[] = [];
    metadata.tags.forEach((t, i) => {
      if (typeof t === "string" && TAG_PATTERN.test(t) && !tags.includes(t) && tags.length < TAGS_MAX) tags.push(t);
      else notes.push({ entity, field: `metadata.tags[${i}]`, message: `${show(t)} not kept: tags are lowercase letters, digits and hyphens, each once, at most ${TAGS_MAX}` });
    });
    if (tags.length) out.tags = tags;
  }
  if (Array.isArray(metadata.links)) {
    const links: NonNullable<Component["metadata"]["links"]> = [];
    metadata.links.forEach((l, i) => {
      const link = isMapping(l) ? { url: l.url, title: text(l.title) ?? (typeof l.url === "string" ? l.url.slice(0, 100) : l.url), ...(l.icon === undefined ? {} : { icon: l.icon }) } : l;
      const checked = linkSchema.safeParse(link);
      if (checked.success && links.length < LINKS_MAX) links.push(checked.data);
      else notes.push({ entity, field: `metadata.links[${i}]`, message: checked.success ? `not kept: at most ${LINKS_MAX} links` : `not kept: ${checked.error.issues[0].message}` });
      if (checked.success && isMapping(l) && l.type !== undefined) notes.push({ entity, field: `metadata.links[${i}].type`, message: "not kept: our links have a url, a title and an icon" });
    });
    if (links.length) out.links = links;
  }
  if (metadata.namespace !== undefined && metadata.namespace !== "default") notes.push({ entity, field: "metadata.namespace", message: `"${String(metadata.namespace)}" dropped: catalog names are one namespace` });
  noteRest(notes, entity, metadata, "metadata", ["name", "namespace", "title", "description", "tags", "links"], "our records have no such field");
  return out;
}

function componentOf(e: BackstageEntity & { ref: EntityRef }, ctx: MapContext, groups: Map<string, GroupInfo>, apis: Map<string, ApiInfo>, notes: UnmappedNote[]): Component {
  const entity = e.label;
  const metadata = isMapping(e.raw.metadata) ? e.raw.metadata : {};
  const spec = isMapping(e.raw.spec) ? e.raw.spec : {};
  noteRest(notes, entity, e.raw, "", ["apiVersion", "kind", "metadata", "spec"], "our records have no such field");
  if (typeof e.raw.apiVersion !== "string" || !e.raw.apiVersion.startsWith("backstage.io/")) notes.push({ entity, field: "apiVersion", message: `${e.raw.apiVersion === undefined ? "no apiVersion" : show(e.raw.apiVersion)}: not Backstage's (backstage.io/v1alpha1); read as Backstage anyway` });
  const type = text(spec.type)?.toLowerCase() ?? "";
  let kind = TYPE_TO_KIND[type];
  if (!kind) {
    kind = "service";
    notes.push({ entity, field: "spec.type", message: `${type ? `"${type}"` : "no type"}: imported as a service; pick the kind in the merge request if it is another` });
  }
  const out: Component["spec"] = { kind, repo: { path: ctx.repoPath }, owners: ownersOf(notes, entity, spec.owner, groups, ctx.fallbackUser), ...kindDefaults(kind) };
  if (spec.lifecycle !== undefined) {
    const lifecycle = text(spec.lifecycle)?.toLowerCase();
    if (lifecycle && (LIFECYCLES as readonly string[]).includes(lifecycle)) out.lifecycle = lifecycle as Component["spec"]["lifecycle"];
    else notes.push({ entity, field: "spec.lifecycle", message: `${show(spec.lifecycle)} not kept: the catalog knows ${LIFECYCLES.join(", ")}` });
  }
  if (spec.system !== undefined) {
    const system = parseRef(spec.system, "system");
    if (system?.kind === "system" && isValidName(system.name)) out.system = system.name;
    else notes.push({ entity, field: "spec.system", message: `${show(spec.system)} not kept: a system is named ${NAME_RULE}` });
  }
  const dependsOn = refNames(notes, entity, "spec.dependsOn", spec.dependsOn, "component", "components").filter((n) => {
    if (n !== e.ref.name) return true;
    notes.push({ entity, field: "spec.dependsOn", message: "names the component itself, so that entry was not kept" });
    return false;
  });
  if (dependsOn.length) out.dependsOn = dependsOn.slice(0, 100);
  const provided: ProvidedApi[] = [];
  for (const [i, name] of refNames(notes, entity, "spec.providesApis", spec.providesApis, "api", "APIs").entries()) {
    const info = apis.get(name);
    if (info?.api) provided.push(info.api);
    else notes.push({ entity, field: `spec.providesApis[${i}]`, message: info ? `the API ${name} was not kept (${info.why})` : `no API entity of this repository describes ${name} (its type and definition file), so it was not kept` });
  }
  if (provided.length) out.providesApis = provided.slice(0, 100);
  const consumes = refNames(notes, entity, "spec.consumesApis", spec.consumesApis, "api", "APIs");
  if (consumes.length) out.consumesApis = consumes.slice(0, 100);
  noteRest(notes, entity, spec, "spec", ["type", "lifecycle", "owner", "system", "dependsOn", "providesApis", "consumesApis"], "our records have no such field");
  if (out.environments.length) notes.push({ entity, field: "spec.environments", message: `Backstage has none: set to ${out.environments.join(", ")} with a deployment contract at ${out.runtime?.k8s?.deploymentContractPath}; review them` });
  return { apiVersion: ctx.apiVersion, kind: "Component", metadata: metadataOf(notes, entity, metadata, e.ref.name), spec: out };
}

const MAPPED_KINDS = ["component", "api", "system", "group", "location"];

/** Maps the entities of one repository (every file read, Location targets included). */
export function mapBackstage(entities: readonly BackstageEntity[], ctx: MapContext): BackstageMapping {
  const unmapped: UnmappedNote[] = [];
  const failed: FailedEntity[] = [];
  const components: MappedComponent[] = [];
  const groups = groupsOf(entities);
  const apis = apisOf(entities, unmapped);
  const seen = new Set<string>();
  const provided = new Set<string>();
  for (const e of entities) {
    if (!MAPPED_KINDS.includes(e.kind)) {
      unmapped.push({ entity: e.label, field: "kind", message: e.kind ? `kind ${String(e.raw.kind)} is not imported: the catalog holds components, with their system, APIs and owners` : "no kind, so the document was skipped" });
      continue;
    }
    if (!e.ref) {
      const entity = { entity: e.label, name: null, message: "no metadata.name, so it was skipped" };
      if (e.kind === "component") failed.push(entity);
      else unmapped.push({ ...entity, field: "metadata.name" });
      continue;
    }
    if (e.kind === "system") {
      noteRest(unmapped, e.label, e.raw.metadata, "metadata", ["name", "namespace"], "a system is a name on its components (spec.system)");
      noteRest(unmapped, e.label, e.raw.spec, "spec", [], "a system is a name on its components (spec.system)");
    } else if (e.kind === "group") {
      noteRest(unmapped, e.label, e.raw.metadata, "metadata", ["name", "namespace"], "a group is the owners' group path");
      noteRest(unmapped, e.label, e.raw.spec, "spec", ["parent", "members", "children"], "a group is the owners' group path, its members the owners");
    } else if (e.kind === "location") {
      noteRest(unmapped, e.label, e.raw.spec, "spec", ["type", "target", "targets"], "a Location only says which files to read");
    }
    if (e.kind !== "component") continue;
    const ref = e.ref;
    const fail = (message: string) => failed.push({ entity: e.label, name: ref.name, message });
    if (!isValidName(ref.name)) {
      fail(`the name "${ref.name}" is refused: names are ${NAME_RULE}; rename it in Backstage or add the record by hand`);
      continue;
    }
    if (seen.has(ref.name)) {
      fail(`another Component of this repository is named ${ref.name}`);
      continue;
    }
    seen.add(ref.name);
    if (ctx.taken.has(ref.name)) {
      fail(`a component named ${ref.name} is already in the catalog`);
      continue;
    }
    const before = unmapped.length;
    const component = componentOf({ ...e, ref }, ctx, groups, apis, unmapped);
    const checked = validateComponent(component);
    if (!checked.ok) {
      unmapped.splice(before);
      fail(`the record would not be valid: ${checked.issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`);
      continue;
    }
    for (const api of checked.component.spec.providesApis ?? []) provided.add(api.name);
    components.push({ entity: e.label, component: checked.component });
  }
  for (const [name, info] of apis) {
    if (info.api && !provided.has(name)) unmapped.push({ entity: info.label, field: "", message: "no imported Component lists it in spec.providesApis, so it is in no record" });
  }
  return { components, failed, unmapped };
}
