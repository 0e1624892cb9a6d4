import { describe, expect, it } from "vitest";
import { paidFor, paymentSettled } from "./PaymentReturn";

describe("paidFor", () => {
  it("is the plan the return names, or the trial", () => {
    expect(paidFor(new URLSearchParams("workspace=3&checkout=success&plan=personal"))).toBe("personal");
    expect(paidFor(new URLSearchParams("workspace=3&trial=success"))).toBe("trial");
    expect(paidFor(new URLSearchParams("workspace=3&checkout=success"))).toBeUndefined();
    expect(paidFor(new URLSearchParams("workspace=3&checkout=canceled&plan=personal"))).toBeUndefined();
  });
});

describe("paymentSettled", () => {
  it("settles when the plan shown is the one paid for, already there on arrival or arriving later", () => {
    // The event landed before the owner came back: the plan is the paid one from the start.
    expect(paymentSettled("personal", "personal", "personal")).toBe(true);
    // The event lands while the page is open.
    expect(paymentSettled("personal", "free", "free")).toBe(false);
    expect(paymentSettled("personal", "free", "personal")).toBe(true);
    expect(paymentSettled("trial", "free", "trial")).toBe(true);
    // Another plan is not the one paid for.
    expect(paymentSettled("enterprise", "trial", "personal")).toBe(false);
    expect(paymentSettled("personal", "free", undefined)).toBe(false);
  });
  it("settles on a change of plan when the return names none", () => {
    expect(paymentSettled(undefined, "free", "enterprise")).toBe(true);
    expect(paymentSettled(undefined, "free", "free")).toBe(false);
    expect(paymentSettled(undefined, undefined, "personal")).toBe(false);
  });
});
