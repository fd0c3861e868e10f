/**
 * A component's API docs: the definition an entry of spec.providesApis names, read through the source-control
 * provider at the repository's default branch or at a tag, size-checked, and (OpenAPI) linted server side with
 * Redocly's minimal rules. External $refs are never followed: a definition is one file of its repository, and
 * the lint must read nothing from the portal's disk or network.
 */
import { BaseResolver, createConfig, lintFromString, type Config } from "@redocly/openapi-core";
import { parse } from "yaml";
import type { Component } from "../catalog/schema";
import type { ScmProvider } from "../scm/types";
import { PortalError } from "./errors";
import { API_DEFINITION_LIMIT_IN_WORDS, API_DEFINITION_MAX_BYTES, type ApiDocsAnswer, type ApiLintProblem, type ApiRef } from "./contracts/api-docs";

/** Refuses every external reference, so linting a repository's file touches nothing outside it. */
class NoExternalRefs extends BaseResolver {
  override loadExternalRef(absoluteRef: string): Promise<never> {
    return Promise.reject(new Error(`external references are not followed (${absoluteRef}): the definition must be one file`));
  }
}

let lintConfig: Promise<Config> | null = null;
const config = () => (lintConfig ??= createConfig({ extends: ["minimal"] }));

/** Lint errors of an OpenAPI definition (warnings are left to the component's own CI). */
export async function lintOpenApi(source: string, where: string): Promise<ApiLintProblem[]> {
  const problems = await lintFromString({ source, absoluteRef: `/${where}`, config: await config(), externalRefResolver: new NoExternalRefs() });
  return problems
    .filter((p) => p.severity === "error")
    .map((p) => ({ path: p.location[0]?.pointer ?? "#/", message: p.message, rule: p.ruleId }));
}

const apiNotFound = (component: string, api: string) => new PortalError("not-found", `the component "${component}" provides no API named "${api}"`);

/** The refs a definition can be read at: the default branch, then the tags newest first. */
async function refsOf(scm: ScmProvider, repository: string, defaultBranch: string): Promise<ApiRef[]> {
  const tags = await scm.listTags(repository);
  const newest = [...tags].sort((a, b) => (b.createdAt ?? "").localeCompare(a.createdAt ?? "") || b.name.localeCompare(a.name, undefined, { numeric: true }));
  return [{ name: defaultBranch, kind: "branch" }, ...newest.map((t) => ({ name: t.name, kind: "tag" as const }))];
}

/** One API of a component at a ref: not-found for an API the record does not list or a ref that is neither the default branch nor a tag. */
export async function readApiDocs(scm: ScmProvider, name: string, component: Component, apiName: string, ref?: string): Promise<ApiDocsAnswer> {
  const api = component.spec.providesApis?.find((a) => a.name === apiName);
  if (!api) throw apiNotFound(name, apiName);
  const repository = component.spec.repo.path;
  const base = { component: name, api: { name: api.name, type: api.type, path: api.path }, repository, maxBytes: API_DEFINITION_MAX_BYTES, problems: [], document: null };
  const repo = await scm.getRepository(repository);
  if (!repo) {
    return { ...base, ref: ref ?? "", refs: [], state: "missing", detail: `The repository ${repository} does not exist in source control.`, size: null, definition: null };
  }
  const refs = await refsOf(scm, repository, repo.defaultBranch);
  const at = ref ?? repo.defaultBranch;
  if (!refs.some((r) => r.name === at)) throw new PortalError("not-found", `"${at}" is neither the default branch nor a tag of ${repository}`);
  const text = await scm.readFile(repository, api.path, at);
  const answer = { ...base, ref: at, refs };
  if (text === null) return { ...answer, state: "missing", detail: `There is no file ${api.path} in ${repository} at ${at}.`, size: null, definition: null };
  const size = Buffer.byteLength(text, "utf8");
  if (size > API_DEFINITION_MAX_BYTES) {
    return { ...answer, state: "too-large", detail: `${api.path} is ${size.toLocaleString("en")} bytes, over the limit of ${API_DEFINITION_LIMIT_IN_WORDS}: the portal does not read it.`, size, definition: null };
  }
  if (api.type !== "openapi") return { ...answer, state: "raw", detail: null, size, definition: text };
  const problems = await lintOpenApi(text, `${repository}/${api.path}`);
  if (problems.length) {
    const detail = `${api.path} at ${at} has ${problems.length === 1 ? "1 lint error" : `${problems.length} lint errors`}; fix ${problems.length === 1 ? "it" : "them"} in the component's repository.`;
    return { ...answer, state: "invalid", detail, size, definition: text, problems };
  }
  return { ...answer, state: "valid", detail: null, size, definition: text, document: parse(text) as Record<string, unknown> };
}
