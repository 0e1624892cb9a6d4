import { describe, expect, it } from "vitest";
import { checkAccountPassword, checkAlias, checkEmail, checkURL, checkWorkspaceName, parseCountries } from "./validate";

describe("checks shared with the server", () => {
  it("urls", () => {
    expect(checkURL("https://example.com/a?b=c")).toBeUndefined();
    expect(checkURL("http://例子.测试/路径")).toBeUndefined();
    expect(checkURL("  ")?.key).toBe("urlRequired");
    expect(checkURL("data:text/html,hi")?.key).toBe("urlScheme");
    expect(checkURL("https://exa mple.com")?.key).toBe("urlSpaces");
    expect(checkURL("https://example.com/" + "a".repeat(2048))?.key).toBe("urlLong");
    expect(checkURL("not a url")?.key).toBe("urlSpaces");
    expect(checkURL("nourl")?.key).toBe("urlInvalid");
  });

  it("aliases", () => {
    expect(checkAlias("spring-sale_2026")).toBeUndefined();
    expect(checkAlias("a".repeat(65))?.key).toBe("alias");
    expect(checkAlias("API")?.key).toBe("aliasReserved");
  });

  it("accounts", () => {
    expect(checkEmail("a@example.com")).toBeUndefined();
    expect(checkEmail("a@localhost")?.key).toBe("email");
    expect(checkEmail("Name <a@example.com>")?.key).toBe("email");
    expect(checkAccountPassword("1234567")?.key).toBe("accountPassword");
    expect(checkAccountPassword("密码密码密码密码")).toBeUndefined();
    expect(checkWorkspaceName(" ")?.key).toBe("workspaceName");
  });

  it("country lists", () => {
    expect(parseCountries(" cn, us;DE  fr ")).toEqual(["CN", "US", "DE", "FR"]);
  });
});
