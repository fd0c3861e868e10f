// What the portal does when its server starts (instrumentation.ts): the loud warning about the
// development sign-in in production, and opening the database (migrations, PORTAL_DEV_TOKEN seed).
import "server-only";
import { warnAboutDevLogin } from "./auth/settings";
import { getPortalDb } from "./db";

export async function portalStartup(): Promise<void> {
  warnAboutDevLogin();
  try {
    await getPortalDb();
  } catch (error) {
    // Not fatal: /health answers 503 and the next request retries the open.
    console.error(`[portal] the portal database could not be opened at start: ${(error as Error).message}`);
  }
}
