// What people type as a destination: "example.com/page" means https://example.com/page, as
// Bitly and Dub read it. Only an input that starts with a host name (with a dot, an IP address
// or localhost), perhaps a port, and then nothing or a path, query or fragment gets the scheme:
// "mailto:a@b.example", "javascript:…", "user@example.com" or "hello" stay as typed, and the
// checks refuse them.

// A scheme and its "//": http://, HTTPS://, ftp://…
const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i;
// host[:port], then the end or a path, query or fragment.
const hostFirst = /^(\[[0-9a-f:.]+\]|[^\s/?#:@[\]\\]+)(?::[0-9]{1,5})?(?:[/?#]|$)/iu;
// A domain's labels: letters (any script), digits and hyphens; its last label not all digits.
const domain = /^(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+[\p{L}\p{N}-]*\p{L}[\p{L}\p{N}-]*\.?$/u;
const ipv4 = /^(?:(?:25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])$/;

function isHost(h: string): boolean {
  return h.toLowerCase() === "localhost" || h.startsWith("[") || ipv4.test(h) || domain.test(h);
}

/**
 * The URL the input stands for: trimmed, with https:// in front when it has no scheme and
 * starts with a host ("example.com/page", "//example.com", "localhost:8080"); anything else
 * as typed (an http:// URL stays http://).
 */
export function withScheme(input: string): string {
  const v = input.trim();
  if (!v || hasScheme.test(v)) return v;
  if (v.startsWith("//")) return isHost(hostFirst.exec(v.slice(2))?.[1] ?? "") ? `https:${v}` : v;
  const m = hostFirst.exec(v);
  return m && isHost(m[1]!) ? `https://${v}` : v;
}
