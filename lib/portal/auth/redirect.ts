// Where a sign-in returns to: only a path of this site (never another origin).

export function safeCallbackPath(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || !value) return fallback;
  // Absolute URLs are reduced to their path when they point here; next-auth hands those back.
  let candidate = value;
  if (/^https?:\/\//i.test(candidate)) {
    try {
      const url = new URL(candidate);
      candidate = `${url.pathname}${url.search}${url.hash}`;
    } catch {
      return fallback;
    }
  }
  if (!candidate.startsWith("/") || candidate.startsWith("//") || candidate.startsWith("/\\")) return fallback;
  if (candidate.startsWith("/auth/")) return fallback;
  return candidate;
}

/** The sign-in page, returning to `path` afterwards. */
export function signInPath(path?: string): string {
  const back = safeCallbackPath(path, "");
  return back ? `/auth/signin?callbackUrl=${encodeURIComponent(back)}` : "/auth/signin";
}
