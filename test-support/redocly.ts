/**
 * `redocly lint` on an OpenAPI document, as CI runs it: the repository's redocly.yaml (the recommended
 * rules, telemetry off), no update check, no network.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export interface LintProblem {
  ruleId: string;
  severity: "error" | "warn";
  message: string;
  /** JSON pointer into the document. */
  pointer: string;
}

interface LintReport {
  problems: Array<{ ruleId: string; severity: "error" | "warn"; message: string; location: Array<{ pointer: string }> }>;
}

export async function redoclyLint(document: object): Promise<LintProblem[]> {
  const root = process.cwd();
  const dir = mkdtempSync(path.join(os.tmpdir(), "openapi-lint-"));
  const file = path.join(dir, "openapi.json");
  writeFileSync(file, JSON.stringify(document, null, 2));
  try {
    const cli = path.join(root, "node_modules/@redocly/cli/bin/cli.js");
    const args = [cli, "lint", file, "--format=json", "--max-problems=10000", `--config=${path.join(root, "redocly.yaml")}`];
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        args,
        { cwd: root, env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" }, maxBuffer: 64 * 1024 * 1024 },
        // Exit code 1 means "problems found": the report says which.
        (error, out, err) => (out.trim().startsWith("{") ? resolve(out) : reject(error ?? new Error(`redocly lint printed no report: ${err}`))),
      );
    });
    const report = JSON.parse(stdout) as LintReport;
    return report.problems.map((p) => ({ ruleId: p.ruleId, severity: p.severity, message: p.message, pointer: p.location[0]?.pointer ?? "" }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One line per problem, for an assertion's message. */
export const describeProblems = (problems: LintProblem[]) => problems.map((p) => `${p.severity} ${p.ruleId} ${p.pointer}: ${p.message}`).join("\n");
