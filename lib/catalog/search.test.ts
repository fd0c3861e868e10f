import fc from "fast-check";
import { fuzzParameters, fuzzRuns } from "@/test-support/fuzz";
import { describe, expect, it } from "vitest";
import { generateComponent } from "../../bench/catalog/generate";
import { SearchIndex, type CatalogEntry } from "./search";
import { listQuerySchema, type ListQuery } from "./query";
import { COMPONENT_KINDS, DEPENDENCY_FLAGS, ENVIRONMENTS } from "./schema";

/** The list semantics written the plain way: a record matches every filter; a dimension's counts ignore its own filter. */
function reference(entries: CatalogEntry[], q: ListQuery) {
  const lower = (s: string) => s.toLowerCase();
  const words = lower(q.q).split(/\s+/).filter(Boolean);
  const values = (e: CatalogEntry) => {
    const c = e.component;
    return {
      kind: [c.spec.kind],
      owner: [...new Set(c.spec.owners.map((o) => lower(o.user)))],
      group: [...new Set(c.spec.owners.flatMap((o) => (o.group ? [lower(o.group)] : [])))],
      environment: c.spec.environments.length ? c.spec.environments : ["none"],
      dependency: Object.entries(c.spec.dependencies ?? {}).filter(([, v]) => v).map(([k]) => k),
    };
  };
  const wanted = { kind: q.kind as string[], owner: q.owner.map(lower), group: q.group.map(lower), environment: q.environment as string[], dependency: q.dependency as string[] };
  const passes = (e: CatalogEntry, dim: keyof typeof wanted) => {
    const have: readonly string[] = values(e)[dim];
    if (dim === "dependency") return wanted.dependency.every((d) => have.includes(d));
    return wanted[dim].length === 0 || have.some((v) => wanted[dim].includes(v));
  };
  const c = (e: CatalogEntry) => e.component;
  const text = (e: CatalogEntry) =>
    lower([c(e).metadata.name, c(e).metadata.displayName, c(e).metadata.description ?? "", ...(c(e).metadata.tags ?? []), c(e).spec.repo.path, ...c(e).spec.owners.flatMap((o) => [o.user, o.group ?? ""])].join("\u0000"));
  const base = entries.filter((e) => words.every((w) => text(e).includes(w)));
  const dims = ["kind", "owner", "group", "environment", "dependency"] as const;
  const counts: Record<string, Record<string, number>> = {};
  for (const dim of dims) {
    counts[dim] = {};
    for (const e of base.filter((x) => dims.every((d) => d === dim || passes(x, d)))) for (const v of values(e)[dim]) counts[dim][v] = (counts[dim][v] ?? 0) + 1;
  }
  // Sorted by the field in the query's direction; equal keys by name, always ascending.
  const key = (e: CatalogEntry) =>
    ({ name: e.name, displayName: lower(c(e).metadata.displayName), kind: c(e).spec.kind, repo: lower(c(e).spec.repo.path), level: "00" })[q.sort];
  const dir = q.order === "desc" ? -1 : 1;
  const matched = base
    .filter((e) => dims.every((d) => passes(e, d)))
    .sort((a, b) => (key(a) < key(b) ? -dir : key(a) > key(b) ? dir : a.name < b.name ? -1 : 1))
    .map((e) => e.name);
  return { matched, counts };
}

function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

describe("search index", () => {
  it("answers random queries (150; FUZZ_RUNS more) as the plain reference does (matches and disjunctive facet counts)", () => {
    const entries: CatalogEntry[] = Array.from({ length: 400 }, (_, i) => {
      const component = generateComponent(i);
      return { name: component.metadata.name, file: `components/${component.metadata.name}.yaml`, component, etag: `"${i}"`, stale: false };
    });
    const index = new SearchIndex();
    index.replaceAll(entries);
    const random = rng(7);
    const some = <T,>(xs: readonly T[], p: number) => xs.filter(() => random() < p);
    for (let i = 0, queries = fuzzRuns(150); i < queries; i++) {
      const q = listQuerySchema.parse({
        q: random() < 0.5 ? ["offers", "api", "user1", "team-2", "org/team-1", "payments service", "nomatch", "Quest"][Math.floor(random() * 8)] : "",
        kind: some(COMPONENT_KINDS, 0.2),
        owner: random() < 0.2 ? [`user${Math.floor(random() * 300)}`, `USER${Math.floor(random() * 300)}`] : [],
        group: random() < 0.3 ? [`org/team-${Math.floor(random() * 50)}`, `org/team-${Math.floor(random() * 50)}`] : [],
        environment: some([...ENVIRONMENTS, "none"], 0.2),
        dependency: some(DEPENDENCY_FLAGS, 0.15),
        sort: ["name", "displayName", "kind", "repo"][Math.floor(random() * 4)],
        order: random() < 0.5 ? "asc" : "desc",
        pageSize: 200,
      });
      const got = index.list(q);
      const want = reference(entries, q);
      expect(got.items.map((x) => x.name), JSON.stringify(q)).toEqual(want.matched.slice(0, 200));
      expect(got.total).toBe(want.matched.length);
      const { kind, owner, group, environment, dependency } = got.counts;
      expect({ kind, owner, group, environment, dependency }, JSON.stringify(q)).toEqual(want.counts);
    }
  });

  it("sorts a few matched records as the order of all records would, before and after that order is built", () => {
    const entries: CatalogEntry[] = Array.from({ length: 400 }, (_, i) => {
      const component = generateComponent(i);
      return { name: component.metadata.name, file: `components/${component.metadata.name}.yaml`, component, etag: `"${i}"`, stale: false };
    });
    const index = new SearchIndex();
    index.replaceAll(entries);
    // Queries matching a handful of records (sorted on their own) and many (sorted through the order of all).
    const few = ["user1", "user2", "user3", "team-4"].flatMap((q) => COMPONENT_KINDS.map((kind) => listQuerySchema.parse({ q, kind: [kind], sort: "displayName", order: "desc", pageSize: 200 })));
    const small = few.filter((q) => reference(entries, q).matched.length > 1 && reference(entries, q).matched.length * 64 < entries.length);
    expect(small.length).toBeGreaterThan(0);
    const check = (q: (typeof few)[number]) => expect(index.list(q).items.map((x) => x.name), JSON.stringify(q)).toEqual(reference(entries, q).matched.slice(0, 200));
    small.forEach(check);
    check(listQuerySchema.parse({ sort: "displayName", order: "desc", pageSize: 200 }));
    small.forEach(check);
  });

  it("answers as the reference after changes, with stale records, favorites, odd words and a separator in a record", () => {
    const entries: CatalogEntry[] = Array.from({ length: 300 }, (_, i) => {
      const component = generateComponent(i);
      // The index joins haystacks with U+0001 to find words: a record holding it must still be found.
      if (i === 3) component.metadata.description = "odd \u0001 text";
      if (i % 50 === 0) component.metadata.description = "Ünïcode \u0000 nul";
      return { name: component.metadata.name, file: `components/${component.metadata.name}.yaml`, component, etag: `"${i}"`, stale: i % 11 === 0 };
    });
    const index = new SearchIndex();
    index.replaceAll(entries);
    // Queried once before the changes, so what the index prepared for the first state must not survive them.
    index.list(listQuerySchema.parse({ q: "offers" }));
    const renamed = { ...entries[7], component: { ...entries[7].component, metadata: { ...entries[7].component.metadata, displayName: "Zebra Offers" } }, stale: true };
    index.upsert(renamed);
    index.remove(entries[8].name);
    const current = entries.map((e) => (e.name === renamed.name ? renamed : e)).filter((e) => e.name !== entries[8].name);
    const favorites = new Set(current.filter((_, i) => i % 6 === 0).map((e) => e.name));
    const random = rng(3);
    for (let i = 0; i < 400; i++) {
      const q = listQuerySchema.parse({
        q: random() < 0.7 ? ["zebra", "offers api", "odd", "\u0001", "odd \u0001 text", "ünï", "e \u0000 n", "user2", "s", "nomatch"][Math.floor(random() * 10)] : "",
        group: random() < 0.3 ? [`org/team-${Math.floor(random() * 50)}`] : [],
        kind: random() < 0.3 ? [COMPONENT_KINDS[Math.floor(random() * COMPONENT_KINDS.length)]] : [],
        favorites: random() < 0.2 ? "1" : undefined,
        stale: random() < 0.2 ? "1" : undefined,
        sort: ["name", "displayName", "kind", "repo"][Math.floor(random() * 4)],
        order: random() < 0.5 ? "asc" : "desc",
        pageSize: 200,
      });
      const got = index.list(q, favorites);
      const want = reference(current.filter((e) => (!q.favorites || favorites.has(e.name)) && (!q.stale || e.stale)), q);
      expect(got.items.map((x) => x.name), JSON.stringify(q)).toEqual(want.matched.slice(0, 200));
      const { kind, owner, group, environment, dependency } = got.counts;
      expect({ kind, owner, group, environment, dependency }, JSON.stringify(q)).toEqual(want.counts);
      expect(got.counts.stale).toBe(current.filter((e) => e.stale).length);
    }
    // One dimension alone, with several values (a record may hold two of them) and values no record has.
    const alone = [
      { owner: ["user1", "USER1", "user2", "nobody"] },
      { group: ["org/team-1", "org/team-2", "org/none"] },
      { environment: ["none", "production"] },
      { kind: ["docs", "service"] },
      { dependency: ["redis", "mongo"] },
      { dependency: ["pubsub"] },
    ];
    for (const filter of alone) {
      const q = listQuerySchema.parse({ ...filter, pageSize: 200 });
      const got = index.list(q, favorites);
      const want = reference(current, q);
      expect(got.items.map((x) => x.name), JSON.stringify(q)).toEqual(want.matched.slice(0, 200));
      const { kind, owner, group, environment, dependency } = got.counts;
      expect({ kind, owner, group, environment, dependency }, JSON.stringify(q)).toEqual(want.counts);
    }
  });

  it("finds every record holding a word, whatever its characters (the trigram index folds all but a-z, 0-9 and -/._ into one code)", () => {
    // Texts over a few letters, characters the index folds together (@ # ü and space) and NUL, so that
    // trigrams collide; each record's description and, last in its haystack, its group; the words are
    // cut out of them (and some occur nowhere), of every length.
    const text = fc.string({ unit: fc.constantFrom("a", "b", "-", "/", "@", "#", "ü", "Ü", " ", "\u0000"), maxLength: 12 });
    fc.assert(
      fc.property(fc.array(fc.tuple(text, text), { minLength: 1, maxLength: 30 }), fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat(), text)), (texts, cuts) => {
        const entries: CatalogEntry[] = texts.map(([description, group], i) => {
          const component = generateComponent(i);
          component.metadata.description = description;
          component.spec.owners = [{ user: "u", group }];
          return { name: component.metadata.name, file: `components/${component.metadata.name}.yaml`, component, etag: `"${i}"`, stale: false };
        });
        const index = new SearchIndex();
        index.replaceAll(entries);
        for (const [which, from, length, other] of cuts) {
          const source = texts[which % texts.length][which % 2];
          const start = from % (source.length + 1);
          const cut = source.slice(start, start + (length % 6)).trim();
          for (const word of [cut, other.trim()]) {
            if (/\s/.test(word)) continue; // a word of the query: whitespace splits it
            const q = listQuerySchema.parse({ q: word, pageSize: 200 });
            expect(index.list(q).items.map((x) => x.name), JSON.stringify(word)).toEqual(reference(entries, q).matched.slice(0, 200));
          }
        }
      }),
      fuzzParameters(100),
    );
  });

});

