import { describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { proxy } from "@/proxy";
import { isDecodablePath } from "./path";

describe("paths whose percent-encoding is not UTF-8", () => {
  it("are told from good ones", () => {
    for (const good of ["/", "/api/components/alpha", "/api/components/%2e%2e", "/catalog/caf%C3%A9", "/api/a%20b"]) expect(isDecodablePath(good), good).toBe(true);
    for (const bad of ["/api/components/%ff%fe", "/api/components/%c0%ae", "/api/%E0%A4%A", "/catalog/%", "/api/components/%ed%a0%80"]) expect(isDecodablePath(bad), bad).toBe(false);
  });

  it("answer 400 in the proxy: JSON under /api, text for pages; others pass", async () => {
    const api = proxy(new NextRequest("http://portal.test/api/components/%ff%fe"));
    expect(api.status).toBe(400);
    expect(await api.json()).toEqual({ message: "invalid-request", detail: expect.stringContaining("percent-encoding") });
    const page = proxy(new NextRequest("http://portal.test/catalog/%c0%ae"));
    expect(page.status).toBe(400);
    expect(page.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(proxy(new NextRequest("http://portal.test/api/components/alpha")).headers.get("x-middleware-next")).toBe("1");
  });
});
