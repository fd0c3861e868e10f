// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import { fakeApi, renderInPortal } from "@/test-support/components/render";
import { listQuerySchema } from "@/lib/catalog/query";
import { SearchIndex } from "@/lib/catalog/search";
import { COMPONENT_KINDS, DEPENDENCY_FLAGS, ENVIRONMENTS } from "@/lib/catalog/schema";
import { validComponent } from "@/test-support/catalog/temp-catalog";
import { CatalogBrowser, type CatalogState } from "./catalog-browser";

const index = new SearchIndex();
index.replaceAll(["alpha", "beta"].map((name) => ({ name, file: `${name}.yaml`, component: validComponent(name), etag: `"${name}"`, stale: false })));
const withLevels = (r: ReturnType<SearchIndex["list"]>) => ({ ...r, items: r.items.map((i) => ({ ...i, level: i.name === "alpha" ? "bronze" : null })) });
const initialData = withLevels(index.list({ ...listQuerySchema.parse({}), pageSize: 25 }));
const initialState: CatalogState = { q: "", kind: [], environment: [], dependency: [], level: [], group: "", owner: "", favorites: false, sort: "name", order: "asc", page: 1 };
const options = { kinds: COMPONENT_KINDS, environments: ENVIRONMENTS, dependencyFlags: DEPENDENCY_FLAGS, groups: [], owners: [], levels: ["bronze", "silver"], levelCounts: { none: 1, bronze: 1, silver: 0 } };

describe("catalog browser", () => {
  it("shows the list as a table whose columns have headers", () => {
    fakeApi({});
    renderInPortal(<CatalogBrowser initialState={initialState} initialData={initialData} options={options} />);
    const table = screen.getByRole("table");
    expect(within(table).getAllByRole("columnheader").map((h) => h.textContent)).toEqual(["Favorite", "Component", "Kind", "Repository and owners", "Environments", "Level"]);
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((r) => r.dataset.testid)).toEqual(["row-alpha", "row-beta"]);
    // Each row has one cell per header.
    for (const row of rows) expect(within(row).getAllByRole("cell")).toHaveLength(6);
    expect(rows.map((r) => within(r).getAllByRole("cell")[5].textContent)).toEqual(["bronze", "no level"]);
  });

  it("says the search's limit where it is typed, keeps the list as it was and asks nothing", async () => {
    const api = fakeApi({});
    const { user } = renderInPortal(<CatalogBrowser initialState={initialState} initialData={initialData} options={options} />);
    const search = screen.getByTestId("catalog-search");
    await user.click(search);
    await user.paste("x".repeat(10_000));
    expect((await screen.findByRole("alert")).textContent).toBe("The search can be at most 200 characters; this one has 10,000.");
    expect(search.getAttribute("aria-invalid")).toBe("true");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(api.calls).toHaveLength(0);
    expect(within(screen.getByRole("table")).getAllByRole("row").slice(1).map((r) => r.dataset.testid)).toEqual(["row-alpha", "row-beta"]);
  });
});

describe("catalog browser, when nothing matches", () => {
  const none = withLevels(index.list({ ...listQuerySchema.parse({ q: "zzz" }), pageSize: 25 }));

  it("suggests fewer filters only when filters are set, not for a plain search", () => {
    fakeApi({ "GET /api/components": { body: none } });
    const { unmount } = renderInPortal(<CatalogBrowser initialState={{ ...initialState, q: "zzz" }} initialData={none} options={options} />);
    expect(screen.getByTestId("catalog-empty").textContent).toBe("No component matches “zzz”. Try another search.");
    unmount();
    renderInPortal(<CatalogBrowser initialState={{ ...initialState, q: "zzz", kind: ["service"] }} initialData={none} options={options} />);
    expect(screen.getByTestId("catalog-empty").textContent).toBe("No component matches “zzz”. Try fewer filters.");
  });

  it("puts the page's actions after its heading", () => {
    fakeApi({});
    renderInPortal(<CatalogBrowser initialState={initialState} initialData={initialData} options={options} actions={<button type="button">Refresh catalog</button>} />);
    const heading = screen.getByRole("heading", { level: 1, name: "Catalog" });
    const refresh = screen.getByRole("button", { name: "Refresh catalog" });
    expect(heading.compareDocumentPosition(refresh) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});
