"use client";

/** Ends the session (POST /api/auth/logout) and loads `to`, so every view forgets the user. */
export async function signOut(to = "/?signedOut=1"): Promise<void> {
  const response = await fetch("/api/auth/logout", { method: "POST", headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`sign-out failed (${response.status})`);
  window.location.assign(to);
}
