import { describe, expect, it } from "vitest";
import { filterEntries, filterFromSearch, isFilterName, validFilterValue, withFilter, withoutFilter } from "./statsFilter";

describe("statistics filters", () => {
  it("reads the filters from the URL beside the range", () => {
    const p = new URLSearchParams("range=7d&country=DE&utm_source=news%20letter&device=ios");
    expect(filterFromSearch(p)).toEqual({ country: "DE", utm_source: "news letter", device: "ios" });
    expect(filterFromSearch(new URLSearchParams("range=7d"))).toEqual({});
  });

  it("leaves out what the API would refuse", () => {
    const p = new URLSearchParams("country=de&device=tablet&os=&referrer=a&referrer=b&browser=" + "x".repeat(254));
    expect(filterFromSearch(p)).toEqual({});
    expect(validFilterValue("utm_campaign", "é".repeat(126))).toBe(true); // 252 bytes
    expect(validFilterValue("utm_campaign", "é".repeat(127))).toBe(false); // 254 bytes
    expect(validFilterValue("os", "a\u0000b")).toBe(false);
    // Parameters of other breakdowns are not filters.
    expect(filterFromSearch(new URLSearchParams("variant=0"))).toEqual({});
    expect(filterFromSearch(new URLSearchParams("variant=0&in_app=wechat"))).toEqual({ in_app: "wechat" });
    expect(isFilterName("variant")).toBe(false);
    expect(isFilterName("referrer")).toBe(true);
  });

  it("adds, replaces and removes a filter, keeping the rest of the URL", () => {
    let p = new URLSearchParams("range=custom&from=2026-11-01&to=2026-11-20");
    p = withFilter(p, "country", "DE");
    p = withFilter(p, "device", "desktop");
    expect(p.toString()).toBe("range=custom&from=2026-11-01&to=2026-11-20&country=DE&device=desktop");
    p = withFilter(p, "country", "CN");
    expect(filterFromSearch(p)).toEqual({ country: "CN", device: "desktop" });
    p = withoutFilter(p, "country");
    expect(p.toString()).toBe("range=custom&from=2026-11-01&to=2026-11-20&device=desktop");
    p = withoutFilter(withFilter(p, "referrer", "t.co"));
    expect(p.toString()).toBe("range=custom&from=2026-11-01&to=2026-11-20");
  });

  it("lists the chips in the breakdowns' order", () => {
    expect(filterEntries({ utm_campaign: "spring", country: "DE", os: "iOS" })).toEqual([
      ["country", "DE"],
      ["os", "iOS"],
      ["utm_campaign", "spring"],
    ]);
  });
});
