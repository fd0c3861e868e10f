/**
 * Semantic versions of releases: MAJOR.MINOR.PATCH (no pre-release or build parts), tags "v" + version.
 * Staging cuts bump the highest version known (tags of the repository and recorded releases):
 * minor by default (x.y.z → x.(y+1).0), major when asked (x.y.z → (x+1).0.0). The first release is
 * 0.1.0 (minor) or 1.0.0 (major).
 */
export interface SemVer {
  major: number;
  minor: number;
  patch: number;
}

export type ReleaseType = "major" | "minor";

const PATTERN = /^v?(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})$/;

export function parseVersion(text: string): SemVer | null {
  const m = PATTERN.exec(text.trim());
  if (!m) return null;
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]) };
}

export function formatVersion(v: SemVer): string {
  return `${v.major}.${v.minor}.${v.patch}`;
}

export function tagOf(version: string): string {
  return `v${version}`;
}

export function compareVersions(a: SemVer, b: SemVer): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}

export function bump(v: SemVer | null, type: ReleaseType): SemVer {
  if (!v) return type === "major" ? { major: 1, minor: 0, patch: 0 } : { major: 0, minor: 1, patch: 0 };
  return type === "major" ? { major: v.major + 1, minor: 0, patch: 0 } : { major: v.major, minor: v.minor + 1, patch: 0 };
}

/** The highest of the versions that parse (tags like "v1.2.3" or "1.2.3"); others are ignored. */
export function highestVersion(texts: Iterable<string>): SemVer | null {
  let best: SemVer | null = null;
  for (const t of texts) {
    const v = parseVersion(t);
    if (v && (!best || compareVersions(v, best) > 0)) best = v;
  }
  return best;
}

export function nextVersion(existing: Iterable<string>, type: ReleaseType = "minor"): string {
  return formatVersion(bump(highestVersion(existing), type));
}

/** Sorts version strings, highest first (unparseable last). */
export function sortVersionsDesc(texts: string[]): string[] {
  return [...texts].sort((a, b) => {
    const va = parseVersion(a);
    const vb = parseVersion(b);
    if (!va || !vb) return va ? -1 : vb ? 1 : 0;
    return compareVersions(vb, va);
  });
}
