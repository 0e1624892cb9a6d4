import { describe, expect, it } from "vitest";
import { mailLanguage } from "./mailLanguage";

describe("mailLanguage", () => {
  it("reads any Chinese tag as zh and anything else as en", () => {
    expect(mailLanguage("zh-CN")).toBe("zh");
    expect(mailLanguage("zh-TW")).toBe("zh");
    expect(mailLanguage("en")).toBe("en");
    expect(mailLanguage("fr-FR")).toBe("en");
    expect(mailLanguage(undefined)).toBe("en");
  });
});
