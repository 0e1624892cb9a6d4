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
