import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RewardKind, type ApprovalRule } from "../contract";
import { approvalNeeded, approvalNeededFor, decisionRefusal, isStale, samePerson } from "./four-eyes";

const kinds = RewardKind.options;
const kind = fc.constantFrom(...kinds);
const rewardId = fc.constantFrom("gold", "gems", "sword", "crown");
const amount = fc.integer({ min: 1, max: 1_000_000 });
const rule: fc.Arbitrary<ApprovalRule> = fc.record(
  { kind, rewardId: rewardId, approvalAbove: fc.oneof(fc.constant("always" as const), fc.integer({ min: 0, max: 1_000_000 })) },
  { requiredKeys: ["kind", "approvalAbove"] },
);
const rules = fc.array(rule, { maxLength: 8 });
const grant = fc.record({ kind, rewardId, amount });

describe("four eyes: when a support grant waits for a second person", () => {
  it("without rules every grant is immediate", () => {
    fc.assert(fc.property(grant, (g) => !approvalNeeded([], g).required));
  });

  it("is monotonic in the amount: more of the same reward never needs less approval", () => {
    fc.assert(
      fc.property(rules, grant, fc.integer({ min: 0, max: 1_000_000 }), (rs, g, more) => {
        if (approvalNeeded(rs, g).required) expect(approvalNeeded(rs, { ...g, amount: g.amount + more }).required).toBe(true);
      }),
    );
  });

  it("adding a rule never lets through a grant that needed approval", () => {
    fc.assert(
      fc.property(rules, rule, grant, (rs, extra, g) => {
        if (approvalNeeded(rs, g).required) expect(approvalNeeded([...rs, extra], g).required).toBe(true);
      }),
    );
  });

  it("a rule of another kind or another reward id never applies", () => {
    fc.assert(
      fc.property(rule, grant, (r, g) => {
        fc.pre(r.kind !== g.kind || (r.rewardId !== undefined && r.rewardId !== g.rewardId));
        expect(approvalNeeded([r], g).required).toBe(false);
      }),
    );
  });

  it("'always' needs approval for any amount; a number needs it strictly above", () => {
    fc.assert(
      fc.property(grant, fc.integer({ min: 0, max: 1_000_000 }), (g, above) => {
        expect(approvalNeeded([{ kind: g.kind, approvalAbove: "always" }], g).required).toBe(true);
        expect(approvalNeeded([{ kind: g.kind, rewardId: g.rewardId, approvalAbove: above }], g).required).toBe(g.amount > above);
      }),
    );
  });

  it("a game server's grant never waits, whatever the rules; a person's waits exactly as the rules say", () => {
    fc.assert(
      fc.property(rules, grant, (rs, g) => {
        expect(approvalNeededFor("game-server", rs, g)).toEqual({ required: false, rule: null });
        expect(approvalNeededFor("person", rs, g)).toEqual(approvalNeeded(rs, g));
      }),
    );
  });

  it("names the rule that asked for approval", () => {
    const premium: ApprovalRule = { kind: "loyalty_currency", approvalAbove: "always" };
    expect(approvalNeeded([{ kind: "coins", approvalAbove: 1000 }, premium], { kind: "loyalty_currency", rewardId: "gems", amount: 1 })).toEqual({ required: true, rule: premium });
    expect(approvalNeeded([{ kind: "coins", approvalAbove: 1000 }], { kind: "coins", rewardId: "gold", amount: 1000 })).toEqual({ required: false, rule: null });
  });
});

describe("four eyes: who decides a pending grant", () => {
  const now = new Date("2026-12-07T00:00:00Z");
  const later = new Date(now.getTime() + 1000);
  const actorId = fc.stringMatching(/^[a-z0-9@.]{1,12}$/);

  it("never the requester, however they type their id", () => {
    fc.assert(
      fc.property(actorId, fc.boolean(), (id, upper) => {
        const typed = upper ? ` ${id.toUpperCase()} ` : id;
        expect(samePerson(id, typed)).toBe(true);
        expect(decisionRefusal({ status: "pending", requestedBy: id, expiresAt: later }, typed, now)).toBe("same-person");
      }),
    );
  });

  it("anyone else while it is pending and fresh; nobody once decided or stale", () => {
    fc.assert(
      fc.property(actorId, actorId, fc.constantFrom("pending", "granted", "rejected", "expired") as fc.Arbitrary<"pending" | "granted" | "rejected" | "expired">, fc.integer({ min: -5000, max: 5000 }), (requester, approver, status, offset) => {
        fc.pre(!samePerson(requester, approver));
        const expiresAt = new Date(now.getTime() + offset);
        const refusal = decisionRefusal({ status, requestedBy: requester, expiresAt }, approver, now);
        if (status !== "pending") expect(refusal).toBe("not-pending");
        else if (offset <= 0) expect(refusal).toBe("expired");
        else expect(refusal).toBeNull();
        expect(isStale({ status, expiresAt }, now)).toBe(status === "pending" && offset <= 0);
      }),
    );
  });
});
