import { describe, expect, it } from "vitest";
import { planArrived } from "./PaymentReturn";

describe("planArrived", () => {
  it("is the plan changing after the return", () => {
    expect(planArrived("free", "enterprise")).toBe(true);
    expect(planArrived("free", "free")).toBe(false);
    expect(planArrived(undefined, "personal")).toBe(false);
  });
});
