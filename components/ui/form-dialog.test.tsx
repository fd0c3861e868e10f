// @vitest-environment jsdom
import { describe, expect, it, vi } from "vitest";
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { renderInPortal } from "@/test-support/components/render";
import { Button } from "./button";
import { Field } from "./field";
import { FormDialog } from "./form-dialog";
import { Input } from "./input";

/** A page with a button that opens a rename dialog; `send` is the request, `failure` words its refusal. */
function RenamePage({ send, focusSubmit }: { send: (name: string) => Promise<void>; focusSubmit?: boolean }) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Rename…</Button>
      <FormDialog
        open={open}
        onClose={() => {
          setOpen(false);
          setError(null);
        }}
        title="Rename the token"
        submitLabel="Rename"
        pendingLabel="Renaming…"
        focusSubmit={focusSubmit}
        error={error}
        onSubmit={async (event) => {
          const name = String(new FormData(event.currentTarget).get("name"));
          try {
            await send(name);
            setOpen(false);
          } catch (failure) {
            setError((failure as Error).message);
          }
        }}
      >
        <Field label="Name">{(id) => <Input id={id} name="name" defaultValue="release script" />}</Field>
      </FormDialog>
    </>
  );
}

/** A request that waits until released (or refused). */
function held() {
  let settle!: { release: () => void; refuse: (message: string) => void };
  const promise = new Promise<void>((resolve, reject) => {
    settle = { release: resolve, refuse: (message) => reject(new Error(message)) };
  });
  return { promise, ...settle };
}

describe("a form dialog", () => {
  it("is named by its title, focuses its first field, closes on Escape and gives focus back to its opener", async () => {
    const send = vi.fn(async () => undefined);
    const { user } = renderInPortal(<RenamePage send={send} />);
    const opener = screen.getByRole("button", { name: "Rename…" });
    await user.click(opener);
    const dialog = screen.getByRole("dialog", { name: "Rename the token" });
    expect(document.activeElement).toBe(within(dialog).getByLabelText("Name"));
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(document.activeElement).toBe(opener);
    expect(send).not.toHaveBeenCalled();
  });

  it("closes from Cancel and from the backdrop, focus back on the opener each time", async () => {
    const { user } = renderInPortal(<RenamePage send={async () => undefined} />);
    const opener = screen.getByRole("button", { name: "Rename…" });
    await user.click(opener);
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(document.activeElement).toBe(opener);
    await user.click(opener);
    await user.click(screen.getByRole("dialog"));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(document.activeElement).toBe(opener);
  });

  it("sends once: the submit button is disabled while the request is in flight, and the dialog stays open", async () => {
    const request = held();
    const send = vi.fn(() => request.promise);
    const { user } = renderInPortal(<RenamePage send={send} />);
    await user.click(screen.getByRole("button", { name: "Rename…" }));
    const dialog = screen.getByRole("dialog");
    const form = dialog.querySelector("form")!;
    // Two submits in the same moment, before React renders the disabled button.
    act(() => {
      fireEvent.submit(form);
      fireEvent.submit(form);
    });
    const pending = await within(dialog).findByRole("button", { name: "Renaming…" });
    expect((pending as HTMLButtonElement).disabled).toBe(true);
    expect((within(dialog).getByRole("button", { name: "Cancel" }) as HTMLButtonElement).disabled).toBe(true);
    expect(form.getAttribute("aria-busy")).toBe("true");
    await user.click(pending);
    await user.keyboard("{Escape}");
    expect(screen.getByRole("dialog")).toBe(dialog);
    expect(send).toHaveBeenCalledTimes(1);
    expect(send).toHaveBeenCalledWith("release script");
    request.release();
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("shows the server's message in words when the request fails, and can be sent again", async () => {
    const first = held();
    const send = vi.fn().mockReturnValueOnce(first.promise).mockResolvedValueOnce(undefined);
    const { user } = renderInPortal(<RenamePage send={send} />);
    await user.click(screen.getByRole("button", { name: "Rename…" }));
    const dialog = screen.getByRole("dialog");
    await user.click(within(dialog).getByRole("button", { name: "Rename" }));
    first.refuse("A token named release script exists already.");
    expect((await within(dialog).findByRole("alert")).textContent).toBe("A token named release script exists already.");
    const submit = within(dialog).getByRole("button", { name: "Rename" }) as HTMLButtonElement;
    expect(submit.disabled).toBe(false);
    await user.click(submit);
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(send).toHaveBeenCalledTimes(2);
  });

  it("a confirmation can focus its submit button; an owner's pending request locks it too", async () => {
    const user = userEvent.setup();
    const { rerender } = render(
      <FormDialog open onClose={() => undefined} title="Revoke token?" submitLabel="Revoke" pendingLabel="Revoking…" submitVariant="danger" focusSubmit onSubmit={() => undefined}>
        <p>Scripts using it stop working at once.</p>
      </FormDialog>,
    );
    const dialog = screen.getByRole("dialog", { name: "Revoke token?" });
    expect(document.activeElement).toBe(within(dialog).getByRole("button", { name: "Revoke" }));
    rerender(
      <FormDialog open pending onClose={() => undefined} title="Revoke token?" submitLabel="Revoke" pendingLabel="Revoking…" submitVariant="danger" focusSubmit onSubmit={() => undefined}>
        <p>Scripts using it stop working at once.</p>
      </FormDialog>,
    );
    expect((within(dialog).getByRole("button", { name: "Revoking…" }) as HTMLButtonElement).disabled).toBe(true);
    await user.keyboard("{Escape}");
    expect(screen.getByRole("dialog")).toBe(dialog);
  });
});
