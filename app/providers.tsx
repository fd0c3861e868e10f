"use client";
// Client-side providers of the whole app: TanStack Query.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { z } from "zod";

// In the browser, zod parses without compiling code: it would first try `new Function`, which the pages'
// Content-Security-Policy refuses (no 'unsafe-eval') and reports as a violation, though zod goes on without it.
if (typeof window !== "undefined") z.config({ jitless: true });

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false },
        },
      }),
  );
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
