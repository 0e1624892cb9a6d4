// Numbers, times and breakdown rows as the pages show them.

export interface Share {
  key: string;
  visits: number;
  /** Percent of the breakdown's total, 0–100. */
  percent: number;
}

/** A breakdown ranked by visits (then key), with each row's share of the total. */
export function ranked(rows: { key: string; visits: number }[] | undefined, top = 10): Share[] {
  const list = [...(rows ?? [])].sort((a, b) => b.visits - a.visits || a.key.localeCompare(b.key));
  const total = list.reduce((n, r) => n + r.visits, 0);
  return list.slice(0, top).map((r) => ({ ...r, percent: total ? (r.visits * 100) / total : 0 }));
}

/** Labels of a series' points: hours ("14:00") or days ("11-23"), in the browser's zone. */
export function pointLabel(start: string, unit: "hour" | "day", locale?: string): string {
  const d = new Date(start);
  return unit === "hour"
    ? new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit", hour12: false }).format(d)
    : new Intl.DateTimeFormat(locale, { month: "2-digit", day: "2-digit" }).format(d);
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * A time for people in the reader's language (pass i18n.resolvedLanguage) and the browser's
 * zone: date and time ("Nov 26, 2026, 6:48 PM", "2026年11月26日 18:48") or the date alone;
 * "" for none or one that cannot be read.
 */
export function formatDateTime(iso: string | null | undefined, lang: string | undefined, style: "datetime" | "date" = "datetime"): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const key = `${lang ?? ""}|${style}`;
  let f = dateFormats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(lang, style === "date" ? { dateStyle: "medium" } : { dateStyle: "medium", timeStyle: "short" });
    dateFormats.set(key, f);
  }
  return f.format(d);
}

/** A count for people in the reader's language ("12,345"). */
export function formatNumber(n: number, lang: string | undefined): string {
  return new Intl.NumberFormat(lang).format(n);
}

/** The browser's IANA time zone, for the statistics' days. */
export function timeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

/** A file name for a link's QR code: the code, safe for any file system. */
export function qrFileName(code: string, format: "png" | "svg"): string {
  return `qr-${code.replace(/[^A-Za-z0-9_-]/g, "_")}.${format}`;
}

/** Usage against a limit as a percentage for a bar; null limits are unlimited (0 %). */
export function usagePercent(used: number, limit: number | null | undefined): number {
  if (limit == null) return 0;
  if (limit <= 0) return 100;
  return Math.min(100, (used * 100) / limit);
}

/** Where usage stands against its limit: room left, every place taken (not an error: the
 * free plan's one member is its owner), or more used than the plan allows (after a downgrade). */
export type UsageLevel = "room" | "full" | "over";

export function usageLevel(used: number, limit: number | null | undefined): UsageLevel {
  if (limit == null || used < limit) return "room";
  return used === limit ? "full" : "over";
}

/** A bar's colour for a usage level: red only past the limit, amber at it. */
export function usageColor(level: UsageLevel): string {
  return { room: "blue", full: "yellow", over: "red" }[level];
}

/**
 * A size in bytes in the reader's language: "64 MB", "1.5 kB", "190 B" (Intl names a byte
 * "byte" in English, where sizes read "B").
 */
export function formatBytes(bytes: number, locale?: string): string {
  const units = [
    ["megabyte", 1 << 20],
    ["kilobyte", 1 << 10],
  ] as const;
  for (const [unit, size] of units) {
    if (bytes >= size) return new Intl.NumberFormat(locale, { style: "unit", unit, maximumFractionDigits: 1 }).format(bytes / size);
  }
  return `${new Intl.NumberFormat(locale).format(bytes)} B`;
}
