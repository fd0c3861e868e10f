import { describe, expect, it } from "vitest";
import { describeError, GitOpsApiError, when } from "./api";

describe("gitops api helpers", () => {
  it("describes error answers: message, issues, the role needed, signed out", () => {
    expect(describeError(new GitOpsApiError(409, "0.2.0 is already in production"))).toBe("0.2.0 is already in production");
    expect(
      describeError(new GitOpsApiError(422, "the config update is not valid; nothing was written", { issues: [{ path: "updates[0].values.1x", message: "a key starts with a letter" }] })),
    ).toBe("the config update is not valid; nothing was written: updates[0].values.1x: a key starts with a letter");
    expect(describeError(new GitOpsApiError(403, "forbidden", { requiredRole: "operator" }))).toBe("This needs the operator role.");
    expect(describeError(new GitOpsApiError(401, "unauthenticated"))).toBe("You are signed out. Sign in again.");
    expect(describeError(new Error("Failed to fetch"))).toBe("Failed to fetch");
  });

  it("says when, relative to now", () => {
    const now = Date.parse("2026-11-21T12:00:00Z");
    expect(when(null, now)).toBe("—");
    expect(when("2026-11-21T11:59:50Z", now)).toBe("just now");
    expect(when("2026-11-21T11:55:00Z", now)).toBe("5 minutes ago");
    expect(when("2026-11-21T11:00:00Z", now)).toBe("an hour ago");
    expect(when("2026-11-20T12:00:00Z", now)).toBe("yesterday");
    expect(when("2026-01-02T00:00:00Z", now)).toBe("2026-01-02");
    expect(when("not a date", now)).toBe("not a date");
  });
});
