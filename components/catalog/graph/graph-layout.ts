/**
 * A component's neighbourhood (GET /api/components/:name/graph, lib/catalog/relations.ts) made ready to draw and
 * to read: one edge per pair of components (a declared dependency and a consumed API between the same two merge,
 * their label says both), positions from dagre (top to bottom: what depends on the root above it, what it depends
 * on below), and the same relations as text, node by node, for screen readers and narrow screens. Pure functions:
 * no React, no browser.
 */
import dagre from "@dagrejs/dagre";
import type { ComponentGraph, GraphDirection, GraphNode } from "@/lib/catalog/relation-schema";

/** The graph page of a component: its URL carries the depth and direction, so re-centring keeps them and Back returns. */
export function graphHref(name: string, depth: number, direction: GraphDirection): string {
  const query = new URLSearchParams();
  if (depth !== 1) query.set("depth", String(depth));
  if (direction !== "both") query.set("direction", direction);
  const q = query.toString();
  return `/catalog/${encodeURIComponent(name)}/graph${q ? `?${q}` : ""}`;
}

export const NODE_WIDTH = 176;
export const NODE_HEIGHT = 56;

/** One arrow: `from` depends on `to`, declared (spec.dependsOn) and/or through the APIs it consumes from `to`. */
export interface MergedEdge {
  id: string;
  from: string;
  to: string;
  declared: boolean;
  apis: string[];
  label: string;
}

export interface PlacedNode {
  node: GraphNode;
  root: boolean;
  /** Top-left corner, as React Flow places a node. */
  x: number;
  y: number;
}

export interface GraphLayout {
  nodes: PlacedNode[];
  edges: MergedEdge[];
}

/** What an arrow says: "depends on", "API payments", or both. */
export function edgeLabel(declared: boolean, apis: readonly string[]): string {
  const parts: string[] = [];
  if (declared) parts.push("depends on");
  if (apis.length) parts.push(`${apis.length === 1 ? "API" : "APIs"} ${apis.join(", ")}`);
  return parts.join(" + ");
}

/** The graph's edges, one per ordered pair, in the order the pairs first appear. */
export function mergeEdges(graph: Pick<ComponentGraph, "edges">): MergedEdge[] {
  const byPair = new Map<string, Omit<MergedEdge, "label">>();
  for (const e of graph.edges) {
    const id = `${e.from}>${e.to}`;
    let m = byPair.get(id);
    if (!m) byPair.set(id, (m = { id, from: e.from, to: e.to, declared: false, apis: [] }));
    if (e.kind === "dependsOn") m.declared = true;
    else if (e.api && !m.apis.includes(e.api)) m.apis.push(e.api);
  }
  return [...byPair.values()].map((m) => ({ ...m, label: edgeLabel(m.declared, m.apis) }));
}

/** Positions for every node (dagre, ranks top to bottom along the dependency arrows). */
export function layoutGraph(graph: Pick<ComponentGraph, "root" | "nodes" | "edges">): GraphLayout {
  const edges = mergeEdges(graph);
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: "TB", nodesep: 24, ranksep: 64, marginx: 8, marginy: 8 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of graph.nodes) g.setNode(n.name, { width: NODE_WIDTH, height: NODE_HEIGHT });
  for (const e of edges) g.setEdge(e.from, e.to);
  dagre.layout(g);
  const nodes = graph.nodes.map((node) => {
    const at = g.node(node.name);
    return { node, root: node.name === graph.root, x: at.x - NODE_WIDTH / 2, y: at.y - NODE_HEIGHT / 2 };
  });
  return { nodes, edges };
}

/** A neighbour in the text list: its name, whether a record has it, and how the two are related. */
export interface Neighbour {
  name: string;
  missing: boolean;
  label: string;
}

/** One node of the text list: what it depends on and what depends on it, among the graph's nodes. */
export interface NodeRelations {
  node: GraphNode;
  dependsOn: Neighbour[];
  usedBy: Neighbour[];
}

/** The graph as text: every node (nearest first, as answered) with its edges both ways; each edge appears twice, once from each end. */
export function relationsAsText(graph: Pick<ComponentGraph, "nodes" | "edges">): NodeRelations[] {
  const nodes = new Map(graph.nodes.map((n) => [n.name, n]));
  const out = new Map(graph.nodes.map((n) => [n.name, { node: n, dependsOn: [] as Neighbour[], usedBy: [] as Neighbour[] }]));
  for (const e of mergeEdges(graph)) {
    const from = nodes.get(e.from);
    const to = nodes.get(e.to);
    if (!from || !to) continue;
    out.get(e.from)!.dependsOn.push({ name: e.to, missing: to.missing, label: e.label });
    out.get(e.to)!.usedBy.push({ name: e.from, missing: from.missing, label: e.label });
  }
  return [...out.values()];
}

/** The blast radius in words, for the page and its screen-reader text. */
export function blastRadiusSentence(name: string, radius: number): string {
  if (radius === 0) return `No component depends on ${name}: a change that breaks it reaches no other component.`;
  const who = radius === 1 ? "1 component depends" : `${radius} components depend`;
  return `${who} on ${name}, directly or through others: a change that breaks ${name} can reach ${radius === 1 ? "it" : "all of them"}.`;
}
