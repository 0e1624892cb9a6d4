import { describe, expect, it } from "vitest";
import { reviewInForce, reviewReason, scorerWords } from "./Verdict";

const texts: Record<string, string> = {
  "moderation.reasons.phishing": "网络钓鱼",
  "moderation.reasons.benign": "无害",
  "linkModeration.codes.card_form": "页面索要银行卡",
};
const t = (key: string, o?: Record<string, unknown>) => texts[key] ?? String(o?.defaultValue ?? key);

describe("what the desk says decided a link", () => {
  it("shows the reviewer's verdict only when it is the decision in force", () => {
    expect(reviewInForce({ decided_by: "review" })).toBe(true);
    expect(reviewInForce({ decided_by: undefined })).toBe(true);
    expect(reviewInForce({ decided_by: "moderator" })).toBe(false);
    expect(reviewInForce({ decided_by: "domain" })).toBe(false);
  });
  it("reads a review's category and the code in force in the app's language", () => {
    expect(reviewReason(t, { category: "phishing" }, { decided_by: "review", reason_code: "card_form" })).toBe("网络钓鱼 — 页面索要银行卡");
    // A moderator's decision's code is not the review's.
    expect(reviewReason(t, { category: "phishing" }, { decided_by: "moderator", reason_code: "card_form" })).toBe("网络钓鱼");
    expect(reviewReason(t, { category: "benign" }, { decided_by: "review" })).toBe("无害");
  });
  it("keeps the scorer's English words for the English desk", () => {
    expect(scorerWords("en", "card-form 0.90: a bank's login")).toBe("card-form 0.90: a bank's login");
    expect(scorerWords("zh-CN", "card-form 0.90: a bank's login")).toBe("");
  });
});
