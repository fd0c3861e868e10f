// GET /health: the portal answers and its database too (503 when the database is down).
import { getPortalServices } from "@/lib/portal/services";

export const dynamic = "force-dynamic";

// The first open of an empty embedded database takes a few seconds; on PostgreSQL the ping itself is
// bounded by DATABASE_TIMEOUT_MS (lib/db), and the first open by the connection timeout.
const pingTimeoutMs = 8_000;

export async function GET(): Promise<Response> {
  const headers = { "Cache-Control": "no-store" };
  try {
    await Promise.race([
      getPortalServices()
        .database()
        .then((handle) => handle.ping()),
      new Promise((_, reject) => setTimeout(() => reject(new Error(`no answer within ${pingTimeoutMs} ms`)), pingTimeoutMs).unref()),
    ]);
    return Response.json({ status: "ok", service: "portal", database: "ok" }, { headers });
  } catch (error) {
    return Response.json(
      { status: "unavailable", service: "portal", database: "down", message: `portal database unavailable: ${(error as Error).message}` },
      { status: 503, headers },
    );
  }
}
