// Any other path under /api: a JSON 404, like the offers service, instead of the HTML page for people.
import { PortalError, publicRoute } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

const notFound = publicRoute({
  handler: async ({ request }) => {
    throw new PortalError("not-found", `no API endpoint ${request.method} ${new URL(request.url).pathname}`);
  },
});

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE, notFound as HEAD, notFound as OPTIONS };
