// Checks the app makes before sending a form, the same as the server's (backend/link,
// backend/account): they save a round trip and put the message next to the field. The server
// checks everything again; its message is shown when it refuses.

/** A message key of the "validation" section of the translations, with its values. */
export interface Problem {
  key: string;
  values?: Record<string, string | number>;
}

export const limits = {
  urlLength: 2048,
  aliasLength: 64,
  titleLength: 500,
  linkPasswordMin: 4,
  linkPasswordMax: 128,
  accountPasswordMin: 8,
  accountPasswordMax: 256,
  variantsMin: 2,
  variantsMax: 10,
  weightMin: 1,
  weightMax: 100,
  formFieldsMax: 10,
  formOptionsMin: 2,
  formOptionsMax: 20,
  labelLength: 200,
  ogTitleLength: 300,
  ogDescriptionLength: 1000,
  countriesMax: 250,
  workspaceNameLength: 100,
} as const;

// Paths the service answers itself (backend/link/alias.go).
const reservedAliases = new Set([
  "api", "admin", "login", "logout", "signup", "register", "static", "assets", "healthz", "readyz",
  "metrics", "app", "dashboard", "auth", "settings", "docs", "help", "about", "terms", "privacy",
  "robots", "favicon", "www", "s", "moderation", "operator", "well-known", "_",
]);

const chars = (s: string) => [...s].length;

export function checkURL(s: string): Problem | undefined {
  const v = s.trim();
  if (!v) return { key: "urlRequired" };
  if (v.length > limits.urlLength) return { key: "urlLong", values: { max: limits.urlLength } };
  if (/[\s\u0000-\u001f\u007f]/.test(v)) return { key: "urlSpaces" };
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    return { key: "urlInvalid" };
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return { key: "urlScheme" };
  if (!u.hostname) return { key: "urlInvalid" };
  if (u.username || u.password) return { key: "urlCredentials" };
  return undefined;
}

export function checkAlias(s: string): Problem | undefined {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(s)) return { key: "alias", values: { max: limits.aliasLength } };
  if (reservedAliases.has(s.toLowerCase())) return { key: "aliasReserved", values: { alias: s } };
  return undefined;
}

export function checkEmail(s: string): Problem | undefined {
  const e = s.trim();
  const at = e.lastIndexOf("@");
  const domain = e.slice(at + 1);
  if (at < 1 || /[\s<>"\\[\]]/.test(e) || !domain.includes(".") || domain.startsWith(".") || domain.endsWith(".") || domain.includes("..")) {
    return { key: "email" };
  }
  return undefined;
}

export function checkAccountPassword(s: string): Problem | undefined {
  const n = chars(s);
  if (n < limits.accountPasswordMin || n > limits.accountPasswordMax) {
    return { key: "accountPassword", values: { min: limits.accountPasswordMin, max: limits.accountPasswordMax } };
  }
  return undefined;
}

export function checkLinkPassword(s: string): Problem | undefined {
  const n = chars(s);
  if (n < limits.linkPasswordMin || n > limits.linkPasswordMax) {
    return { key: "linkPassword", values: { min: limits.linkPasswordMin, max: limits.linkPasswordMax } };
  }
  return undefined;
}

export function checkCountry(s: string): Problem | undefined {
  return /^[A-Z]{2}$/.test(s) ? undefined : { key: "country", values: { code: s } };
}

export function checkWorkspaceName(s: string): Problem | undefined {
  const n = chars(s.trim());
  return n < 1 || n > limits.workspaceNameLength ? { key: "workspaceName", values: { max: limits.workspaceNameLength } } : undefined;
}

/** Country codes typed as "de, fr US" → ["DE", "FR", "US"]. */
export function parseCountries(s: string): string[] {
  return s
    .split(/[\s,;]+/)
    .map((c) => c.trim().toUpperCase())
    .filter(Boolean);
}
