// GET /api/components/:name/apis/:api?ref= → one API the component provides (spec.providesApis): its definition read
// from the component's repository at the default branch or a tag, and its state (lib/portal/api-docs.ts).
import { ApiDocsAnswer, ApiDocsParams, ApiDocsQuery } from "@/lib/portal/contracts/api-docs";
import { readApiDocs } from "@/lib/portal/api-docs";
import { componentNotFound, json, route } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

export const GET = route({
  doc: {
    responses: { 200: { description: "The API's definition at the ref and its state: valid (with the parsed document), invalid (lint errors with their paths), raw (AsyncAPI, gRPC), missing or too-large", schema: ApiDocsAnswer } },
    errors: ["not-found"],
  },
  params: ApiDocsParams,
  query: ApiDocsQuery,
  handler: async ({ params: { name, api }, query: { ref }, services }) => {
    const entry = (await services.catalog()).get(name);
    if (!entry) throw componentNotFound(name);
    const { scm } = await services.gitops();
    return json(await readApiDocs(scm, entry.name, entry.component, api, ref));
  },
});
