// The contract of /api/components/{name}/apis/{api}: one API a component provides (spec.providesApis), its
// definition read from the component's repository at a ref, and what the portal made of it. zod only:
// the page's components import it.
import { z } from "zod";
import { API_TYPES, NAME_PATTERN } from "@/lib/catalog/schema";
import { BRANCH_NAME } from "@/lib/scm/types";

/** Largest definition the portal reads: one mebibyte (1,048,576 bytes). A bigger file is named, not read. */
export const API_DEFINITION_MAX_BYTES = 1024 * 1024;
export const API_DEFINITION_LIMIT_IN_WORDS = "one mebibyte (1 MiB)";

/** {name}/{api} of the route; the API name follows the record's rule for names. */
export const ApiDocsParams = z.object({
  name: z.string().regex(NAME_PATTERN, "a component name is lowercase letters, digits and hyphens"),
  api: z.string().regex(NAME_PATTERN, "an API name is lowercase letters, digits and hyphens"),
});

/** ?ref=: the default branch (when absent) or a tag of the component's repository. */
export const ApiDocsQuery = z.object({
  ref: z.string().regex(BRANCH_NAME, "ref names a branch or a tag").optional(),
});

export const ApiRef = z.object({ name: z.string(), kind: z.enum(["branch", "tag"]) });
export type ApiRef = z.infer<typeof ApiRef>;

export const ApiLintProblem = z.object({
  path: z.string().describe("JSON pointer into the definition, e.g. #/paths/~1pets/get"),
  message: z.string(),
  rule: z.string().describe("The Redocly rule that found it (struct, no-unresolved-refs, …)"),
});
export type ApiLintProblem = z.infer<typeof ApiLintProblem>;

/**
 * What the portal made of the definition:
 * - `valid`: an OpenAPI definition without lint errors (`document` holds it, to render);
 * - `invalid`: an OpenAPI definition with lint errors (`problems`), not rendered;
 * - `raw`: an AsyncAPI or gRPC definition, shown as text (rendering is OpenAPI-only for now);
 * - `missing`: the repository, or the file at this ref, does not exist (`detail` says which);
 * - `too-large`: the file is over the limit (`size`), not parsed.
 */
export const API_DOCS_STATES = ["valid", "invalid", "raw", "missing", "too-large"] as const;
export type ApiDocsState = (typeof API_DOCS_STATES)[number];

export const ApiDocsAnswer = z.object({
  component: z.string(),
  api: z.object({ name: z.string(), type: z.enum(API_TYPES), path: z.string() }),
  repository: z.string().describe("<group>/<project> of the component's repository"),
  ref: z.string().describe("The ref read: the default branch or a tag"),
  refs: z.array(ApiRef).describe("What ?ref= may name: the default branch first, then the tags, newest first"),
  state: z.enum(API_DOCS_STATES),
  detail: z.string().nullable().describe("A sentence for people when the definition is missing, too large or invalid"),
  size: z.number().int().nullable().describe("Bytes of the file, when it exists"),
  maxBytes: z.number().int().describe("The size limit"),
  definition: z.string().nullable().describe("The file's text (null when missing or too large)"),
  document: z.record(z.string(), z.unknown()).nullable().describe("The parsed OpenAPI definition, when valid"),
  problems: z.array(ApiLintProblem).describe("Lint errors of an invalid definition"),
});
export type ApiDocsAnswer = z.infer<typeof ApiDocsAnswer>;
