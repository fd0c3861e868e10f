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
  // Browsers drop tabs and newlines from a URL ("/\t/evil" becomes "//evil") and read a backslash as "/".
  if (/[\u0000-\u001f\u007f]/.test(candidate)) return fallback;
  if (candidate.startsWith("/auth/")) return fallback;
  return candidate;
}

/** The sign-in page, returning to `path` afterwards. */
export function signInPath(path?: string): string {
  const back = safeCallbackPath(path, "");
  return back ? `/auth/signin?callbackUrl=${encodeURIComponent(back)}` : "/auth/signin";
}

/**
 * next-auth's redirect callback: where a sign-in or sign-out lands. Always a page of this site: a path
 * of it, or an absolute URL of its own origin; anything else (another host, \\host/x, which
 * browsers read as //host/x, or text that is no URL at all) lands on the home page instead of failing.
 */
export function signInLanding(url: string, baseUrl: string): string {
  let path = "/";
  if (/^https?:\/\//i.test(url)) {
    try {
      const parsed = new URL(url);
      if (parsed.origin === new URL(baseUrl).origin) path = safeCallbackPath(`${parsed.pathname}${parsed.search}${parsed.hash}`);
    } catch {
      // not a URL: the home page
    }
  } else {
    path = safeCallbackPath(url);
  }
  return `${baseUrl}${path}`;
}
