import { describe, expect, it } from "vitest";
import { when } from "./relative-time";

describe("relative time", () => {
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
