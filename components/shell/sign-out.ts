"use client";
import { apiFetch } from "@/components/http/api-client";

/** Ends the session (POST /api/auth/logout) and loads `to`, so every view forgets the user. */
export async function signOut(to = "/?signedOut=1"): Promise<void> {
  await apiFetch("/api/auth/logout", { method: "POST" });
  window.location.assign(to);
}
