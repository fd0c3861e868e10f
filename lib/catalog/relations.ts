/**
 * The catalog's relations: what each record declares (spec.system, spec.dependsOn, spec.providesApis,
 * spec.consumesApis) and the reverse edges kept beside it (used by, system members, API providers and
 * consumers), so a component's page reads its relations without a pass over the catalog.
 *
 * Incremental: a record that changes moves only its own edges (unlink what it declared, link what it
 * declares now); a refresh hands every record, and those whose parsed component is the same object as
 * before cost a map lookup. A reference to a name no record holds is kept like any other edge: it
 * resolves by itself when that record appears, and until then it is a warning, never a load error.
 * What depends on the whole graph (blast radius, the list of warnings) is computed on read from the
 * edges and kept until the next change.
 *
 * The graph walks are pure functions (reachable, neighbourhood) over a function giving a node's
 * neighbours: cycles and self-references end because a node is visited once.
 */
import type { Component, ProvidedApi } from "./schema";
import { IdGraph } from "./name-graph";
import { firstInNameOrder, inNameOrder } from "./name-order";
import { GRAPH_NODES_MAX, NAME_LIST_MAX, type ComponentGraph, type ComponentRelations, type GraphDirection, type GraphEdge, type GraphNode, type NameList, type RelationWarning } from "./relation-schema";

/** What the relations need of a catalog entry. */
export interface RelationRecord {
  name: string;
  file: string;
  component: Component;
}

/** The relations of a record the index no longer holds (removed while its page was being answered). */
export const NO_RELATIONS: ComponentRelations = { system: null, dependsOn: [], usedBy: { names: [], total: 0 }, providesApis: [], consumesApis: [], blastRadius: 0, warnings: [] };

/**
 * The names within `depth` hops of `start` through `next`, each with its distance (breadth first, so the
 * shortest), at most `maxNodes` of them: the nearest first, neighbours in the order `next` gives them.
 * `expand` says whether a name's neighbours are followed (a missing record has none).
 */
export function neighbourhood(
  start: string,
  depth: number,
  next: (name: string) => Iterable<string>,
  maxNodes: number,
  expand: (name: string) => boolean = () => true,
): { distances: Map<string, number>; truncated: boolean } {
  const distances = new Map<string, number>([[start, 0]]);
  let frontier = [start];
  let truncated = false;
  for (let d = 1; d <= depth && frontier.length; d++) {
    const following: string[] = [];
    for (const n of frontier) {
      if (!expand(n)) continue;
      for (const m of next(n)) {
        if (distances.has(m)) continue;
        if (distances.size >= maxNodes) {
          truncated = true;
          break;
        }
        distances.set(m, d);
        following.push(m);
      }
    }
    frontier = following;
  }
  return { distances, truncated };
}

/** What one record declares, as the index keeps it. */
interface Declared {
  system: string | null;
  dependsOn: readonly string[];
  providesApis: readonly ProvidedApi[];
  consumesApis: readonly string[];
}

const NOTHING: Declared = { system: null, dependsOn: [], providesApis: [], consumesApis: [] };
const NO_NAMES: ReadonlySet<string> = new Set();

function declaredBy(component: Component): Declared {
  const { system, dependsOn, providesApis, consumesApis } = component.spec;
  if (!system && !dependsOn?.length && !providesApis?.length && !consumesApis?.length) return NOTHING;
  return { system: system ?? null, dependsOn: dependsOn ?? [], providesApis: providesApis ?? [], consumesApis: consumesApis ?? [] };
}

function link(map: Map<string, Set<string>>, key: string, name: string): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(name);
}

function unlink(map: Map<string, Set<string>>, key: string, name: string): void {
  const set = map.get(key);
  if (!set) return;
  set.delete(name);
  if (!set.size) map.delete(key);
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function sortedNames(names: Iterable<string>, without?: string): string[] {
  const out: string[] = [];
  for (const n of names) if (n !== without) out.push(n);
  return out.sort(byName);
}

function nameList(names: ReadonlySet<string> | undefined): NameList {
  if (!names?.size) return { names: [], total: 0 };
  return { names: firstInNameOrder(names, NAME_LIST_MAX), total: names.size };
}

interface Held {
  record: RelationRecord;
  declared: Declared;
  /** The record's name as numbered by the index; what it declares is numbered when linked (ids never change). */
  self: number;
}

/** Nodes of the dependents graph: records (by name id) at even ids, APIs (by API id) at odd ones. */
const recordNode = (nameId: number) => nameId * 2;
const apiNode = (apiId: number) => apiId * 2 + 1;
const isRecordNode = (node: number) => (node & 1) === 0;

export class RelationIndex {
  private held = new Map<string, Held>();
  /** Component name → the records whose spec.dependsOn names it (whether or not a record has that name). */
  private usedBy = new Map<string, Set<string>>();
  private members = new Map<string, Set<string>>();
  private providers = new Map<string, Set<string>>();
  private consumers = new Map<string, Set<string>>();
  /** Read-side results of the current edges, dropped on any change. */
  private radius = new Map<string, number>();
  /**
   * Who depends on whom, by id, for blast radii: a record's node (2 × its name id) to each record that
   * names it in dependsOn; a provider to each API it provides (2 × API id + 1), an API to each consumer.
   * Moved edge by edge with the named edges, so a blast radius is a walk, never a rebuild.
   */
  private readonly dependents = new IdGraph();
  /** Every name and API name seen, numbered once (ids are not reused: a catalog's names are few enough). */
  private readonly nameIds = new Map<string, number>();
  private readonly apiIds = new Map<string, number>();
  private warningList: RelationWarning[] | null = null;

  get size(): number {
    return this.held.size;
  }

  has(name: string): boolean {
    return this.held.has(name);
  }

  /** The catalog's records after a refresh: only those whose component changed move their edges. */
  sync(records: readonly RelationRecord[]): void {
    for (const r of records) this.set(r);
    // Every record handed is held now: more held means some are gone (the names are a set only then).
    if (records.length === this.held.size) return;
    const present = new Set(records.map((r) => r.name));
    for (const name of [...this.held.keys()]) if (!present.has(name)) this.delete(name);
  }

  /** Adds a record, or moves its edges to what it declares now. */
  set(record: RelationRecord): void {
    const before = this.held.get(record.name);
    if (before && before.record.component === record.component) {
      if (before.record.file !== record.file) this.warningList = null;
      before.record = record;
      return;
    }
    if (before) this.unlinkDeclared(record.name, before);
    const declared = declaredBy(record.component);
    const held = { record, declared, self: this.idOf(this.nameIds, record.name) };
    this.held.set(record.name, held);
    this.linkDeclared(record.name, held);
    this.changed();
  }

  delete(name: string): void {
    const before = this.held.get(name);
    if (!before) return;
    this.unlinkDeclared(name, before);
    this.held.delete(name);
    this.changed();
  }

  /** The number of a name or an API name, given it the first time it is seen. */
  private idOf(ids: Map<string, number>, key: string): number {
    let n = ids.get(key);
    if (n === undefined) ids.set(key, (n = ids.size));
    return n;
  }

  private changed(): void {
    // Clearing a map allocates a new table even when it is empty: a load changes 100,000 records in a row.
    if (this.radius.size) this.radius.clear();
    this.warningList = null;
  }

  /** Forgets the blast radii and the warning list computed since the last change (benchmarks measure uncached reads). */
  forgetDerived(): void {
    this.changed();
  }

  private linkDeclared(name: string, { declared: d, self }: Held): void {
    if (d === NOTHING) return;
    const node = recordNode(self);
    if (d.system) link(this.members, d.system, name);
    for (const target of d.dependsOn) {
      link(this.usedBy, target, name);
      this.dependents.addEdge(recordNode(this.idOf(this.nameIds, target)), node);
    }
    for (const api of d.providesApis) {
      link(this.providers, api.name, name);
      this.dependents.addEdge(node, apiNode(this.idOf(this.apiIds, api.name)));
    }
    for (const api of d.consumesApis) {
      link(this.consumers, api, name);
      this.dependents.addEdge(apiNode(this.idOf(this.apiIds, api)), node);
    }
  }

  /** The reverse of linkDeclared: every name it numbered has its number already. */
  private unlinkDeclared(name: string, { declared: d, self }: Held): void {
    if (d === NOTHING) return;
    const node = recordNode(self);
    if (d.system) unlink(this.members, d.system, name);
    for (const target of d.dependsOn) {
      unlink(this.usedBy, target, name);
      this.dependents.removeEdge(recordNode(this.nameIds.get(target)!), node);
    }
    for (const api of d.providesApis) {
      unlink(this.providers, api.name, name);
      this.dependents.removeEdge(node, apiNode(this.apiIds.get(api.name)!));
    }
    for (const api of d.consumesApis) {
      unlink(this.consumers, api, name);
      this.dependents.removeEdge(apiNode(this.apiIds.get(api)!), node);
    }
  }

  /** Edges out of a record: what it depends on, declared or through an API it consumes (its provider). */
  private edgesOut(name: string): GraphEdge[] {
    const d = this.held.get(name)?.declared ?? NOTHING;
    const out: GraphEdge[] = d.dependsOn.map((to) => ({ from: name, to, kind: "dependsOn", api: null }));
    for (const api of d.consumesApis) for (const to of sortedNames(this.providers.get(api) ?? NO_NAMES, name)) out.push({ from: name, to, kind: "consumesApi", api });
    return out;
  }

  /** Who depends on a record, declared or by consuming an API it provides, in name order: read lazily, a graph stops at its node bound. */
  private *dependentNames(name: string): Generator<string, void, undefined> {
    yield* inNameOrder(this.usedBy.get(name) ?? NO_NAMES);
    for (const api of this.held.get(name)?.declared.providesApis ?? []) yield* inNameOrder(this.consumers.get(api.name) ?? NO_NAMES, name);
  }


  /** How many components depend on `name`, directly or transitively; 0 for a name no record holds. */
  blastRadius(name: string): number {
    if (!this.held.has(name)) return 0;
    let n = this.radius.get(name);
    if (n === undefined) {
      this.radius.set(name, (n = this.dependents.reachableCount(recordNode(this.held.get(name)!.self), isRecordNode)));
    }
    return n;
  }

  /** A record's relations as its page shows them; null when no record has the name. */
  view(name: string): ComponentRelations | null {
    const held = this.held.get(name);
    if (!held) return null;
    const d = held.declared;
    return {
      system: d.system ? { name: d.system, members: nameList(this.members.get(d.system)) } : null,
      dependsOn: d.dependsOn.map((n) => ({ name: n, exists: this.held.has(n) })),
      usedBy: nameList(this.usedBy.get(name)),
      providesApis: d.providesApis.map((api) => ({
        name: api.name,
        type: api.type,
        path: api.path,
        consumers: nameList(this.consumers.get(api.name)),
        otherProviders: sortedNames(this.providers.get(api.name) ?? NO_NAMES, name),
      })),
      consumesApis: d.consumesApis.map((api) => ({ name: api, providers: sortedNames(this.providers.get(api) ?? NO_NAMES) })),
      blastRadius: this.blastRadius(name),
      warnings: this.warningsOfHeld(held),
    };
  }

  private warningsOfHeld({ record, declared: d }: Held): RelationWarning[] {
    if (d === NOTHING) return [];
    const out: RelationWarning[] = [];
    const warn = (path: string, message: string) => out.push({ name: record.name, file: record.file, path, message });
    d.dependsOn.forEach((target, i) => {
      if (!this.held.has(target)) warn(`spec.dependsOn[${i}]`, `depends on "${target}", which no record of the catalog has as its name`);
    });
    d.providesApis.forEach((api, i) => {
      const others = sortedNames(this.providers.get(api.name) ?? NO_NAMES, record.name);
      if (others.length) warn(`spec.providesApis[${i}].name`, `the API "${api.name}" is also provided by ${others.join(", ")}: an API has one provider`);
    });
    d.consumesApis.forEach((api, i) => {
      if (!this.providers.get(api)?.size) warn(`spec.consumesApis[${i}]`, `consumes the API "${api}", which no component provides`);
    });
    return out;
  }

  /** Every warning of the catalog, by component name (what /catalog/errors lists). */
  warnings(): RelationWarning[] {
    if (this.warningList) return this.warningList;
    const out: RelationWarning[] = [];
    for (const name of sortedNames(this.held.keys())) {
      const held = this.held.get(name)!;
      if (held.declared !== NOTHING) out.push(...this.warningsOfHeld(held));
    }
    return (this.warningList = out);
  }

  /**
   * The neighbourhood of a record within `depth` hops: down (what it depends on), up (what depends on it)
   * or both; the nodes (a missing record included, marked) and every edge between two of them. Null when
   * no record has the name.
   */
  graph(root: string, depth: number, direction: GraphDirection, maxNodes = GRAPH_NODES_MAX): ComponentGraph | null {
    if (!this.held.has(root)) return null;
    const down = direction !== "up";
    const up = direction !== "down";
    const edgesOut = (n: string) => this.edgesOut(n);
    const dependentNames = (n: string) => this.dependentNames(n);
    function* next(n: string): Generator<string, void, undefined> {
      if (down) for (const e of edgesOut(n)) yield e.to;
      if (up) yield* dependentNames(n);
    }
    const { distances, truncated } = neighbourhood(root, depth, next, maxNodes, (n) => this.held.has(n));
    const nodes: GraphNode[] = [];
    const edges: GraphEdge[] = [];
    for (const [name, distance] of distances) {
      const component = this.held.get(name)?.record.component;
      nodes.push({
        name,
        displayName: component?.metadata.displayName ?? null,
        kind: component?.spec.kind ?? null,
        system: component?.spec.system ?? null,
        missing: !component,
        distance,
      });
      if (component) for (const e of this.edgesOut(name)) if (distances.has(e.to)) edges.push(e);
    }
    return { root, depth, direction, nodes, edges, truncated, blastRadius: this.blastRadius(root) };
  }
}
