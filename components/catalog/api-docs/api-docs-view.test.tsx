// @vitest-environment jsdom
// The API docs page's states: a valid OpenAPI definition goes to the renderer (swagger-ui, replaced here: jsdom
// need not run it; the browser journey does), an invalid one lists its lint errors by path, AsyncAPI shows raw
// with a note, a missing or too large file says so; the ref selector offers the default branch and the tags.
import { describe, expect, it, vi } from "vitest";
import { screen, within } from "@testing-library/react";
import { renderInPortal } from "@/test-support/components/render";
import { API_DEFINITION_MAX_BYTES, type ApiDocsAnswer } from "@/lib/portal/contracts/api-docs";
import { ApiDocsView } from "./api-docs-view";

vi.mock("./openapi-viewer", () => ({
  OpenApiViewer: ({ document }: { document: { info: { title: string } } }) => <div data-testid="openapi-viewer">{document.info.title}</div>,
}));

const answer = (over: Partial<ApiDocsAnswer>): ApiDocsAnswer => ({
  component: "checkout-api",
  api: { name: "checkout", type: "openapi", path: "api/openapi.yaml" },
  repository: "commerce/checkout-api",
  ref: "main",
  refs: [
    { name: "main", kind: "branch" },
    { name: "v1.1.0", kind: "tag" },
    { name: "v1.0.0", kind: "tag" },
  ],
  state: "valid",
  detail: null,
  size: 120,
  maxBytes: API_DEFINITION_MAX_BYTES,
  definition: "openapi: 3.1.0\n",
  document: { openapi: "3.1.0", info: { title: "Checkout API", version: "1" } },
  problems: [],
  ...over,
});

describe("a component's API docs", () => {
  it("renders a valid OpenAPI definition, with a ref selector of the default branch and the tags", () => {
    renderInPortal(<ApiDocsView answer={answer({ ref: "v1.1.0" })} />);
    expect(screen.getByTestId("api-docs").dataset.state).toBe("valid");
    expect(screen.getByTestId("openapi-viewer").textContent).toBe("Checkout API");
    expect(screen.getByTestId("api-ref").textContent).toBe("v1.1.0");
    const select = screen.getByLabelText<HTMLSelectElement>("Version");
    expect([...select.options].map((o) => [o.value, o.textContent])).toEqual([
      ["main", "main (default branch)"],
      ["v1.1.0", "v1.1.0"],
      ["v1.0.0", "v1.0.0"],
    ]);
    expect(select.value).toBe("v1.1.0");
    expect(screen.getByTestId("api-ref-selector").getAttribute("action")).toBe("/catalog/checkout-api/apis/checkout");
    expect(screen.getByRole("link", { name: "checkout-api" }).getAttribute("href")).toBe("/catalog/checkout-api");
  });

  it("lists each lint error of an invalid definition with its path, and renders nothing", () => {
    const problems = [
      { path: "#/info", message: "The field `version` must be present on this level.", rule: "struct" },
      { path: "#/paths/~1carts/get/responses/404", message: "Can't resolve $ref", rule: "no-unresolved-refs" },
    ];
    renderInPortal(<ApiDocsView answer={answer({ state: "invalid", document: null, problems, detail: "api/openapi.yaml at main has 2 lint errors; fix them in the component's repository." })} />);
    const errors = screen.getByTestId("api-lint-errors");
    expect(errors.textContent).toContain("has 2 lint errors");
    expect(within(errors).getAllByRole("listitem").map((li) => li.textContent)).toEqual([
      "#/info: The field `version` must be present on this level. (struct)",
      "#/paths/~1carts/get/responses/404: Can't resolve $ref (no-unresolved-refs)",
    ]);
    expect(screen.queryByTestId("openapi-viewer")).toBeNull();
  });

  it("shows an AsyncAPI definition raw, with a note that rendering is OpenAPI-only", () => {
    renderInPortal(<ApiDocsView answer={answer({ api: { name: "events", type: "asyncapi", path: "api/asyncapi.yaml" }, state: "raw", document: null, definition: "asyncapi: 3.0.0\n" })} />);
    expect(screen.getByTestId("api-raw-note").textContent).toContain("OpenAPI definitions only for now");
    expect(screen.getByTestId("api-raw-definition").textContent).toBe("asyncapi: 3.0.0\n");
    expect(screen.queryByTestId("openapi-viewer")).toBeNull();
  });

  it("says a file is missing, or over the size limit in words; one ref needs no selector", () => {
    const missing = "There is no file api/openapi.yaml in commerce/checkout-api at main.";
    const { unmount } = renderInPortal(<ApiDocsView answer={answer({ state: "missing", refs: [{ name: "main", kind: "branch" }], detail: missing, definition: null, document: null, size: null })} />);
    expect(screen.getByTestId("api-missing").textContent).toBe(missing);
    expect(screen.queryByTestId("api-ref-selector")).toBeNull();
    unmount();
    renderInPortal(<ApiDocsView answer={answer({ state: "too-large", detail: "api/openapi.yaml is 2,000,000 bytes, over the limit of one mebibyte (1 MiB): the portal does not read it.", definition: null, document: null, size: 2_000_000 })} />);
    expect(screen.getByTestId("api-too-large").textContent).toContain("Definitions up to one mebibyte (1 MiB) are shown.");
  });
});
