import type { Metadata } from "next";
import type { ReactNode } from "react";
import { connection } from "next/server";
import { HydrationMark } from "./hydration-mark";
import { Providers } from "./providers";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Platform portal", template: "%s · Platform portal" },
  description: "Internal platform portal: catalog, app orders, offers.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders per request: its scripts carry the nonce of that response's policy (proxy.ts);
  // a page prerendered at build time would have none, and the policy would refuse its scripts.
  await connection();
  return (
    <html lang="en">
      <body>
        <Providers>{children}</Providers>
        <HydrationMark />
      </body>
    </html>
  );
}
