import { afterEach, describe, expect, it, vi } from "vitest";
import { devSignInListenProblem, isLoopbackHost } from "./listen-address";

describe("where the portal may listen with the development sign-in", () => {
  it("knows loopback addresses from the rest", () => {
    for (const host of ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost", "LOCALHOST", "::ffff:127.0.0.1"]) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ["0.0.0.0", "::", "[::]", "192.168.1.10", "10.0.0.1", "portal.internal", "::ffff:10.0.0.1", "128.0.0.1"]) expect(isLoopbackHost(host), host).toBe(false);
  });

  it("refuses the development sign-in on every interface or another address, unless allowed on purpose", () => {
    const env = { PORTAL_HOST: "0.0.0.0", PORTAL_DEV_LOGIN: true, PORTAL_DEV_LOGIN_ANY_HOST: false };
    expect(devSignInListenProblem(env)).toContain("PORTAL_DEV_LOGIN=1 with PORTAL_HOST=0.0.0.0");
    expect(devSignInListenProblem({ ...env, PORTAL_HOST: "192.168.1.10" })).toContain("PORTAL_DEV_LOGIN_ANY_HOST=1");
    expect(devSignInListenProblem({ ...env, PORTAL_DEV_LOGIN_ANY_HOST: true })).toBeNull();
    expect(devSignInListenProblem({ ...env, PORTAL_HOST: "127.0.0.1" })).toBeNull();
    expect(devSignInListenProblem({ ...env, PORTAL_DEV_LOGIN: false })).toBeNull();
  });
});

describe("the portal's start (instrumentation.ts register)", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
    vi.resetModules();
  });

  it("exits with the reason before serving when the development sign-in would listen on every interface", async () => {
    vi.stubEnv("NEXT_RUNTIME", "nodejs");
    vi.stubEnv("PORTAL_DEV_LOGIN", "1");
    vi.stubEnv("PORTAL_HOST", "0.0.0.0");
    vi.stubEnv("PORTAL_DEV_LOGIN_ANY_HOST", "");
    const exit = vi.spyOn(process, "exit").mockImplementation(((code?: number) => {
      throw new Error(`exit ${code}`);
    }) as never);
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    vi.resetModules();
    const { register } = await import("@/instrumentation");
    await expect(register()).rejects.toThrow("exit 1");
    expect(exit).toHaveBeenCalledWith(1);
    expect(error.mock.calls.flat().join("\n")).toContain("PORTAL_DEV_LOGIN=1 with PORTAL_HOST=0.0.0.0: the development sign-in");
  });
});
