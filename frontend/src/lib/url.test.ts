import { describe, expect, it } from "vitest";
import { withScheme } from "./url";

describe("withScheme", () => {
  it.each([
    ["example.com/page", "https://example.com/page"],
    ["  www.example.com  ", "https://www.example.com"],
    ["example.com", "https://example.com"],
    ["example.com?q=1#top", "https://example.com?q=1#top"],
    ["example.com:8080/x", "https://example.com:8080/x"],
    ["localhost:3000/x", "https://localhost:3000/x"],
    ["192.168.1.10/admin", "https://192.168.1.10/admin"],
    ["[2001:db8::1]:8443/x", "https://[2001:db8::1]:8443/x"],
    ["//example.com/x", "https://example.com/x"],
    ["例子.中国/页面", "https://例子.中国/页面"],
    ["sub.example.co.uk/a:b", "https://sub.example.co.uk/a:b"],
  ])("adds https:// to %s", (input, want) => {
    expect(withScheme(input)).toBe(want);
  });

  it.each([
    ["http://example.com/page", "http://example.com/page"],
    ["HTTPS://Example.com", "HTTPS://Example.com"],
    ["ftp://example.com/file", "ftp://example.com/file"],
    ["mailto:someone@example.com", "mailto:someone@example.com"],
    ["tel:+8613800000000", "tel:+8613800000000"],
    ["javascript:alert(1)", "javascript:alert(1)"],
    ["data:text/html,hi", "data:text/html,hi"],
    ["someone@example.com", "someone@example.com"],
    ["user:pw@example.com", "user:pw@example.com"],
    ["hello", "hello"],
    ["1.5", "1.5"],
    ["", ""],
    ["   ", ""],
    ["example .com", "example .com"],
    ["/relative/path", "/relative/path"],
  ])("keeps %s as typed", (input, want) => {
    expect(withScheme(input)).toBe(want);
  });
});
