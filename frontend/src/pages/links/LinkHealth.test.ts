import { describe, expect, it } from "vitest";
import type { Schemas } from "../../api/client";
import { en } from "../../i18n/en";
import { zhCN } from "../../i18n/zh-CN";
import { healthReason } from "./LinkHealth";

// A translation function over a message table, as i18next interpolates {{name}}.
const over = (messages: Record<string, unknown>) => (key: string, o?: Record<string, unknown>) => {
  const text = key.split(".").reduce<unknown>((m, k) => (m as Record<string, unknown>)?.[k], messages);
  return String(text ?? key).replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(o?.[name] ?? ""));
};

const health = (error: string, status: number | null = null) =>
  ({ state: "broken", checked_at: "2026-11-27T01:00:00Z", status, error, detail: "" }) as Schemas["LinkHealth"];

describe("why a link is broken, in the reader's words", () => {
  it("names the status of a failing answer", () => {
    expect(healthReason(over(en), health("status", 404))).toBe("HTTP 404");
    expect(healthReason(over(zhCN), health("status", 503))).toBe("HTTP 503");
  });
  it("translates every reason the API gives", () => {
    for (const error of ["dns", "tls", "timeout", "connect", "redirects", "refused"]) {
      const text = healthReason(over(en), health(error));
      expect(text).not.toContain("linkHealth.");
      expect(healthReason(over(zhCN), health(error))).not.toBe(text);
    }
  });
  it("says the check failed for a reason it does not know", () => {
    expect(healthReason(over(en), health("quantum"))).toBe("check failed");
  });
});
