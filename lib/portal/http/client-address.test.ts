import { describe, expect, it } from "vitest";
import { clientAddressOf } from "./client-address";

const from = (forwardedFor?: string) => clientAddressOf(new Request("http://portal.test/rewards/redeem", { headers: forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor } }));

describe("clientAddressOf", () => {
  it("reads the address the nearest hop saw: the last entry of X-Forwarded-For", () => {
    expect(from("203.0.113.9")).toBe("203.0.113.9");
    expect(from("198.51.100.1, 203.0.113.9")).toBe("203.0.113.9");
    expect(from("2001:db8::1")).toBe("2001:db8::1");
    expect(from("::ffff:127.0.0.7")).toBe("127.0.0.7");
  });

  it("answers null when there is no address to believe", () => {
    expect(from()).toBeNull();
    expect(from("")).toBeNull();
    expect(from("unknown")).toBeNull();
    expect(from("203.0.113.9, not-an-ip")).toBeNull();
  });
});
