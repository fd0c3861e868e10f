/**
 * Parsing a service's settings: every variable on its own (its zod schema), then the rules between them
 * (rules.ts). Whatever fails is reported at once, one line per variable or rule, so an operator fixes them in one go.
 */
import type { z } from "zod";
import { baseSchema, type BaseEnv } from "./base";

export class EnvError extends Error {}

/** A rule between settings: null when they agree, else why the service must not start, naming the variables. */
export type SettingsRule<T> = (env: T) => string | null;

/** Where a refused start sends the operator. */
export const SETTINGS_REFERENCE = "docs/operations/settings.md";

/** Parses `source` with `schema`, then checks `rules`; throws EnvError naming every bad variable or broken rule. */
export function parseSettings<S extends z.ZodObject>(service: string, schema: S, rules: readonly SettingsRule<z.infer<S>>[], source: Record<string, string | undefined>): z.infer<S> {
  const result = schema.safeParse(source);
  if (!result.success) {
    throw refusal(
      service,
      result.error.issues.map((issue) => {
        const name = String(issue.path[0] ?? "");
        // A list setting (OFFERS_TRUST_PROXY) names the bad item of the variable.
        const item = typeof issue.path[1] === "number" ? ` (item ${issue.path[1] + 1})` : "";
        return `${name}=${JSON.stringify(source[name] ?? "")}${item}: ${issue.message}`;
      }),
    );
  }
  const broken = rules.map((rule) => rule(result.data)).filter((problem): problem is string => problem !== null);
  if (broken.length) throw refusal(service, broken);
  return result.data;
}

function refusal(service: string, problems: string[]): EnvError {
  const lines = problems.map((problem) => `  ${problem.replaceAll("\n", "\n    ")}`);
  return new EnvError(`Invalid settings of ${service}:\n${lines.join("\n")}\nSee ${SETTINGS_REFERENCE} for what each setting accepts.`);
}

let base: BaseEnv | undefined;

/** Called by a service's getter: the shared settings it parsed are the ones lib/db reads, not parsed again. */
export function rememberBaseEnv(env: BaseEnv): void {
  base ??= env;
}

/** The settings both services share (lib/db reads these), from the process environment. */
export function getBaseEnv(): BaseEnv {
  base ??= parseSettings("this process", baseSchema, [], process.env);
  return base;
}
