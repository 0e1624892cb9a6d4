import { describe, expect, it } from "vitest";
import { invitationDaysLeft, invitesFull, memberLevel } from "./members";

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

describe("invitationDaysLeft", () => {
  const now = Date.parse("2026-12-01T12:00:00Z");
  it("counts the days begun, 0 within the last day, and expired after", () => {
    expect(invitationDaysLeft("2026-12-08T12:00:00Z", false, now)).toBe(7);
    expect(invitationDaysLeft("2026-12-08T11:59:00Z", false, now)).toBe(7);
    expect(invitationDaysLeft("2026-12-04T11:00:00Z", false, now)).toBe(3);
    expect(invitationDaysLeft("2026-12-01T13:00:00Z", false, now)).toBe(0);
    expect(invitationDaysLeft("2026-12-01T12:00:00Z", false, now)).toBe("expired");
    expect(invitationDaysLeft("2026-12-08T12:00:00Z", true, now)).toBe("expired");
  });
});
