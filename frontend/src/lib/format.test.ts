import { describe, expect, it } from "vitest";
import { qrFileName, ranked, usagePercent } from "./format";
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

describe("usage", () => {
  it("is a share of the limit, none when unlimited", () => {
    expect(usagePercent(25, 100)).toBe(25);
    expect(usagePercent(150, 100)).toBe(100);
    expect(usagePercent(5, null)).toBe(0);
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
