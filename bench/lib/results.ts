/**
 * Bench figures as data: a run appends one row per figure to bench/results/<bench>.tsv, so a new figure
 * needs no prose commit and the history stays in one place. The columns are described in
 * bench/results/README.md; docs/operations/benchmarks.md quotes the latest figure of each bench.
 *
 *   BENCH_RESULTS=off          measure without appending (a profiling run, an experiment)
 *   BENCH_RESULTS_NOTE="…"     a note on every row of the run (the build or the change being measured)
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { availableParallelism, hostname, loadavg } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const RESULTS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "results");

export const RESULT_COLUMNS = ["date", "commit", "host", "load_avg", "parameters", "figure", "value", "unit", "target", "met", "note"] as const;

/** Settings outside BENCH_* that change what a bench measures, recorded with its figures when set. */
const RECORDED_SETTINGS = ["OFFERS_DATABASE_POOL_SIZE", "OFFERS_RATE_LIMIT_CLIENT_PER_MINUTE", "OFFERS_RATE_LIMIT_SERVER_PER_MINUTE", "OFFERS_SURFACING_CONCURRENCY", "PORTAL_RATE_LIMIT_PER_MINUTE"];

export interface Target {
  /** As people read it: ">= 0.9", "< 25", "all held". */
  text: string;
  met: boolean;
}

interface Figure {
  figure: string;
  value: number;
  unit: string;
  target?: Target;
}

/** A cell: no tab or line break may split the row. */
const cell = (value: string) => value.replace(/[\t\r\n]+/g, " ").trim();

/** Enough digits for every figure the benches print (µs, ms, ratios), none of the float noise. */
const formatValue = (value: number) => (Number.isFinite(value) ? String(Math.round(value * 1000) / 1000) : "");

function gitCommit(): string {
  try {
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { stdio: ["ignore", "pipe", "ignore"] }).toString().trim();
    const changed = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], { stdio: ["ignore", "pipe", "ignore"] }).toString().trim();
    return changed ? `${commit}+changes` : commit;
  } catch {
    return "";
  }
}

/**
 * What the run was asked for: the bench's own parameters, its command-line arguments, and the
 * settings that change its figures (BENCH_* and the few above; URLs are left out: they may carry a password).
 */
function runParameters(own: Record<string, string | number>): string {
  const settings = Object.entries(process.env)
    .filter(([name, value]) => value !== undefined && value !== "" && ((name.startsWith("BENCH_") && !name.startsWith("BENCH_RESULTS") && !name.endsWith("_URL") && name !== "BENCH_SSE_CHILD") || RECORDED_SETTINGS.includes(name)))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, value]) => `${name}=${value}`);
  const args = process.argv.slice(2).join(" ");
  return [...Object.entries(own).map(([name, value]) => `${name}=${value}`), ...(args ? [args] : []), ...settings].join(" ");
}

/**
 * The figures of one bench run, appended to bench/results/<bench>.tsv by `save()`.
 * `parameters` are what a figure depends on beyond its name (e.g. `records: 100000`).
 */
export class BenchResults {
  private readonly figures: Figure[] = [];
  private readonly parameters: Record<string, string | number>;

  constructor(
    readonly bench: string,
    parameters: Record<string, string | number> = {},
  ) {
    this.parameters = { ...parameters };
  }

  /** Adds (or replaces) a parameter known only once the run has started. */
  parameter(name: string, value: string | number): this {
    this.parameters[name] = value;
    return this;
  }

  /** One figure; `target` when the bench has one for it (then `met` is recorded beside it). */
  record(figure: string, value: number, unit: string, target?: Target): this {
    this.figures.push({ figure, value, unit, ...(target ? { target } : {}) });
    return this;
  }

  get file(): string {
    return path.join(RESULTS_DIR, `${this.bench}.tsv`);
  }

  /** Appends the run's figures (header first if the file is new); answers the file, or nothing when off. */
  save(note = ""): string | undefined {
    if (process.env.BENCH_RESULTS === "off" || this.figures.length === 0) return undefined;
    const file = this.file;
    if (!existsSync(file)) appendFileSync(file, `${RESULT_COLUMNS.join("\t")}\n`);
    else {
      const header = readFileSync(file, "utf8").split("\n", 1)[0];
      if (header !== RESULT_COLUMNS.join("\t")) throw new Error(`${file} has other columns than ${RESULT_COLUMNS.join(", ")}; not appending`);
    }
    const run = {
      date: new Date().toISOString().slice(0, 19) + "Z",
      commit: gitCommit(),
      host: `${hostname()} (${availableParallelism()} cores)`,
      load_avg: loadavg()[0]!.toFixed(1),
      parameters: runParameters(this.parameters),
    };
    const runNote = [note, process.env.BENCH_RESULTS_NOTE ?? ""].filter(Boolean).join("; ");
    const rows = this.figures.map((f) =>
      [run.date, run.commit, run.host, run.load_avg, run.parameters, f.figure, formatValue(f.value), f.unit, f.target?.text ?? "", f.target ? (f.target.met ? "yes" : "no") : "", runNote]
        .map((value) => cell(String(value)))
        .join("\t"),
    );
    appendFileSync(file, `${rows.join("\n")}\n`);
    console.log(`\n${this.figures.length} figure${this.figures.length === 1 ? "" : "s"} appended to ${path.relative(process.cwd(), file)}`);
    return file;
  }
}
