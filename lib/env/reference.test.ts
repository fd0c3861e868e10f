import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { defaultOf, SETTINGS_REFERENCE_FILE, settingsReference, settingsSections } from "./reference";

describe("the settings reference", () => {
  it("is what the schemas describe (docs/operations/settings.md is generated)", () => {
    let committed = "";
    try {
      committed = readFileSync(SETTINGS_REFERENCE_FILE, "utf8");
    } catch {
      // Missing: compared as empty, with the same instruction.
    }
    expect(committed, `${SETTINGS_REFERENCE_FILE} differs from what lib/env/ describes: run \`npm run settings:reference\` and commit the file`).toBe(settingsReference());
  });

  it("describes every variable: what it is, and an example", () => {
    for (const { title, schema } of settingsSections) {
      for (const [name, field] of Object.entries(schema.shape) as Array<[string, z.ZodType]>) {
        expect(field.description, `${title}: ${name} has no .describe()`).toBeTruthy();
        expect(field.description, `${title}: ${name}'s description gives no example`).toMatch(/Example: /);
      }
    }
  });

  it("lists each variable in one section only", () => {
    const names = settingsSections.flatMap(({ schema }) => Object.keys(schema.shape));
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
  });

  it("shows a default as the service sees it when the variable is unset", () => {
    const [shared, offers, portal] = settingsSections.map(({ schema }) => schema.shape as Record<string, z.ZodType>);
    expect(defaultOf(shared!.DATABASE_TIMEOUT_MS!)).toBe("`5000`");
    expect(defaultOf(shared!.REDIS_URL!)).toBe("unset");
    expect(defaultOf(shared!.REDIS_PREFIX!)).toBe("empty");
    expect(defaultOf(offers!.OFFERS_TRUST_PROXY!)).toBe("unset");
    expect(defaultOf(offers!.OFFERS_WEBHOOK_ALLOW_PRIVATE!)).toBe("off");
    expect(defaultOf(portal!.SCM_PROVIDER!)).toBe("`local`");
  });
});
