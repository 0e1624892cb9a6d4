// Custom domains in the app: their state, the host names links may be made on, and the
// choices of the links list's domain filter.
import type { Schemas } from "../api/client";
import type { Problem } from "./validate";

export type Domain = Schemas["Domain"];

export type DomainState = "verified" | "pending" | "unchecked";

/** verified; pending once looked at without success; unchecked before the first look. */
export function domainState(d: Domain): DomainState {
  if (d.verified) return "verified";
  return d.verification.checked_at ? "pending" : "unchecked";
}

/** The host names links may be made on: the verified ones, in the server's order. */
export function verifiedHosts(domains: Domain[] | undefined): string[] {
  return (domains ?? []).filter((d) => d.verified).map((d) => d.hostname);
}

/**
 * A first check of a host name typed into the add form; the server decides (IDN, public
 * suffixes, its own hosts). Catches what is plainly no host name: a URL, a path, a port.
 */
export function checkHostname(s: string): Problem | undefined {
  const h = s.trim().replace(/\.$/, "");
  if (!h) return { key: "hostnameRequired" };
  if (h.length > 253 || /[\s/:?#@]/.test(h) || !h.includes(".") || h.split(".").some((p) => p === "" || p.length > 63)) {
    return { key: "hostname" };
  }
  return undefined;
}

/**
 * The domain filter's choices: the service's own host (when known: the host of a link that
 * is on no custom domain) and the verified custom domains, each once.
 */
export function domainFilterHosts(verified: string[], linkHosts: string[], all: Domain[] | undefined): string[] {
  const custom = new Set((all ?? []).map((d) => d.hostname));
  const own = linkHosts.find((h) => h && !custom.has(h));
  return [...new Set([...(own ? [own] : []), ...verified])];
}

/**
 * How a link's short URL reads in lists and titles: without the scheme; for a link whose
 * custom domain was removed (no short_url), its old host and code.
 */
export function shortLabel(l: { short_url: string; domain: string; code: string; domain_removed?: boolean }): string {
  if (l.domain_removed || !l.short_url) return `${l.domain}/${l.code}`;
  return l.short_url.replace(/^https?:\/\//, "");
}

/** The characters of the longest line a short URL takes once wrapped after its host's slash
 * (ShortLabel): what a heading showing it must fit across. */
export function shortLines(l: Parameters<typeof shortLabel>[0]): number {
  const label = shortLabel(l);
  const cut = label.lastIndexOf("/") + 1;
  return Math.max(cut, label.length - cut, 1);
}
