/**
 * Every environment variable the code of the portal and of the offers service reads is one a schema of lib/env
 * declares (and so described in docs/operations/settings.md): a variable read around the schemas would be
 * undocumented and unchecked. Scans the source; tests are left out, they may set anything.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { baseSchema } from "./base";
import { offersOwnSchema } from "./offers";
import { portalOwnSchema } from "./portal";
import { toolingSchema } from "./tooling";

/** Variables read by name that are not ours to declare, with who sets them. */
const NOT_OURS: Record<string, string> = {
  NEXT_RUNTIME: "set by Next.js: the runtime loading instrumentation.ts (nodejs or edge)",
  NEXT_PHASE: "set by Next.js: instrumentation.ts does nothing while `next build` collects pages",
};

/** Files that read variables by a computed name, with what they read and why. */
const COMPUTED_READS: Record<string, string> = {
  "lib/scm/git.ts": "hands git the host's PATH, HOME, LANG, LC_ALL, TMPDIR, USER and SYSTEMROOT, and nothing else of the environment",
  "test-support/db/test-databases.ts": "TEST_DATABASE_RUN through its exported constant (declared in tooling.ts; the test setup sets it)",
};

const ROOT_FILES = ["instrumentation.ts", "proxy.ts", "next.config.mjs"];
const SOURCE_DIRS = ["lib", "app", "components", "test-support"];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" || entry.name === "node_modules" ? [] : sourceFiles(file);
    return /\.(ts|tsx|mjs|js)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

interface Read {
  file: string;
  name: string;
}

function scan(): { named: Read[]; computed: string[] } {
  const named: Read[] = [];
  const computed = new Set<string>();
  for (const file of [...ROOT_FILES, ...SOURCE_DIRS.flatMap(sourceFiles)]) {
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(/process\.env(?:\?\.|\.)([A-Za-z_]\w*)|process\.env\[\s*(["'`])(\w+)\2\s*\]/g)) named.push({ file, name: match[1] ?? match[3]! });
    for (const match of text.matchAll(/\{([^{}]*)\}\s*=\s*process\.env\b/g)) {
      for (const part of match[1]!.split(",")) {
        const name = part.split(/[:=]/)[0]!.trim();
        if (name && !name.startsWith("...")) named.push({ file, name });
      }
    }
    if (/process\.env\[\s*[^\s"'`\]]/.test(text)) computed.add(file.split(path.sep).join("/"));
  }
  return { named, computed: [...computed].sort() };
}

const declared = new Set([baseSchema, offersOwnSchema, portalOwnSchema, toolingSchema].flatMap((schema) => Object.keys(schema.shape)));

describe("environment variables read by the code", () => {
  const { named, computed } = scan();

  it("finds the reads (so a pass means something)", () => {
    expect(named.length).toBeGreaterThan(10);
    expect(named).toContainEqual({ file: "lib/offers/tracing.ts", name: "OTEL_EXPORTER_OTLP_ENDPOINT" });
  });

  it("are each declared by a schema of lib/env, or listed as not ours", () => {
    const undeclared = named.filter(({ name }) => !declared.has(name) && !(name in NOT_OURS)).map(({ file, name }) => `${file}: process.env.${name}`);
    expect(undeclared, "declare each in lib/env (base, offers, portal or tooling) with a .describe(), then run `npm run settings:reference`").toEqual([]);
  });

  it("by a computed name only in the files listed, with the reason", () => {
    expect(computed).toEqual(Object.keys(COMPUTED_READS).sort());
  });

  it("lists no exception that is no longer needed", () => {
    for (const name of Object.keys(NOT_OURS)) expect(named.some((read) => read.name === name), `${name} is read nowhere now`).toBe(true);
    for (const name of Object.keys(NOT_OURS)) expect(declared.has(name), `${name} is declared in lib/env now`).toBe(false);
  });
});
