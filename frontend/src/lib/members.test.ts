import { describe, expect, it } from "vitest";
import { invitesFull, memberLevel } from "./members";

describe("memberLevel", () => {
  it("is calm below the limit on a small plan, and full at it", () => {
    expect(memberLevel(1, 3)).toBe("calm");
    expect(memberLevel(2, 3)).toBe("calm");
    expect(memberLevel(1, 1)).toBe("full");
    expect(memberLevel(3, 3)).toBe("full");
  });
  it("is near from 80 % of a larger plan", () => {
    expect(memberLevel(7, 10)).toBe("calm");
    expect(memberLevel(8, 10)).toBe("near");
  });
  it("is calm without a limit", () => {
    expect(memberLevel(500, null)).toBe("calm");
  });
});

describe("invitesFull", () => {
  it("counts invitations waiting as members", () => {
    expect(invitesFull(1, 0, 2)).toBe(false);
    expect(invitesFull(1, 1, 2)).toBe(true);
    expect(invitesFull(2, 0, 2)).toBe(true);
    expect(invitesFull(40, 9, null)).toBe(false);
  });
});
