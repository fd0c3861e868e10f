// GET /api/components/:name/graph?depth=1..3&direction=both|down|up → the nodes and edges around the component
// (lib/catalog/relations.ts), at most GRAPH_NODES_MAX nodes, the nearest first (truncated says when more were left out).
import { ComponentGraphAnswer, ComponentGraphQuery } from "@/lib/portal/contracts/components";
import { componentNotFound, componentParams, json, route } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

export const GET = route({
  doc: { responses: { 200: { description: "The component's neighbourhood: nodes (missing records marked) and the edges between them", schema: ComponentGraphAnswer } }, errors: ["not-found"] },
  params: componentParams,
  query: ComponentGraphQuery,
  handler: async ({ params: { name }, query: { depth, direction }, services }) => {
    const graph = (await services.catalog()).relations.graph(name, depth, direction);
    if (!graph) throw componentNotFound(name);
    return json(graph);
  },
});
