// The rewards page's messages for a link that could not be redeemed, as the server renders them: too
// many redeems says how long to wait and offers to try the kept token again; only a used, expired or
// invalid token says the link is at fault.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";

let pendingToken = false;
vi.mock("next/headers", () => ({ cookies: async () => ({ get: () => undefined, has: (name: string) => name === "rewards_pending_token" && pendingToken }) }));

const { default: RewardsPage } = await import("./page");
const render = async (searchParams: Record<string, string>) => renderToStaticMarkup(await RewardsPage({ searchParams: Promise.resolve(searchParams) }));

describe("the rewards page after a failed redeem", () => {
  it("tells a player refused for load to wait Retry-After seconds, not that the link is invalid, and offers to try again", async () => {
    pendingToken = true;
    const html = await render({ error: "unavailable", retryAfter: "17" });
    expect(html).toContain("Too many people are opening rewards right now — try again in 17 seconds.");
    expect(html).not.toContain("This link is not valid");
    expect(html).toContain('<a href="/rewards/redeem">Try again</a>');
  });

  it("keeps the other messages: the service away, and a link that is not valid", async () => {
    pendingToken = false;
    const away = await render({ error: "unavailable" });
    expect(away).toContain("We could not reach the rewards service.");
    expect(away).not.toContain("Try again");
    expect(await render({ error: "invalid" })).toContain("This link is not valid");
    expect(await render({ error: "used" })).toContain("This link has already been used");
  });
});
