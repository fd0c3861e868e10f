"use client";
// The drawn graph (@xyflow/react, laid out by dagre in graph-layout.ts): read only, panned and zoomed. Each node
// is a link that re-centres the graph on it (a new URL, so Back returns), reached by Tab like any link; a name
// no record holds is drawn dashed and links nowhere. The same relations are listed as text beside it
// (graph-text-list.tsx): the drawing adds the shape, never information the list lacks.
import "@xyflow/react/dist/style.css";
import { Background, Controls, Handle, MarkerType, Position, ReactFlow, type Edge, type Node, type NodeProps } from "@xyflow/react";
import { useMemo } from "react";
import { Link } from "@/components/ui/link";
import type { ComponentGraph } from "@/lib/catalog/relation-schema";
import { graphHref, layoutGraph, NODE_HEIGHT, NODE_WIDTH } from "./graph-layout";
import styles from "./graph.module.css";

interface NodeData extends Record<string, unknown> {
  name: string;
  label: string;
  kind: string | null;
  missing: boolean;
  root: boolean;
  href: string;
}

function ComponentNode({ data }: NodeProps<Node<NodeData>>) {
  const body = (
    <>
      <span className={styles.nodeLabel}>{data.label}</span>
      <span className={styles.nodeSub}>{data.missing ? "not in the catalog" : data.root ? `${data.kind ?? ""} · shown` : (data.kind ?? "")}</span>
    </>
  );
  return (
    <>
      <Handle type="target" position={Position.Top} isConnectable={false} className={styles.handle} />
      {data.missing ? (
        <div className={`${styles.node} ${styles.missing}`}>{body}</div>
      ) : (
        <Link
          href={data.href}
          className={`${styles.node} ${data.root ? styles.root : ""} nodrag nopan`}
          aria-current={data.root ? "page" : undefined}
          data-testid="graph-node"
          data-name={data.name}
          aria-label={data.root ? `${data.name} (shown)` : `Re-centre the graph on ${data.name}`}
        >
          {body}
        </Link>
      )}
      <Handle type="source" position={Position.Bottom} isConnectable={false} className={styles.handle} />
    </>
  );
}

const nodeTypes = { component: ComponentNode };
const ignoreNodeClick = () => {};

export function GraphCanvas({ graph }: { graph: ComponentGraph }) {
  const { nodes, edges } = useMemo(() => {
    const layout = layoutGraph(graph);
    const nodes: Node<NodeData>[] = layout.nodes.map(({ node, root, x, y }) => ({
      id: node.name,
      type: "component",
      position: { x, y },
      width: NODE_WIDTH,
      height: NODE_HEIGHT,
      // A named group (not a bare div carrying aria-roledescription): axe asks for a role beside it.
      ariaRole: "group",
      ariaLabel: node.missing ? `${node.name}, not in the catalog` : node.name,
      data: { name: node.name, label: node.displayName ?? node.name, kind: node.kind, missing: node.missing, root, href: graphHref(node.name, graph.depth, graph.direction) },
    }));
    const edges: Edge[] = layout.edges.map((e) => ({
      id: e.id,
      source: e.from,
      target: e.to,
      label: e.apis.length ? e.label : undefined,
      ariaLabel: `${e.from} ${e.label} ${e.to}`,
      markerEnd: { type: MarkerType.ArrowClosed },
      className: e.declared ? undefined : styles.apiEdge,
    }));
    return { nodes, edges };
  }, [graph]);
  return (
    <div className={styles.canvas} data-testid="graph-canvas">
      <ReactFlow
        aria-label={`Dependency graph around ${graph.root}: what depends on it above, what it depends on below`}
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        fitView
        fitViewOptions={{ maxZoom: 1 }}
        minZoom={0.2}
        maxZoom={2}
        // React Flow gives nodes no pointer events when nothing handles them (not selectable, draggable or clickable):
        // a handler, even an empty one, lets a click reach the link each node holds, which navigates.
        onNodeClick={ignoreNodeClick}
        nodesDraggable={false}
        nodesConnectable={false}
        nodesFocusable={false}
        edgesFocusable={false}
        elementsSelectable={false}
        disableKeyboardA11y
        proOptions={{ hideAttribution: true }}
      >
        <Background />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}
