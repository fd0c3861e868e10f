// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import { fakeApi, renderInPortal } from "@/test-support/components/render";
import { validComponent } from "@/test-support/catalog/temp-catalog";
import type { Component } from "@/lib/catalog/schema";
import { NO_RELATIONS } from "@/lib/catalog/relations";
import { ComponentView, type ComponentViewProps } from "./component-view";

const props = (component: Component, over: Partial<ComponentViewProps> = {}): ComponentViewProps => ({
  name: component.metadata.name,
  file: `components/${component.metadata.name}.yaml`,
  component,
  yaml: "",
  etag: '"v1"',
  stale: false,
  staleReason: null,
  favorite: false,
  canEdit: false,
  canCommit: false,
  repositoryUrl: null,
  status: { environments: [], openMergeRequests: 0 } as unknown as ComponentViewProps["status"],
  relations: NO_RELATIONS,
  ...over,
});

describe("a component's page", () => {
  it("shows description, tags, lifecycle and links, links opening safely in a new tab", () => {
    fakeApi({});
    const c = validComponent("checkout-api");
    Object.assign(c.metadata, { description: "Takes payment for a basket.", tags: ["payments", "tier-1"], links: [{ url: "https://runbooks.example.com/checkout", title: "Runbook" }] });
    c.spec.lifecycle = "deprecated";
    renderInPortal(<ComponentView {...props(c, { repositoryUrl: "https://gitlab.example.com/commerce/checkout-api" })} />);
    expect(screen.getByTestId("component-description").textContent).toBe("Takes payment for a basket.");
    expect(within(screen.getByTestId("component-tags")).getAllByRole("link").map((a) => [a.textContent, a.getAttribute("href")])).toEqual([
      ["payments", "/catalog?q=payments"],
      ["tier-1", "/catalog?q=tier-1"],
    ]);
    expect(screen.getByTestId("component-lifecycle").textContent).toBe("deprecated");
    // Each owner, user and group, links to its owner page (a group's path keeps its slash).
    expect(screen.getAllByTestId("component-owner").flatMap((dd) => within(dd).getAllByRole("link").map((a) => a.getAttribute("href")))).toEqual([
      "/owners/alice",
      "/owners/commerce/backend",
      "/owners/bob",
    ]);
    const runbook = within(screen.getByTestId("component-links")).getByRole("link", { name: "Runbook" });
    expect([runbook.getAttribute("href"), runbook.getAttribute("target"), runbook.getAttribute("rel")]).toEqual(["https://runbooks.example.com/checkout", "_blank", "noopener noreferrer"]);
    expect(within(screen.getByTestId("component-repository")).getByRole("link").getAttribute("href")).toBe("https://gitlab.example.com/commerce/checkout-api");
  });

  it("a record without them shows none, and a local repository as text", () => {
    fakeApi({});
    renderInPortal(<ComponentView {...props(validComponent("plain"))} />);
    expect(screen.queryByTestId("component-description")).toBeNull();
    expect(screen.queryByTestId("component-tags")).toBeNull();
    expect(screen.queryByTestId("component-lifecycle")).toBeNull();
    expect(screen.getByTestId("component-repository").textContent).toContain("local source control");
    expect(within(screen.getByTestId("component-repository")).queryByRole("link")).toBeNull();
  });

  it("shows its relations as links, the blast radius, and a reference that does not resolve as a warning", () => {
    fakeApi({});
    const relations: ComponentViewProps["relations"] = {
      system: { name: "commerce", members: { names: ["checkout-api", "payments-gateway"], total: 130 } },
      dependsOn: [
        { name: "payments-gateway", exists: true },
        { name: "ghost", exists: false },
      ],
      usedBy: { names: ["store-web"], total: 1 },
      providesApis: [{ name: "checkout", type: "openapi", path: "api/openapi.yaml", consumers: { names: ["companion-app"], total: 1 }, otherProviders: [] }],
      consumesApis: [
        { name: "payments", providers: ["payments-gateway"] },
        { name: "nowhere", providers: [] },
      ],
      blastRadius: 3,
      warnings: [{ name: "checkout-api", file: "components/checkout-api.yaml", path: "spec.dependsOn[1]", message: 'depends on "ghost", which no record of the catalog has as its name' }],
    };
    renderInPortal(<ComponentView {...props(validComponent("checkout-api"), { relations })} />);
    const hrefs = (testId: string) => within(screen.getByTestId(testId)).queryAllByRole("link").map((a) => a.getAttribute("href"));
    expect(hrefs("relation-system")).toEqual(["/catalog/checkout-api", "/catalog/payments-gateway"]);
    expect(screen.getByTestId("relation-system").textContent).toContain("and 128 more");
    expect(hrefs("relation-depends-on")).toEqual(["/catalog/payments-gateway"]);
    expect(screen.getByTestId("relation-depends-on").textContent).toContain("ghost not in the catalog");
    expect(hrefs("relation-used-by")).toEqual(["/catalog/store-web"]);
    // Each provided API links to its docs, then to its consumers.
    expect(hrefs("relation-provides")).toEqual(["/catalog/checkout-api/apis/checkout", "/catalog/companion-app"]);
    expect(screen.getByTestId("relation-consumes").textContent).toContain("nowhere: no provider");
    expect(screen.getByTestId("relation-blast-radius").textContent).toBe("3 components depend on it, directly or transitively");
    expect(screen.getByTestId("relation-warnings").textContent).toContain('spec.dependsOn[1]: depends on "ghost"');
  });

  it("a record without relations shows none and no warning", () => {
    fakeApi({});
    renderInPortal(<ComponentView {...props(validComponent("plain"))} />);
    expect(screen.getByTestId("relation-system").textContent).toBe("none");
    expect(screen.getByTestId("relation-blast-radius").textContent).toMatch(/^0 components/);
    expect(screen.queryByTestId("relation-warnings")).toBeNull();
  });
});
