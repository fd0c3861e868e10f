// The page a portal page falls back to when it cannot be rendered (app/error.tsx, app/(portal)/error.tsx),
// as the server renders it before the browser asks /health for the cause.
import { describe, expect, it } from "vitest";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import RootError from "@/app/error";
import PortalError from "@/app/(portal)/error";

describe("error boundaries of the portal's pages", () => {
  it("show the styled 'temporarily unavailable' page with a retry, inside the portal's look", () => {
    const error = Object.assign(new Error("An error occurred in the Server Components render."), { digest: "4118470752" });
    for (const boundary of [RootError, PortalError]) {
      const html = renderToStaticMarkup(createElement(boundary, { error, retry: () => {} }));
      expect(html).toContain('data-testid="unavailable-page"');
      expect(html).toContain("<h1>Temporarily unavailable</h1>");
      expect(html).toContain("ui-card");
      expect(html).toMatch(/<button[^>]*>Try again<\/button>/);
      expect(html).toContain("4118470752");
    }
  });
});
