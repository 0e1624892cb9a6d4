import { describe, expect, it } from "vitest";
import { reasonText } from "./ModerationState";

const t = (key: string, o?: Record<string, unknown>) => (key === "moderation.reasons.phishing" ? "Phishing" : String(o?.defaultValue ?? key));

describe("the reason an owner reads", () => {
  it("joins the translated standard reason and the words", () => {
    expect(reasonText(t, "phishing", "Asks for bank passwords.")).toBe("Phishing — Asks for bank passwords.");
  });
  it("shows either alone", () => {
    expect(reasonText(t, "phishing", "")).toBe("Phishing");
    expect(reasonText(t, "", "A link farm.")).toBe("A link farm.");
  });
  it("says nothing of a harmless category, and nothing when there is nothing", () => {
    expect(reasonText(t, "benign", "")).toBe("");
    expect(reasonText(t, "", "")).toBe("");
  });
});
