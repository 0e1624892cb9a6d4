import { describe, expect, it } from "vitest";
import { formatBytes, importActive, importFinished, importPercent } from "./imports";

describe("imports", () => {
  it("tells jobs under way from finished ones", () => {
    expect(importActive({ state: "queued" })).toBe(true);
    expect(importActive({ state: "running" })).toBe(true);
    expect(importActive({ state: "done" })).toBe(false);
    expect(importFinished({ state: "failed" })).toBe(true);
    expect(importFinished({ state: "running" })).toBe(false);
  });
  it("measures progress", () => {
    expect(importPercent({ done: 0, rows: 0 })).toBe(0);
    expect(importPercent({ done: 150, rows: 300 })).toBe(50);
    expect(importPercent({ done: 300, rows: 300 })).toBe(100);
  });
  it("writes sizes", () => {
    expect(formatBytes(64 << 20, "en-US")).toBe("64 MB");
    expect(formatBytes(1536, "en-US")).toBe("1.5 kB");
    expect(formatBytes(12, "en-US")).toBe("12 B");
    expect(formatBytes(190, "en-US")).toBe("190 B");
    expect(formatBytes(190, "zh-CN")).toBe("190 B");
    expect(formatBytes(0, "en-US")).toBe("0 B");
  });
});
