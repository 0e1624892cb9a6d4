import { describe, expect, it } from "vitest";
import { formatDateTime, formatNumber, qrFileName, ranked, usageColor, usageLevel, usagePercent } from "./format";
import { current, firstPage, next, pageNumber, previous } from "./pages";

describe("breakdowns", () => {
  it("rank by visits with shares of the total", () => {
    expect(ranked([{ key: "US", visits: 1 }, { key: "CN", visits: 3 }, { key: "DE", visits: 1 }], 2)).toEqual([
      { key: "CN", visits: 3, percent: 60 },
      { key: "DE", visits: 1, percent: 20 },
    ]);
    expect(ranked(undefined)).toEqual([]);
  });
});

describe("dates and numbers", () => {
  // Noon UTC is the same day in every zone the tests may run in.
  const noon = "2026-11-26T12:00:00Z";
  it("follow the reader's language", () => {
    expect(formatDateTime(noon, "en", "date")).toBe("Nov 26, 2026");
    expect(formatDateTime(noon, "zh-CN", "date")).toBe("2026年11月26日");
    expect(formatDateTime(noon, "en")).toMatch(/^Nov 26, 2026, \d{1,2}:\d{2}\s?[AP]M$/);
    expect(formatDateTime(noon, "zh-CN")).toMatch(/^2026年11月26日 \d{2}:\d{2}$/);
    expect(formatNumber(12345, "en")).toBe("12,345");
    expect(formatNumber(12345, "zh-CN")).toBe("12,345");
  });
  it("are empty without a readable date", () => {
    expect(formatDateTime(null, "en")).toBe("");
    expect(formatDateTime("", "en")).toBe("");
    expect(formatDateTime("not a date", "zh-CN")).toBe("");
  });
});

describe("usage", () => {
  it("is a share of the limit, none when unlimited", () => {
    expect(usagePercent(25, 100)).toBe(25);
    expect(usagePercent(150, 100)).toBe(100);
    expect(usagePercent(5, null)).toBe(0);
  });
  it("calls usage at the limit full, and only past it an error", () => {
    // The free plan's one member, its owner: full, not red.
    expect(usageLevel(1, 1)).toBe("full");
    expect(usageColor(usageLevel(1, 1))).toBe("yellow");
    expect(usageLevel(2, 1)).toBe("over");
    expect(usageColor(usageLevel(2, 1))).toBe("red");
    expect(usageLevel(95, 100)).toBe("room");
    expect(usageColor(usageLevel(95, 100))).toBe("blue");
    expect(usageLevel(0, 0)).toBe("full");
    expect(usageLevel(5, null)).toBe("room");
  });
});

describe("cursor pages", () => {
  it("go on and back", () => {
    let p = next(firstPage, "c1");
    p = next(p, "c2");
    expect([current(p), pageNumber(p)]).toEqual(["c2", 3]);
    expect(next(p, "")).toBe(p);
    p = previous(previous(p));
    expect([current(p), pageNumber(p)]).toEqual(["", 1]);
    expect(previous(p)).toBe(p);
  });
});

it("names QR files by code", () => {
  expect(qrFileName("a/b", "svg")).toBe("qr-a_b.svg");
});
