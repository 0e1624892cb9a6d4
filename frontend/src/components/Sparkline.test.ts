import { describe, expect, it } from "vitest";
import { sparkPath } from "./Sparkline";

describe("sparkPath", () => {
  it("puts the largest value at the top and zero at the bottom", () => {
    expect(sparkPath([0, 2, 1], 23, 13)).toBe("M1.5,11.5 L11.5,1.5 L21.5,6.5");
  });
  it("draws days without visits as a flat line at the bottom", () => {
    expect(sparkPath([0, 0], 10, 10)).toBe("M1.5,8.5 L8.5,8.5");
  });
  it("draws nothing for no values", () => {
    expect(sparkPath([], 10, 10)).toBe("");
  });
});
