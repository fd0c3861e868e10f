import { describe, expect, it } from "vitest";
import { BlobTexts } from "./blob-texts";

function counted(texts: Record<string, string>) {
  const reads: string[] = [];
  const read = async (sha: string) => {
    reads.push(sha);
    return texts[sha] ?? null;
  };
  return { reads, read };
}

describe("blob texts by sha", () => {
  it("reads a blob once and answers it from memory after", async () => {
    const git = counted({ a1: "kind: Component\n" });
    const blobs = new BlobTexts(git.read);
    expect(await blobs.get("a1")).toBe("kind: Component\n");
    expect(await blobs.get("a1")).toBe("kind: Component\n");
    expect(git.reads).toEqual(["a1"]);
  });

  it("does not keep an answer for a blob the repository lacks", async () => {
    const git = counted({});
    const blobs = new BlobTexts(git.read);
    expect(await blobs.get("missing")).toBeNull();
    expect(await blobs.get("missing")).toBeNull();
    expect(git.reads).toEqual(["missing", "missing"]);
  });

  it("lets the least recently used text go first, not the oldest read", async () => {
    const texts = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`s${i}`, String(i).repeat(10)]));
    const git = counted(texts);
    const blobs = new BlobTexts(git.read, 80); // room for eight texts of 10
    for (let i = 0; i < 8; i++) await blobs.get(`s${i}`);
    await blobs.get("s0"); // used again: s1 is now the least recently used
    await blobs.get("s8");
    git.reads.length = 0;
    await blobs.get("s0");
    await blobs.get("s1");
    expect(git.reads).toEqual(["s1"]);
  });

  it("keeps within its bound, dropping the oldest first", async () => {
    const texts = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`s${i}`, String(i).repeat(10)]));
    const git = counted(texts);
    const blobs = new BlobTexts(git.read, 80); // room for eight texts of 10
    for (let i = 0; i < 10; i++) await blobs.get(`s${i}`);
    expect(blobs.size).toBe(8);
    git.reads.length = 0;
    await blobs.get("s9");
    await blobs.get("s0");
    expect(git.reads).toEqual(["s0"]);
  });

  it("never keeps a text larger than an eighth of its room", async () => {
    const git = counted({ big: "b".repeat(11) });
    const blobs = new BlobTexts(git.read, 80);
    expect(await blobs.get("big")).toHaveLength(11);
    expect(blobs.size).toBe(0);
  });
});
