import { describe, expect, it } from "vitest";
import { filterActive, jobActive, jobFilter, jobPercent, jobRequest, type ListFilter } from "./bulkJobs";

const none: ListFilter = { search: "", status: "", domain: "", tag: "", health: "", archived: "false" };

describe("the list's filter as a job's", () => {
  it("keeps only the filters set, with the list's names", () => {
    expect(jobFilter(none)).toEqual({});
    expect(filterActive(none)).toBe(false);
    const f: ListFilter = { search: "spring", status: "disabled", domain: "go.example.com", tag: "promo", health: "broken", archived: "all" };
    expect(jobFilter(f)).toEqual({ q: "spring", status: "disabled", domain: "go.example.com", tag: ["promo"], health: "broken", archived: "all" });
    expect(filterActive({ ...none, archived: "true" })).toBe(true);
    expect(filterActive({ ...none, tag: "promo" })).toBe(true);
  });
});

describe("each action of the bulk bar", () => {
  const filter = { tag: ["promo"] };
  it("is a change, or a deletion", () => {
    expect(jobRequest({ kind: "delete" }, filter)).toEqual({ filter, delete: true });
    expect(jobRequest({ kind: "disable" }, filter)).toEqual({ filter, set: { status: "disabled" } });
    expect(jobRequest({ kind: "enable" }, filter)).toEqual({ filter, set: { status: "active" } });
    expect(jobRequest({ kind: "archive" }, filter)).toEqual({ filter, set: { archived: true } });
    expect(jobRequest({ kind: "unarchive" }, filter)).toEqual({ filter, set: { archived: false } });
    expect(jobRequest({ kind: "add", names: ["a", "b"] }, filter)).toEqual({ filter, set: { tags_add: ["a", "b"] } });
    expect(jobRequest({ kind: "remove", names: ["a"] }, filter)).toEqual({ filter, set: { tags_remove: ["a"] } });
  });
});

describe("a job's progress", () => {
  it("is the share of the matched links handled, whole once done", () => {
    expect(jobPercent({ state: "queued", done: 0, total: 0 })).toBe(0);
    expect(jobPercent({ state: "running", done: 250_000, total: 1_000_000 })).toBe(25);
    expect(jobPercent({ state: "running", done: 7, total: 3 })).toBe(100);
    expect(jobPercent({ state: "done", done: 0, total: 0 })).toBe(100);
    expect(jobActive({ state: "running" })).toBe(true);
    expect(jobActive({ state: "queued" })).toBe(true);
    expect(jobActive({ state: "canceled" })).toBe(false);
    expect(jobActive({ state: "done" })).toBe(false);
  });
});
