// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import { renderInPortal } from "@/test-support/components/render";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "./table";

function Tokens(props: { label: string } | { caption: string }) {
  return (
    <Table {...props} data-testid="tokens">
      <TableHeader>
        <TableRow>
          <TableHead>Name</TableHead>
          <TableHead>Created</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        <TableRow data-testid="token-row">
          <TableCell>release script</TableCell>
          <TableCell>yesterday</TableCell>
        </TableRow>
      </TableBody>
    </Table>
  );
}

describe("a table", () => {
  it("sits in a focusable region named like the table, which scrolls sideways by itself", async () => {
    const { user } = renderInPortal(<Tokens label="Your tokens" />);
    const region = screen.getByRole("region", { name: "Your tokens" });
    expect(region.className).toBe("ui-table-scroll");
    const table = within(region).getByRole("table", { name: "Your tokens" });
    expect(table.className).toBe("ui-table");
    expect(table.dataset.testid).toBe("tokens");
    // Keyboard users reach the region to scroll it.
    await user.tab();
    expect(document.activeElement).toBe(region);
  });

  it("is named by its visible caption when it has one", () => {
    renderInPortal(<Tokens caption="Your tokens" />);
    expect(screen.getByRole("region", { name: "Your tokens" })).toBeTruthy();
    const table = screen.getByRole("table", { name: "Your tokens" });
    expect(table.querySelector("caption")?.textContent).toBe("Your tokens");
  });

  it("heads its columns and passes attributes to rows and cells", () => {
    renderInPortal(<Tokens label="Your tokens" />);
    expect(screen.getAllByRole("columnheader").map((h) => [h.textContent, h.getAttribute("scope")])).toEqual([
      ["Name", "col"],
      ["Created", "col"],
    ]);
    const row = screen.getByTestId("token-row");
    expect(within(row).getAllByRole("cell").map((c) => c.textContent)).toEqual(["release script", "yesterday"]);
  });

  it("stacks on a phone when asked: each cell carries its column's name to show before it", () => {
    renderInPortal(
      <Table label="Endpoints" stackOnNarrow>
        <TableBody>
          <TableRow>
            <TableCell label="URL">https://example.com/hook</TableCell>
            <TableCell>actions</TableCell>
          </TableRow>
        </TableBody>
      </Table>,
    );
    const table = screen.getByRole("table", { name: "Endpoints" });
    expect(table.className).toBe("ui-table ui-table--stack");
    expect(screen.getAllByRole("cell").map((c) => c.getAttribute("data-label"))).toEqual(["URL", null]);
  });
});
