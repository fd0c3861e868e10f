/**
 * Caches a JWT obtained from the game's own server and renews it shortly before it expires.
 * The interface recommends ~15-minute tokens, cached while valid.
 */

export interface JwtProviderOptions {
  /** Renew this many seconds before `exp` (default 60). */
  renewBeforeSeconds?: number;
  now?: () => number;
}

export type JwtProvider = (options?: { forceRefresh?: boolean }) => Promise<string>;

/** Reads `exp` (seconds) from a JWT without verifying it: the client only needs to know when to renew. */
export function jwtExpiry(token: string): number | undefined {
  const payload = token.split(".")[1];
  if (!payload) return undefined;
  try {
    const json = JSON.parse(new TextDecoder().decode(base64UrlDecode(payload))) as { exp?: unknown };
    return typeof json.exp === "number" ? json.exp : undefined;
  } catch {
    return undefined;
  }
}

function base64UrlDecode(text: string): Uint8Array {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(text.length / 4) * 4, "=");
  const binary = atob(base64);
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** Wraps the callback that fetches a token; concurrent callers share one fetch. */
export function createJwtProvider(fetchToken: () => Promise<string>, options: JwtProviderOptions = {}): JwtProvider {
  const renewBefore = options.renewBeforeSeconds ?? 60;
  const now = options.now ?? (() => Date.now());
  let cached: { token: string; renewAt: number } | undefined;
  let inFlight: Promise<string> | undefined;

  return async ({ forceRefresh = false } = {}) => {
    if (!forceRefresh && cached && now() < cached.renewAt) return cached.token;
    inFlight ??= fetchToken()
      .then((token) => {
        const exp = jwtExpiry(token);
        // A token without exp is used once and fetched again next time.
        cached = { token, renewAt: exp ? (exp - renewBefore) * 1000 : 0 };
        return token;
      })
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  };
}
