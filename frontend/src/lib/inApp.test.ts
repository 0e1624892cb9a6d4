import { describe, expect, it } from "vitest";
import { inAppShares, wholePercent } from "./inApp";

describe("in-app browsers' figure", () => {
  it("rounds a share to a whole percent, at least 1 for any visit", () => {
    expect(wholePercent(12, 100)).toBe(12);
    expect(wholePercent(1, 1000)).toBe(1);
    expect(wholePercent(0, 10)).toBe(0);
    expect(wholePercent(3, 0)).toBe(0);
    expect(wholePercent(5, 4)).toBe(100);
  });

  it("lists the apps with most visits first, then by key, the first three", () => {
    const counts = [
      { key: "qq", visits: 2 },
      { key: "wechat", visits: 12 },
      { key: "line", visits: 2 },
      { key: "weibo", visits: 1 },
      { key: "", visits: 7 },
    ];
    expect(inAppShares(counts, 100)).toEqual({
      all: 17,
      apps: [
        { key: "wechat", visits: 12, percent: 12 },
        { key: "line", visits: 2, percent: 2 },
        { key: "qq", visits: 2, percent: 2 },
      ],
    });
    expect(inAppShares([], 100)).toEqual({ all: 0, apps: [] });
  });
});
