import { describe, expect, it } from "vitest";
import { checkHostname, domainFilterHosts, domainState, shortLabel, shortLines, verifiedHosts, type Domain } from "./domains";

const domain = (hostname: string, verified: boolean, checked: string | null = null): Domain => ({
  id: hostname.length,
  workspace_id: 1,
  hostname,
  verified,
  verified_at: verified ? "2026-01-01T00:00:00Z" : null,
  root_url: null,
  verification: { type: "TXT", name: `_shortlink-verify.${hostname}`, value: "sl-verify-x", checked_at: checked },
  routing: [{ type: "CNAME", name: hostname, value: "sho.rt" }],
  created_at: "2026-01-01T00:00:00Z",
});

describe("domains", () => {
  it("tells the state", () => {
    expect(domainState(domain("a.example.com", true))).toBe("verified");
    expect(domainState(domain("a.example.com", false))).toBe("unchecked");
    expect(domainState(domain("a.example.com", false, "2026-01-01T00:00:00Z"))).toBe("pending");
  });

  it("lists the verified hosts", () => {
    expect(verifiedHosts([domain("a.example.com", true), domain("b.example.com", false), domain("c.example.com", true)])).toEqual([
      "a.example.com",
      "c.example.com",
    ]);
    expect(verifiedHosts(undefined)).toEqual([]);
  });

  it("checks host names", () => {
    expect(checkHostname("go.example.com")).toBeUndefined();
    expect(checkHostname("Go.Example.COM.")).toBeUndefined();
    expect(checkHostname("bücher.example.de")).toBeUndefined();
    expect(checkHostname("  ")).toEqual({ key: "hostnameRequired" });
    for (const bad of ["https://go.example.com", "go.example.com/x", "go.example.com:8080", "localhost", "a..example.com", "a b.com"]) {
      expect(checkHostname(bad), bad).toEqual({ key: "hostname" });
    }
  });

  it("offers the own host and the verified domains in the filter", () => {
    const all = [domain("go.example.com", true), domain("old.example.com", false)];
    expect(domainFilterHosts(["go.example.com"], ["go.example.com", "sho.rt", "sho.rt"], all)).toEqual(["sho.rt", "go.example.com"]);
    expect(domainFilterHosts(["go.example.com"], ["go.example.com"], all)).toEqual(["go.example.com"]);
    expect(domainFilterHosts([], [], undefined)).toEqual([]);
  });

  it("labels short URLs, removed domains too", () => {
    expect(shortLabel({ short_url: "https://go.example.com/promo", domain: "go.example.com", code: "promo" })).toBe("go.example.com/promo");
    expect(shortLabel({ short_url: "", domain: "old.example.com", code: "promo", domain_removed: true })).toBe("old.example.com/promo");
  });
  it("measures the longest line of a short URL wrapped after its host", () => {
    expect(shortLines({ short_url: "https://sho.rt/spring-sale-garden-tools-2026", domain: "sho.rt", code: "spring-sale-garden-tools-2026" })).toBe(29);
    expect(shortLines({ short_url: "https://go.example.com/ab", domain: "go.example.com", code: "ab" })).toBe(15);
  });
});
