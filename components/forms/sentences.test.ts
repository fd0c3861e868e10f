import { describe, expect, it } from "vitest";
import { z } from "zod";
import { issueSentence, lengthHint, maxLengthOf, sentenceResolver } from "./sentences";

const resolve = async <I extends Record<string, unknown>, O>(schema: z.ZodType<O, I>, values: I, labels: Record<string, string>) =>
  (await sentenceResolver(schema, labels)(values, undefined, { fields: {}, shouldUseNativeValidation: false })).errors;

describe("form messages for people", () => {
  it("reads a limit from the schema the server enforces", () => {
    expect(maxLengthOf(z.string().max(200))).toBe(200);
    expect(maxLengthOf(z.url().max(2048).refine(() => true))).toBe(2048);
    expect(() => maxLengthOf(z.string())).toThrow();
    expect(lengthHint(2048)).toBe("At most 2,048 characters.");
  });

  it("says each field's first issue as a sentence naming it by its label", async () => {
    const schema = z.object({
      url: z.string().min(1, "Enter the URL.").max(10).regex(/^h/, "must start with h"),
      actor: z.string().max(3),
      note: z.string().min(2),
      other: z.string().regex(/^x$/),
    });
    const errors = await resolve(schema, { url: "ftp://a", actor: "abcdef", note: "a", other: "y" }, { url: "The URL", actor: "Actor", note: "The note", other: "Other" });
    expect(errors).toEqual({
      url: { type: "invalid_format", message: "The URL must start with h." },
      actor: { type: "too_big", message: "Actor can be at most 3 characters; this one has 6." },
      note: { type: "too_small", message: "The note needs at least 2 characters." },
      other: { type: "invalid_format", message: "Other is not valid." },
    });
    expect((await resolve(schema, { url: "", actor: "", note: "ab", other: "x" }, { url: "The URL" })).url?.message).toBe("Enter the URL.");
  });

  it("keeps the counts readable", () => {
    const issue = z.string().max(2048).safeParse("a".repeat(10_022)).error!.issues[0];
    expect(issueSentence(issue, "The endpoint URL", "a".repeat(10_022))).toBe("The endpoint URL can be at most 2,048 characters; this one has 10,022.");
  });
});
