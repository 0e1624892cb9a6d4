import { describe, expect, it } from "vitest";
import { decidedByKey, meaningKey, ownerReason } from "./moderationOutcome";

const t = (key: string, o?: Record<string, unknown>) =>
  (({ "moderation.reasons.phishing": "Phishing", "linkModeration.codes.card_form": "asks for a card" }) as Record<string, string>)[key] ??
  (o?.defaultValue as string | undefined) ??
  key;

describe("ownerReason", () => {
  it("translates the category and the reason code", () => {
    expect(ownerReason(t, { category: "phishing", reason: "", reason_code: "card_form" })).toBe("Phishing — asks for a card");
  });
  it("says the category once when the code is the category, then a moderator's words", () => {
    expect(ownerReason(t, { category: "phishing", reason: "A bank's copy.", reason_code: "phishing" })).toBe("Phishing — A bank's copy.");
  });
  it("leaves out a code it has no text for, and a benign category", () => {
    expect(ownerReason(t, { category: "benign", reason: "", reason_code: "new_code" as "other" })).toBe("");
  });
});

describe("who decided", () => {
  it("names who decided, and nobody before a decision", () => {
    expect(decidedByKey({ decided_by: "review" })).toBe("linkModeration.decidedBy.review");
    expect(decidedByKey({})).toBeUndefined();
  });
  it("says what a ban means by who decided it", () => {
    expect(meaningKey({ state: "banned", decided_by: "domain" })).toBe("linkModeration.bannedBy.domain");
    expect(meaningKey({ state: "banned" })).toBe("linkModeration.bannedBy.moderator");
    expect(meaningKey({ state: "flagged", decided_by: "review" })).toBe("linkModeration.meaning.flagged");
  });
});
