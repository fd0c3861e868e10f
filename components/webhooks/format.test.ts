import { describe, expect, it } from "vitest";
import { URL_IN_MESSAGE_MAX, urlInMessage } from "./format";

describe("a URL quoted in a message", () => {
  it("is whole up to the limit", () => {
    const url = `https://game.example.com/${"h".repeat(URL_IN_MESSAGE_MAX - 25)}`;
    expect(url).toHaveLength(URL_IN_MESSAGE_MAX);
    expect(urlInMessage(url)).toBe(url);
  });

  it("keeps its start and end around an ellipsis past the limit, at the limit's length", () => {
    const url = `https://game-server.example.com/hooks/${"a1b2c3d4e5".repeat(150)}/end-of-path`;
    const quoted = urlInMessage(url);
    expect(quoted).toHaveLength(URL_IN_MESSAGE_MAX);
    expect(quoted.startsWith("https://game-server.example.com/hooks/")).toBe(true);
    expect(quoted.endsWith("/end-of-path")).toBe(true);
    expect(quoted).toContain("…");
  });
});
