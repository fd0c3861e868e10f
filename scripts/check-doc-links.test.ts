import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { brokenLinks, linkTargets, slugOf } from "./check-doc-links.mjs";

describe("the documentation's link check", () => {
  it("makes anchors as GitHub does", () => {
    expect(slugOf("Rotating `OFFERS_SECRET_KEY`")).toBe("rotating-offers_secret_key");
    expect(slugOf("Concurrent changes: ETag and If-Match")).toBe("concurrent-changes-etag-and-if-match");
    expect(slugOf("What fails over, and how fast (measured)")).toBe("what-fails-over-and-how-fast-measured");
    expect(slugOf("The redeem limit's key")).toBe("the-redeem-limits-key");
  });

  it("reads inline links and reference definitions, not links in code", () => {
    const text = ["[a](x.md#y) and `[b](code.md)`", "[ref]: other.md", "```", "[c](fenced.md)", "```"].join("\n");
    expect(linkTargets(text)).toEqual(["x.md#y", "other.md"]);
  });

  const root = mkdtempSync(path.join(tmpdir(), "doc-links-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("names a missing file, a missing anchor and a repeated heading's unnumbered anchor, and passes the rest", () => {
    mkdirSync(path.join(root, "docs"));
    writeFileSync(path.join(root, "docs", "page.md"), "# Page\n\n## Same\n\n## Same\n\n```\n## Not a heading\n```\n");
    writeFileSync(
      path.join(root, "README.md"),
      "[ok](docs/page.md) [ok](docs/page.md#same-1) [ok](https://example.com/x.md) [gone](docs/gone.md) [bad](docs/page.md#same-2) [code](docs/page.md#not-a-heading)\n",
    );
    expect(brokenLinks(root)).toEqual([
      "README.md: docs/gone.md (no such file)",
      "README.md: docs/page.md#same-2 (no heading #same-2 in docs/page.md)",
      "README.md: docs/page.md#not-a-heading (no heading #not-a-heading in docs/page.md)",
    ]);
  });

  it("finds every relative link of README.md and docs/ resolving, anchors included", () => {
    expect(brokenLinks()).toEqual([]);
  });
});
