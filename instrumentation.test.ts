// The portal's start (register): its own bad settings stop it before it serves, with the reason; the offers
// service's settings, bad or not, are none of its business. What follows the settings is stubbed: these cases are
// about the settings step only.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

describe("the portal's start (instrumentation.ts register)", () => {
  let exit: ReturnType<typeof vi.spyOn>;
  let error: ReturnType<typeof vi.spyOn>;
  const portalStartup = vi.fn(async () => undefined);

  beforeEach(() => {
    vi.resetModules();
    vi.stubEnv("NEXT_RUNTIME", "nodejs");
    vi.doMock("@/lib/portal/metrics", () => ({ observeRequests: vi.fn(), serveMetrics: vi.fn(async () => undefined) }));
    vi.doMock("@/lib/portal/startup", () => ({ portalStartup }));
    vi.doMock("@/lib/portal/services", () => ({ getPortalServices: vi.fn(() => ({})) }));
    exit = vi.spyOn(process, "exit").mockImplementation(((code?: number) => {
      throw new Error(`exit ${code}`);
    }) as never);
    error = vi.spyOn(console, "error").mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
    vi.doUnmock("@/lib/portal/metrics");
    vi.doUnmock("@/lib/portal/startup");
    vi.doUnmock("@/lib/portal/services");
    vi.resetModules();
    portalStartup.mockClear();
  });

  it("exits with every bad setting of its own named, before anything starts", async () => {
    vi.stubEnv("PORT", "seventy");
    vi.stubEnv("SCM_PROVIDER", "svn");
    const { register } = await import("@/instrumentation");
    await expect(register()).rejects.toThrow("exit 1");
    expect(exit).toHaveBeenCalledWith(1);
    const printed = error.mock.calls.flat().join("\n");
    expect(printed).toContain("[portal] Invalid settings of the portal");
    expect(printed).toContain('PORT="seventy": a whole number from 1 to 65535');
    expect(printed).toContain('SCM_PROVIDER="svn": one of local, gitlab');
    expect(portalStartup).not.toHaveBeenCalled();
  });

  it("starts whatever the offers service's own settings say", async () => {
    vi.stubEnv("OFFERS_PORT", "seventy");
    vi.stubEnv("OFFERS_TRUST_PROXY", "proxy.internal");
    vi.stubEnv("SSE_HEARTBEAT_MS", "soon");
    const { register } = await import("@/instrumentation");
    await register();
    expect(exit).not.toHaveBeenCalled();
    expect(portalStartup).toHaveBeenCalledOnce();
  });
});
