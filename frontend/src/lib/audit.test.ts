import { describe, expect, it } from "vitest";
import { actorText, detailLines, detailValue, targetHref, targetText } from "./audit";

const t = (key: string, o?: Record<string, unknown>) => `${key}${o ? JSON.stringify(o) : ""}`;

describe("actorText", () => {
  it("names a person by email, a key by number, and the system", () => {
    expect(actorText(t, { type: "user", id: 2, email: "a@example.com" })).toBe("a@example.com");
    expect(actorText(t, { type: "user", id: 2 })).toBe('audit.actors.user{"id":2}');
    expect(actorText(t, { type: "api_key", id: 9 })).toBe('audit.actors.api_key{"id":9}');
    expect(actorText(t, { type: "system", id: 0 })).toBe("audit.actors.system");
  });
  it("names a person with their name, and a key by its name", () => {
    expect(actorText(t, { type: "user", id: 2, email: "a@example.com", name: "Ada L" })).toBe("Ada L (a@example.com)");
    expect(actorText(t, { type: "api_key", id: 9, name: "deploy" })).toBe('audit.actors.api_key_named{"name":"deploy"}');
  });
});

describe("targetText", () => {
  it("translates known kinds and keeps others as they are", () => {
    expect(targetText(t, "link:7")).toBe('audit.targets.link{"id":"7"}');
    expect(targetText(t, "thing:7")).toBe("thing:7");
    expect(targetText(t, "")).toBe("");
  });
  it("names the target, marks one gone, and says a gone one without a name is gone", () => {
    const link = { kind: "link", id: 7, label: "http://sho.rt/abc", detail: "example.com", exists: true };
    expect(targetText(t, "link:7", link)).toBe('audit.named{"label":"http://sho.rt/abc","detail":"example.com"}');
    expect(targetText(t, "user:4", { kind: "user", id: 4, label: "a@example.com", exists: false })).toBe('audit.gone{"name":"a@example.com"}');
    expect(targetText(t, "link:7", { kind: "link", id: 7, label: "", exists: false })).toBe('audit.gone{"name":"audit.targets.link{\\"id\\":\\"7\\"}"}');
    expect(targetHref(link)).toBe("/links/7");
    expect(targetHref({ ...link, exists: false })).toBeUndefined();
    expect(targetHref({ kind: "user", id: 4, label: "a@example.com", exists: true })).toBe("/members");
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
  it("says keys and the codes it knows in the reader's words, others as they are", () => {
    const words: Record<string, string> = {
      "members.roles.admin": "管理员",
      "billing.statuses.active": "生效中",
      "audit.keys.role": "角色",
      "audit.keys.status": "状态",
      "audit.yes": "是",
    };
    const zh = (key: string, o?: Record<string, unknown>) =>
      key === "audit.detail" ? `${String(o?.key)}：${String(o?.value)}` : (words[key] ?? String(o?.defaultValue ?? key));
    expect(detailLines({ role: "admin", status: "active", verified: true, stripe_event: "evt_1", plan: "gold" }, "zh-CN", zh)).toEqual([
      "plan：gold",
      "角色：管理员",
      "状态：生效中",
      "stripe_event：evt_1",
      "verified：是",
    ]);
  });
  it("writes times in the reader's language", () => {
    expect(detailValue("2026-11-26T20:53:53Z", "en")).not.toContain("T20");
    expect(detailValue(true, "en")).toBe("true");
  });
});
