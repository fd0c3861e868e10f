/**
 * Query plans for tests that read them: a statement's plan as EXPLAIN answers it, and the generic plan of
 * a named statement (the plan a connection may keep after the statement's fifth call, made from the
 * tables as they were then and reused whatever the values), read by preparing the text and explaining an
 * EXECUTE under `plan_cache_mode = force_generic_plan` (PGlite and PostgreSQL alike; EXPLAIN
 * (GENERIC_PLAN) needs PostgreSQL 16).
 */
import { sql, type SQL } from "drizzle-orm";
import { rowsOf, type AppDatabase } from "../../lib/db";

export type PlanNode = { "Node Type": string; "Relation Name"?: string; Plans?: PlanNode[] };

function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

/** How each plan node reads or writes `table` (its node types, e.g. "Index Scan"). */
export function scansOf(plan: PlanNode, table: string): string[] {
  return nodesOf(plan)
    .filter((node) => node["Relation Name"] === table)
    .map((node) => node["Node Type"]);
}

/** Each plan node that reads or writes a table, as "<node type> <table>", e.g. "Index Scan offers_players". */
export function tableNodesOf(plan: PlanNode): string[] {
  return nodesOf(plan)
    .filter((node) => node["Relation Name"])
    .map((node) => `${node["Node Type"]} ${node["Relation Name"]}`);
}

/** A value as an SQL literal for EXECUTE's arguments (arrays as array literals of plain words). */
function literal(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return literal(`{${value.join(",")}}`);
  return `'${String(value).replaceAll("'", "''")}'`;
}

/** The plan in an `explain (format json)` answer (PGlite answers it as text, PostgreSQL as JSON). */
function planIn(result: unknown): PlanNode {
  const [row] = rowsOf<{ "QUERY PLAN": Array<{ Plan: PlanNode }> | string }>(result);
  const explained = row!["QUERY PLAN"];
  return (typeof explained === "string" ? (JSON.parse(explained) as Array<{ Plan: PlanNode }>) : explained)[0]!.Plan;
}

/** The plan `statement` gets now, its values known (a custom plan). */
export async function planOf(db: AppDatabase, statement: SQL): Promise<PlanNode> {
  return planIn(await db.execute(sql`explain (format json) ${statement}`));
}

let probes = 0;

/** The generic plan of `text` (with $1, $2, … for `params`) on `db` as its tables are now. */
export async function genericPlanOf(db: AppDatabase, text: string, params: readonly unknown[]): Promise<PlanNode> {
  const name = `generic_plan_probe_${++probes}`;
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local plan_cache_mode = force_generic_plan`);
    await tx.execute(sql.raw(`prepare ${name} as ${text}`));
    const plan = planIn(await tx.execute(sql.raw(`explain (format json) execute ${name}(${params.map(literal).join(", ")})`)));
    await tx.execute(sql.raw(`deallocate ${name}`));
    return plan;
  });
}
