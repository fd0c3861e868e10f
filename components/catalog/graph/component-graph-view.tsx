// A component's graph page: the blast radius in numbers and words, the depth (1 to 3) and direction chosen by
// links (each a URL, so Back works), the drawing, and the same relations as a text list.
import { Fragment } from "react";
import { Alert, Badge, Card } from "@/components/ui";
import { Link } from "@/components/ui/link";
import { GRAPH_DEPTH_MAX, GRAPH_DIRECTIONS, GRAPH_NODES_MAX, type ComponentGraph, type GraphDirection } from "@/lib/catalog/relation-schema";
import { GraphCanvas } from "./graph-canvas";
import { blastRadiusSentence, graphHref, relationsAsText, type Neighbour } from "./graph-layout";
import styles from "./graph.module.css";

const DIRECTION_LABEL: Record<GraphDirection, string> = { both: "Both ways", down: "What it depends on", up: "What depends on it" };

function Segments<T extends string | number>({ label, values, current, text, href }: { label: string; values: readonly T[]; current: T; text: (v: T) => string; href: (v: T) => string }) {
  return (
    <nav aria-label={label}>
      <span className="muted">{label}: </span>
      <ul className={styles.segments}>
        {values.map((v) => (
          <li key={v}>
            <Link href={href(v)} className={styles.segment} aria-current={v === current ? "page" : undefined} data-testid={`graph-${label.toLowerCase()}-${v}`}>
              {text(v)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Names({ list, depth, direction }: { list: Neighbour[]; depth: number; direction: GraphDirection }) {
  if (!list.length) return <span className="muted">none shown</span>;
  return (
    <>
      {list.map((n, i) => (
        <Fragment key={n.name}>
          {i ? ", " : null}
          {n.missing ? <code>{n.name}</code> : <Link href={graphHref(n.name, depth, direction)}>{n.name}</Link>}
          {n.label !== "depends on" ? <span className="muted"> ({n.label.replace("depends on + ", "")})</span> : null}
        </Fragment>
      ))}
    </>
  );
}

export function ComponentGraphView({ graph, notice }: { graph: ComponentGraph; notice?: string }) {
  const { root, depth, direction } = graph;
  const depths = Array.from({ length: GRAPH_DEPTH_MAX }, (_, i) => i + 1);
  return (
    <div className="stack">
      <p>
        <Link href={`/catalog/${root}`}>← {root}</Link>
      </p>
      <h1>Dependency graph of {root}</h1>
      <Card title="Blast radius">
        <p data-testid="graph-blast-radius" className={styles.radius}>
          {blastRadiusSentence(root, graph.blastRadius)}
        </p>
        <p className="muted">It counts every component with a chain of dependencies to {root} (declared in spec.dependsOn, or consuming an API it provides), however long the chain: the depth below only limits what is drawn.</p>
      </Card>
      <div className={styles.controls}>
        <Segments label="Depth" values={depths} current={depth} text={(d) => `${d} ${d === 1 ? "hop" : "hops"}`} href={(d) => graphHref(root, d, direction)} />
        <Segments label="Direction" values={GRAPH_DIRECTIONS} current={direction} text={(d) => DIRECTION_LABEL[d]} href={(d) => graphHref(root, depth, d)} />
      </div>
      {notice ? <Alert tone="warning">{notice}</Alert> : null}
      {graph.truncated ? <Alert tone="warning">More than {GRAPH_NODES_MAX} components are within {depth} hops: the nearest {GRAPH_NODES_MAX} are shown. Choose a smaller depth or one direction.</Alert> : null}
      <p className="muted">
        Arrows point from a component to what it depends on; dashed arrows are consumed APIs. Select a component to centre the graph on it.
      </p>
      <GraphCanvas graph={graph} />
      <section aria-labelledby="graph-as-text">
        <h2 id="graph-as-text">The same relations as a list</h2>
        <ul className={styles.textList} data-testid="graph-text-list">
          {relationsAsText(graph).map(({ node, dependsOn, usedBy }) => (
            <li key={node.name} data-name={node.name}>
              {node.missing ? (
                <>
                  <code>{node.name}</code> <Badge tone="warning">not in the catalog</Badge>
                </>
              ) : node.name === root ? (
                <strong>{node.name}</strong>
              ) : (
                <Link href={graphHref(node.name, depth, direction)}>{node.name}</Link>
              )}{" "}
              <span className="muted">({node.distance === 0 ? "shown" : `${node.distance} ${node.distance === 1 ? "hop" : "hops"} away`})</span>
              {node.missing ? null : (
                <>
                  <br />
                  depends on: <Names list={dependsOn} depth={depth} direction={direction} />
                  <br />
                  used by: <Names list={usedBy} depth={depth} direction={direction} />
                </>
              )}
            </li>
          ))}
        </ul>
        <p className="muted">Only relations between the components shown are listed; a component at the edge of the depth may have more.</p>
      </section>
    </div>
  );
}
