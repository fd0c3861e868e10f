// What rendered component tests share (test support, not shipped): a render with the providers a
// page gives its components (TanStack Query, Next's app router), a fake `fetch` at the network
// boundary that answers like the portal's API. The cleanup after each test and the pieces jsdom lacks are
// the tier's setup (tests/setup/rendered-components.ts).
import { vi } from "vitest";
import { render, type RenderResult } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { AppRouterContext, type AppRouterInstance } from "next/dist/shared/lib/app-router-context.shared-runtime";
import { PathnameContext, SearchParamsContext } from "next/dist/shared/lib/hooks-client-context.shared-runtime";
import { useMemo, useSyncExternalStore, type ReactElement, type ReactNode } from "react";

export function fakeRouter(): AppRouterInstance {
  return { back: vi.fn(), forward: vi.fn(), refresh: vi.fn(), push: vi.fn(), replace: vi.fn(), prefetch: vi.fn() } as unknown as AppRouterInstance;
}

/** An address the page is at, which the router's push and replace move (usePathname and useSearchParams follow). */
function memoryLocation(initial: string) {
  let current = new URL(initial, "http://portal.test");
  const listeners = new Set<() => void>();
  return {
    href: () => `${current.pathname}${current.search}`,
    go: (href: string) => {
      current = new URL(href, current);
      for (const listener of listeners) listener();
    },
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

function AtLocation({ location, children }: { location: ReturnType<typeof memoryLocation>; children: ReactNode }) {
  const href = useSyncExternalStore(location.subscribe, location.href);
  const url = new URL(href, "http://portal.test");
  const search = url.search;
  const searchParams = useMemo(() => new URLSearchParams(search), [search]);
  return (
    <PathnameContext.Provider value={url.pathname}>
      <SearchParamsContext.Provider value={searchParams}>{children}</SearchParamsContext.Provider>
    </PathnameContext.Provider>
  );
}

/**
 * Renders `ui` as a portal page would hold it; answers the render, a user-event session and the router.
 * With `url`, the page is at that address: usePathname and useSearchParams read it, and the router's
 * push and replace (still spies) move it; `location()` says where the page is.
 */
export function renderInPortal(ui: ReactElement, { router, url }: { router?: AppRouterInstance; url?: string } = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } } });
  const user = userEvent.setup();
  const location = memoryLocation(url ?? "/");
  const navigator = router ?? fakeRouter();
  if (url !== undefined && !router) {
    vi.mocked(navigator.push).mockImplementation((href) => location.go(href));
    vi.mocked(navigator.replace).mockImplementation((href) => location.go(href));
  }
  const page = <QueryClientProvider client={client}>{ui}</QueryClientProvider>;
  const result: RenderResult = render(<AppRouterContext.Provider value={navigator}>{url === undefined ? page : <AtLocation location={location}>{page}</AtLocation>}</AppRouterContext.Provider>);
  return { ...result, user, router: navigator, client, location: location.href };
}

export interface FakeCall {
  method: string;
  /** Path and query, e.g. /api/tokens?x=1. */
  url: string;
  headers: Record<string, string>;
  json: unknown;
  /** A form-encoded body (URLSearchParams), as an object. */
  form?: Record<string, string>;
}

type Answer = { status?: number; body?: unknown; headers?: Record<string, string> };
type Handler = (call: FakeCall) => Answer | Promise<Answer>;

/**
 * Replaces `fetch` with an API that answers from `routes` ("METHOD /path" → answer or handler; the
 * query string is not part of the key). Every call is recorded; an unknown route answers 404.
 */
export function fakeApi(routes: Record<string, Answer | Handler>) {
  const calls: FakeCall[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), "http://portal.test");
    const method = (init.method ?? "GET").toUpperCase();
    const call: FakeCall = {
      method,
      url: `${url.pathname}${url.search}`,
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      json: typeof init.body === "string" ? JSON.parse(init.body) : undefined,
      form: init.body instanceof URLSearchParams ? Object.fromEntries(init.body.entries()) : undefined,
    };
    calls.push(call);
    const route = routes[`${method} ${url.pathname}`];
    const answer = typeof route === "function" ? await route(call) : (route ?? { status: 404, body: { message: "not-found", detail: `no fake route for ${method} ${url.pathname}` } });
    return new Response(JSON.stringify(answer.body ?? {}), { status: answer.status ?? 200, headers: { "Content-Type": "application/json", ...answer.headers } });
  });
  vi.stubGlobal("fetch", fetch);
  return { calls, fetch, callsTo: (method: string, path: string) => calls.filter((c) => c.method === method && c.url.split("?")[0] === path) };
}

/** An answer that waits until released: for asserting what shows while a call is pending. */
export function heldAnswer(answer: Answer) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { handler: async () => (await released, answer), release };
}
