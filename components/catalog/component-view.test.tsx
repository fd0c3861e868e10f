// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import { fakeApi, renderInPortal } from "@/test-support/components/render";
import { validComponent } from "@/test-support/catalog/temp-catalog";
import type { Component } from "@/lib/catalog/schema";
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
});
