// Every relative link of the Markdown documentation resolves: README.md, docs/**, deploy/README.md and
// bench/results/README.md. A link to a file needs the file (or folder); a link with #anchor needs a heading of that
// slug in the Markdown file it names (GitHub's slugs: lower case, punctuation dropped, spaces to hyphens, -1, -2 …
// for repeats). External links (http:, https:, mailto:) are not fetched.
//
//   node scripts/check-doc-links.mjs            prints every broken link, exits 1 if there is one
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The Markdown files whose links are checked, relative to the repository root. */
export function documentationFiles(root = ROOT) {
  const files = ["README.md", "deploy/README.md", "bench/results/README.md"].filter((file) => existsSync(path.join(root, file)));
  const walk = (dir) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const relative = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(relative);
      else if (entry.name.endsWith(".md")) files.push(relative);
    }
  };
  walk("docs");
  return files;
}

/** A heading's anchor as GitHub makes it. */
export function slugOf(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/<[^>]*>/g, "")
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** Lines outside fenced code blocks, with inline code spans blanked (a link inside `code` is not a link). */
function proseLines(text) {
  const lines = [];
  let fenced = false;
  for (const line of text.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (!fenced) lines.push(line);
  }
  return lines;
}

const anchorsCache = new Map();
/** The anchors a Markdown file offers: its headings' slugs, repeats numbered. */
export function anchorsOf(file) {
  if (anchorsCache.has(file)) return anchorsCache.get(file);
  const anchors = new Set();
  const seen = new Map();
  for (const line of proseLines(readFileSync(file, "utf8"))) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = slugOf(heading[1]);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  anchorsCache.set(file, anchors);
  return anchors;
}

/** The link targets of a Markdown text: inline `[text](target)` and reference definitions `[label]: target`. */
export function linkTargets(text) {
  const targets = [];
  for (const line of proseLines(text)) {
    const prose = line.replace(/`[^`]*`/g, "``");
    for (const match of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(match[1]);
    const reference = /^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$/.exec(prose);
    if (reference) targets.push(reference[1]);
  }
  return targets;
}

/** Every broken relative link of the documentation, as `file: target (why)`. */
export function brokenLinks(root = ROOT) {
  const broken = [];
  for (const file of documentationFiles(root)) {
    const absolute = path.join(root, file);
    for (const target of linkTargets(readFileSync(absolute, "utf8"))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const [rawPath, anchor] = target.split("#", 2);
      const linked = rawPath ? path.resolve(path.dirname(absolute), decodeURIComponent(rawPath)) : absolute;
      if (!existsSync(linked)) {
        broken.push(`${file}: ${target} (no such file)`);
        continue;
      }
      if (anchor === undefined || anchor === "") continue;
      if (statSync(linked).isDirectory() || !linked.endsWith(".md")) {
        broken.push(`${file}: ${target} (an anchor into something that is not a Markdown file)`);
        continue;
      }
      if (!anchorsOf(linked).has(decodeURIComponent(anchor).toLowerCase())) broken.push(`${file}: ${target} (no heading #${anchor} in ${path.relative(root, linked)})`);
    }
  }
  return broken;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const files = documentationFiles();
  const broken = brokenLinks();
  for (const line of broken) console.log(line);
  console.log(`${files.length} Markdown files checked: ${broken.length ? `${broken.length} broken links` : "every relative link resolves"}`);
  process.exit(broken.length ? 1 : 0);
}
