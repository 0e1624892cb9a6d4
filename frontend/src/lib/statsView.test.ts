import { describe, expect, it } from "vitest";
import { breakdownRows, countryName, isDate, maxKeys, rangeDays, rangeFromSearch, rangeQuery, rangeToSearch, unknownLabelKey } from "./statsView";

describe("ranges", () => {
  const now = new Date(2026, 10, 26, 15, 30); // 26 November 2026, local time

  it("reads the presets and custom dates from the URL", () => {
    expect(rangeFromSearch(new URLSearchParams(""), "90d")).toEqual({ preset: "90d" });
    expect(rangeFromSearch(new URLSearchParams("range=7d"), "90d")).toEqual({ preset: "7d" });
    expect(rangeFromSearch(new URLSearchParams("range=today&from=2026-01-01"), "30d")).toEqual({ preset: "today" });
    expect(rangeFromSearch(new URLSearchParams("range=custom&from=2026-11-01&to=2026-11-20"), "90d")).toEqual({
      preset: "custom",
      from: "2026-11-01",
      to: "2026-11-20",
    });
    // Unknown presets, bad dates and reversed ranges fall back.
    expect(rangeFromSearch(new URLSearchParams("range=12d"), "30d")).toEqual({ preset: "30d" });
    expect(rangeFromSearch(new URLSearchParams("range=custom&from=2026-11-20&to=2026-11-01"), "30d")).toEqual({ preset: "30d" });
    expect(rangeFromSearch(new URLSearchParams("range=custom&from=2026-02-30&to=2026-03-01"), "30d")).toEqual({ preset: "30d" });
  });

  it("writes the range into the URL, keeping the rest", () => {
    const p = new URLSearchParams("tab=x&from=2026-01-01&to=2026-01-02&range=custom");
    expect(rangeToSearch({ preset: "7d" }, p).toString()).toBe("tab=x&range=7d");
    expect(rangeToSearch({ preset: "custom", from: "2026-11-01", to: "2026-11-03" }, new URLSearchParams()).toString()).toBe(
      "range=custom&from=2026-11-01&to=2026-11-03",
    );
  });

  it("turns presets into days, today included", () => {
    expect(rangeDays({ preset: "today" }, now)).toEqual({ from: "2026-11-26", to: "2026-11-26" });
    expect(rangeDays({ preset: "7d" }, now)).toEqual({ from: "2026-11-20", to: "2026-11-26" });
    expect(rangeDays({ preset: "30d" }, now)).toEqual({ from: "2026-10-28", to: "2026-11-26" });
    expect(rangeDays({ preset: "90d" }, now)).toEqual({ from: "2026-08-29", to: "2026-11-26" });
    expect(rangeDays({ preset: "90d" }, new Date(2026, 0, 5))).toEqual({ from: "2025-10-08", to: "2026-01-05" });
    // A range that ends today ends now; one that ends before, at the end of its last day.
    expect(rangeQuery({ preset: "7d" }, "UTC", now)).toEqual({ from: "2026-11-20", tz: "UTC" });
    expect(rangeQuery({ preset: "custom", from: "2026-01-01", to: "2026-01-31" }, "Asia/Shanghai", now)).toEqual({
      from: "2026-01-01",
      to: "2026-01-31",
      tz: "Asia/Shanghai",
    });
  });

  it("checks dates", () => {
    expect(isDate("2024-02-29")).toBe(true);
    expect(isDate("2025-02-29")).toBe(false);
    expect(isDate("2025-1-01")).toBe(false);
    expect(isDate(null)).toBe(false);
  });
});

describe("breakdown rows", () => {
  it("counts the visits with no value as their own row", () => {
    // Three visits, one without a country: the Countries card says DE 2, unknown 1.
    expect(breakdownRows([{ key: "DE", visits: 2 }], 3)).toEqual([
      { key: "DE", unknown: false, visits: 2, percent: (2 * 100) / 3 },
      { key: "", unknown: true, visits: 1, percent: 100 / 3 },
    ]);
    // No key at all: every visit is unknown (or direct), never "no visits".
    expect(breakdownRows([], 4)).toEqual([{ key: "", unknown: true, visits: 4, percent: 100 }]);
    expect(breakdownRows(undefined, 0)).toEqual([]);
    // Every visit has a value: no unknown row.
    expect(breakdownRows([{ key: "ios", visits: 1 }, { key: "desktop", visits: 3 }], 4).map((r) => r.key)).toEqual(["desktop", "ios"]);
  });

  it("makes no unknown row when the server cut the list", () => {
    const many = Array.from({ length: maxKeys }, (_, i) => ({ key: `k${i}`, visits: 1 }));
    expect(breakdownRows(many, 500, 200).some((r) => r.unknown)).toBe(false);
  });

  it("names the visits with no value", () => {
    expect(unknownLabelKey("country")).toBe("stats.unknown");
    expect(unknownLabelKey("referrer")).toBe("stats.direct");
    expect(unknownLabelKey("utm_source")).toBe("stats.noUtm");
  });

  it("names countries in the language", () => {
    expect(countryName("DE", "en")).toBe("Germany");
    expect(countryName("DE", "zh-CN")).toBe("德国");
  });
});

describe("map shades", () => {
  it("shade countries by their share of the most visits", async () => {
    const { mapShade } = await import("./countryMap");
    expect(mapShade(0, 10)).toBe(0);
    expect(mapShade(1, 10)).toBe(1);
    expect(mapShade(10, 10)).toBe(5);
    expect(mapShade(5, 10)).toBe(3);
    expect(mapShade(3, 0)).toBe(0);
  });
});
