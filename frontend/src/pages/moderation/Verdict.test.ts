import { describe, expect, it } from "vitest";
import { answeredAppeal, decisionLine, reviewInForce, reviewReason, scorerWords } from "./Verdict";

const texts: Record<string, string> = {
  "moderation.reasons.phishing": "网络钓鱼",
  "moderation.reasons.benign": "无害",
  "linkModeration.codes.card_form": "页面索要银行卡",
  "moderation.reasons.scam": "诈骗",
  "linkModeration.decidedBy.moderator": "由审核员决定",
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
  it("names a ban's category, and none once a moderator lifted it", () => {
    expect(decisionLine(t, { decided_by: "moderator", state: "banned", category: "scam" }, "mod@example.com")).toBe("由审核员决定 · mod@example.com · 诈骗");
    // Unbanned: the link keeps the lifted ban's category, which no longer applies.
    expect(decisionLine(t, { decided_by: "moderator", state: "passed", category: "scam" }, "mod@example.com")).toBe("由审核员决定 · mod@example.com");
    expect(decisionLine(t, { decided_by: "review", state: "banned", category: "scam" })).toBe("");
  });
  it("keeps the scorer's English words for the English desk", () => {
    expect(scorerWords("en", "card-form 0.90: a bank's login")).toBe("card-form 0.90: a bank's login");
    expect(scorerWords("zh-CN", "card-form 0.90: a bank's login")).toBe("");
  });
});

describe("an answered appeal on the desk", () => {
  it("says how it ended and what the owner was told; nothing while it is open", () => {
    expect(answeredAppeal({ resolved_at: null })).toBeUndefined();
    expect(answeredAppeal(null)).toBeUndefined();
    expect(answeredAppeal({ resolved_at: "2026-12-07T03:20:00Z", outcome: "rejected", answer: "The page copies a bank." })).toEqual({
      key: "moderation.appealRejected",
      date: "2026-12-07T03:20:00Z",
      answer: "The page copies a bank.",
    });
    expect(answeredAppeal({ resolved_at: "2026-12-07T03:20:00Z", outcome: "upheld" })).toEqual({ key: "moderation.appealUpheld", date: "2026-12-07T03:20:00Z", answer: "" });
  });
});
