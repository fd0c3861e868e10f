/**
 * Infers spec.kind from a repository's contents, first rule that matches wins:
 * 1. mobile   — ios/ or android/ folder, react-native or expo dependency, pubspec.yaml (Flutter)
 * 2. docs     — mkdocs.yml, docusaurus.config.*, .vitepress/, conf.py under docs/, antora.yml, book.toml
 * 3. library  — package publishing markers: publishConfig, "files" without "private", .changeset/, *.gemspec,
 *               pyproject/setup.py without a server entry, Cargo.toml with [lib]
 * 4. tooling  — a CLI: package.json "bin", Cargo [[bin]], pyproject [project.scripts], src/cli.*, cmd/<name>/ (not server)
 * 5. frontend — next / react / vue / svelte / @angular/core dependency, vite or next config
 * 6. service  — Dockerfile, Procfile, a server entry (src/server.*, server.*, main.go, cmd/server/, app.py, main.py)
 * Nothing matched → service, with a reason saying so.
 */
import type { ScmProvider } from "../../scm/types";
import type { ComponentKind } from "../../catalog/schema";

export interface Inference {
  kind: ComponentKind;
  reasons: string[];
  /** Mobile platforms seen (ios, android). */
  platforms: Array<"ios" | "android" | "web">;
  /** package.json publishConfig.registry, when there is one. */
  registry: string | null;
}

interface PackageJson {
  name?: string;
  private?: boolean;
  bin?: unknown;
  files?: unknown;
  publishConfig?: { registry?: string };
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

export function inferKind(files: string[], contents: Record<string, string | null>): Inference {
  const has = (p: string) => files.includes(p);
  const hasDir = (d: string) => files.some((f) => f.startsWith(`${d}/`));
  const any = (re: RegExp) => files.find((f) => re.test(f));
  let pkg: PackageJson | null = null;
  try {
    pkg = contents["package.json"] ? (JSON.parse(contents["package.json"] as string) as PackageJson) : null;
  } catch {
    pkg = null;
  }
  const deps = { ...(pkg?.dependencies ?? {}), ...(pkg?.devDependencies ?? {}), ...(pkg?.peerDependencies ?? {}) };
  const dep = (n: string) => n in deps;
  const pyproject = contents["pyproject.toml"] ?? "";
  const cargo = contents["Cargo.toml"] ?? "";
  const serverEntry = any(/^(src\/)?(server|app|main)\.(ts|js|mjs|py)$|^main\.go$|^cmd\/server\//);
  const registry = pkg?.publishConfig?.registry ?? null;
  const result = (kind: ComponentKind, reasons: string[], platforms: Inference["platforms"] = []): Inference => ({ kind, reasons, platforms, registry });

  // 1. mobile
  const platforms: Inference["platforms"] = [];
  if (hasDir("ios") || any(/\.xcodeproj\//)) platforms.push("ios");
  if (hasDir("android")) platforms.push("android");
  if (platforms.length || dep("react-native") || dep("expo") || has("pubspec.yaml")) {
    if (!platforms.length) platforms.push("ios", "android");
    if (dep("react-native-web")) platforms.push("web");
    const why = [platforms.length ? `platform folders: ${platforms.join(", ")}` : "", dep("react-native") ? "react-native dependency" : "", dep("expo") ? "expo dependency" : "", has("pubspec.yaml") ? "pubspec.yaml (Flutter)" : ""].filter(Boolean);
    return result("mobile", why, platforms);
  }
  // 2. docs
  const docsMarker = ["mkdocs.yml", "mkdocs.yaml", "antora.yml", "book.toml", "docs/conf.py"].find(has) ?? any(/^docusaurus\.config\.(js|ts|mjs)$|^\.vitepress\//);
  if (docsMarker) return result("docs", [`docs site: ${docsMarker}`]);
  // 3. library
  const libReasons: string[] = [];
  if (pkg?.publishConfig) libReasons.push("package.json publishConfig");
  if (pkg && pkg.files && !pkg.private) libReasons.push('package.json "files" in a public package');
  if (hasDir(".changeset")) libReasons.push(".changeset/");
  const gemspec = any(/^[^/]+\.gemspec$/);
  if (gemspec) libReasons.push(gemspec);
  if (/\[lib\]/.test(cargo)) libReasons.push("Cargo.toml [lib]");
  if ((/\[project\]/.test(pyproject) || has("setup.py")) && !serverEntry && !/\[project\.scripts\]/.test(pyproject)) libReasons.push("Python package (pyproject.toml / setup.py)");
  if (libReasons.length && !pkg?.bin) return result("library", libReasons);
  // 4. tooling
  const cliReasons: string[] = [];
  if (pkg?.bin) cliReasons.push('package.json "bin"');
  if (/\[\[bin\]\]/.test(cargo)) cliReasons.push("Cargo.toml [[bin]]");
  if (/\[project\.scripts\]/.test(pyproject)) cliReasons.push("pyproject [project.scripts]");
  const cliFile = any(/^(src\/)?cli\.(ts|js|mjs|py|go)$|^bin\//);
  if (cliFile) cliReasons.push(cliFile);
  const cmd = files.find((f) => /^cmd\/[^/]+\//.test(f) && !f.startsWith("cmd/server/"));
  if (cmd) cliReasons.push(`Go command ${cmd.split("/").slice(0, 2).join("/")}/`);
  if (cliReasons.length) return result("tooling", cliReasons);
  // 5. frontend
  const fe = ["next", "react", "vue", "svelte", "@angular/core"].filter(dep);
  const feConfig = any(/^(next|vite|nuxt|svelte|angular)\.config\.(js|ts|mjs|cjs)$|^angular\.json$/);
  if (fe.length || feConfig) return result("frontend", [...fe.map((d) => `${d} dependency`), ...(feConfig ? [feConfig] : [])]);
  // 6. service
  const svc = [has("Dockerfile") ? "Dockerfile" : "", has("Procfile") ? "Procfile" : "", serverEntry ? `server entry ${serverEntry}` : ""].filter(Boolean);
  if (svc.length) return result("service", svc);
  return result("service", ["no marker found; assumed a service — review before merging"]);
}

const READ = ["package.json", "pyproject.toml", "Cargo.toml"];

/** Reads what inferKind needs from a repository. */
export async function inferRepository(provider: ScmProvider, repo: string): Promise<Inference> {
  const tree = await provider.listTree(repo, { recursive: true });
  const files = tree.filter((e) => e.type === "blob").map((e) => e.path);
  const contents: Record<string, string | null> = {};
  for (const f of READ) if (files.includes(f)) contents[f] = await provider.readFile(repo, f);
  return inferKind(files, contents);
}
