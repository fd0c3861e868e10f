// @vitest-environment jsdom
import { describe, expect, it, vi } from "vitest";
import { screen } from "@testing-library/react";
import { renderInPortal } from "@/test-support/components/render";
import { ShownOnceSecret } from "./shown-once-secret";

/** After the render: user-event's setup puts a clipboard of its own on navigator. */
const stubClipboard = (writeText: (text: string) => Promise<void>) => vi.spyOn(navigator.clipboard, "writeText").mockImplementation(writeText);

describe("a secret shown once", () => {
  it("copies the value and says so; a new value starts uncopied", async () => {
    const { user, rerender } = renderInPortal(<ShownOnceSecret value="pat_first" warning="Copy it now." testId="secret" />);
    const writeText = stubClipboard(async () => undefined);
    expect(screen.getByTestId("secret").textContent).toBe("pat_first");
    expect(screen.getByRole("status").textContent).toBe("Copy it now.");
    await user.click(screen.getByRole("button", { name: "Copy" }));
    expect(writeText).toHaveBeenCalledWith("pat_first");
    expect(await screen.findByRole("button", { name: "Copied" })).toBeTruthy();
    rerender(<ShownOnceSecret value="pat_second" warning="Copy it now." testId="secret" />);
    expect(screen.getByTestId("secret").textContent).toBe("pat_second");
    expect(screen.getByRole("button", { name: "Copy" })).toBeTruthy();
  });

  it("does not claim a copy the clipboard refused", async () => {
    const { user } = renderInPortal(<ShownOnceSecret value="whsec_x" warning="Copy it now." note="Rotated." testId="secret" />);
    const writeText = stubClipboard(async () => Promise.reject(new Error("denied")));
    expect(screen.getByText("Rotated.")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Copy" }));
    expect(writeText).toHaveBeenCalledWith("whsec_x");
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.getByRole("button", { name: "Copy" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Copied" })).toBeNull();
  });
});
