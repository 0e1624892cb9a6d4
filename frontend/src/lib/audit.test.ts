import { describe, expect, it } from "vitest";
import { actorText, detailLines, detailValue, targetText } from "./audit";

const t = (key: string, o?: Record<string, unknown>) => `${key}${o ? JSON.stringify(o) : ""}`;

describe("actorText", () => {
  it("names a person by email, a key by number, and the system", () => {
    expect(actorText(t, { type: "user", id: 2, email: "a@example.com" })).toBe("a@example.com");
    expect(actorText(t, { type: "user", id: 2 })).toBe('audit.actors.user{"id":2}');
    expect(actorText(t, { type: "api_key", id: 9 })).toBe('audit.actors.api_key{"id":9}');
    expect(actorText(t, { type: "system", id: 0 })).toBe("audit.actors.system");
  });
});

describe("targetText", () => {
  it("translates known kinds and keeps others as they are", () => {
    expect(targetText(t, "link:7")).toBe('audit.targets.link{"id":"7"}');
    expect(targetText(t, "thing:7")).toBe("thing:7");
    expect(targetText(t, "")).toBe("");
  });
});

describe("detailLines", () => {
  it("lists the details in key order, nothing as a dash, lists joined", () => {
    expect(detailLines({ status: "active", plan: "enterprise", billed_until: null, scopes: ["a", "b"] }, "en")).toEqual([
      "billed_until: –",
      "plan: enterprise",
      "scopes: a, b",
      "status: active",
    ]);
  });
  it("writes times in the reader's language", () => {
    expect(detailValue("2026-11-26T20:53:53Z", "en")).not.toContain("T20");
    expect(detailValue(true, "en")).toBe("true");
  });
});
