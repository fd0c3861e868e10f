import { encode } from "next-auth/jwt";
import { describe, expect, it } from "vitest";
import { decodeSessionToken } from "./session-user";

const secret = "session-user-test-secret-0123456789";

describe("decodeSessionToken", () => {
  it("answers the same user on every request, and a change to the answer does not leak into the next", async () => {
    const cookie = await encode({ token: { username: "ana", name: "Ana", groups: ["platform"] }, secret, maxAge: 3600 });
    const first = await decodeSessionToken(cookie, secret);
    expect(first).toMatchObject({ username: "ana", name: "Ana", groups: ["platform"] });
    (first as { username: string }).username = "mallory";
    const second = await decodeSessionToken(cookie, secret);
    expect(second).toMatchObject({ username: "ana", groups: ["platform"] });
  });

  it("refuses a session once it has expired, even one decoded before", async () => {
    const cookie = await encode({ token: { username: "bo" }, secret, maxAge: 60 });
    expect(await decodeSessionToken(cookie, secret)).toMatchObject({ username: "bo" });
    const later = Date.now() + 61_000;
    expect(await decodeSessionToken(cookie, secret, () => later)).toBeNull();
  });

  it("refuses a token of another secret, a tampered one and none", async () => {
    const cookie = await encode({ token: { username: "cy" }, secret, maxAge: 3600 });
    expect(await decodeSessionToken(cookie, secret)).toMatchObject({ username: "cy" });
    expect(await decodeSessionToken(cookie, `${secret}-other`)).toBeNull();
    const tampered = `${cookie.slice(0, -4)}${cookie.endsWith("AAAA") ? "BBBB" : "AAAA"}`;
    expect(await decodeSessionToken(tampered, secret)).toBeNull();
    expect(await decodeSessionToken(undefined, secret)).toBeNull();
  });
});
