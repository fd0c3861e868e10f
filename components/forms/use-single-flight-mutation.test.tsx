// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { useSingleFlightMutation } from "./use-single-flight-mutation";

function Sender({ send }: { send: (n: number) => Promise<string> }) {
  const mutation = useSingleFlightMutation({ mutationFn: send });
  return (
    <>
      <button onClick={() => mutation.mutate(1)} disabled={mutation.isPending}>
        Send
      </button>
      <output>{mutation.isError ? "failed" : (mutation.data ?? "")}</output>
    </>
  );
}

function held() {
  const calls: Array<{ resolve: (v: string) => void; reject: (e: Error) => void }> = [];
  const send = () => new Promise<string>((resolve, reject) => calls.push({ resolve, reject }));
  return { calls, send };
}

function renderSender(send: (n: number) => Promise<string>) {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <Sender send={send} />
    </QueryClientProvider>,
  );
}

describe("useSingleFlightMutation", () => {
  afterEach(cleanup);

  it("sends once for two clicks before the button is drawn disabled, and again once the first is answered", async () => {
    const { calls, send } = held();
    renderSender(send);
    const button = screen.getByRole("button", { name: "Send" });
    // Both clicks in one task: React has not drawn the pending state in between (a double-click).
    act(() => {
      fireEvent.click(button);
      fireEvent.click(button);
    });
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(true));
    expect(calls).toHaveLength(1);
    await act(async () => calls[0]!.resolve("sent"));
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe("sent"));
    fireEvent.click(button);
    await waitFor(() => expect(calls).toHaveLength(2));
  });

  it("a failed send frees the control for the next click", async () => {
    const { calls, send } = held();
    renderSender(send);
    const button = screen.getByRole("button", { name: "Send" });
    fireEvent.click(button);
    await waitFor(() => expect(calls).toHaveLength(1));
    await act(async () => calls[0]!.reject(new Error("down")));
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe("failed"));
    fireEvent.click(button);
    await waitFor(() => expect(calls).toHaveLength(2));
  });
});
