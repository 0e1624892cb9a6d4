// The statistics' ranges as the pages keep them in the URL, and the rows of their breakdowns.

/** The ranges the picker offers: today, the last 7, 30 or 90 days (today included), or two dates. */
export const rangePresets = ["today", "7d", "30d", "90d", "custom"] as const;
export type RangePreset = (typeof rangePresets)[number];

/** A range as the URL holds it: a preset, and for "custom" its first and last days (YYYY-MM-DD). */
export interface StatsRange {
  preset: RangePreset;
  from?: string;
  to?: string;
}

const dateRe = /^\d{4}-\d{2}-\d{2}$/;

/** Whether s is a calendar date written YYYY-MM-DD. */
export function isDate(s: string | null | undefined): s is string {
  if (!s || !dateRe.test(s)) return false;
  const [y = 0, m = 0, d = 0] = s.split("-").map(Number);
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/** The range the URL's query names (range, from, to), fallback when it names none or a bad one. */
export function rangeFromSearch(params: URLSearchParams, fallback: RangePreset): StatsRange {
  const preset = params.get("range") as RangePreset | null;
  if (preset === "custom") {
    const from = params.get("from");
    const to = params.get("to");
    if (isDate(from) && isDate(to) && from <= to) return { preset, from, to };
    return { preset: fallback };
  }
  if (preset && rangePresets.includes(preset)) return { preset };
  return { preset: fallback };
}

/** Writes the range into the URL's query, keeping its other parameters. */
export function rangeToSearch(r: StatsRange, params: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams(params);
  out.set("range", r.preset);
  if (r.preset === "custom" && r.from && r.to) {
    out.set("from", r.from);
    out.set("to", r.to);
  } else {
    out.delete("from");
    out.delete("to");
  }
  return out;
}

/** The local calendar date of t, YYYY-MM-DD. */
export function localDate(t: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${t.getFullYear()}-${p(t.getMonth() + 1)}-${p(t.getDate())}`;
}

const presetDays: Record<Exclude<RangePreset, "custom">, number> = { today: 1, "7d": 7, "30d": 30, "90d": 90 };

/** The first and last days of the range (both included) on the local calendar at now. */
export function rangeDays(r: StatsRange, now: Date = new Date()): { from: string; to: string } {
  if (r.preset === "custom" && r.from && r.to) return { from: r.from, to: r.to };
  const n = r.preset === "custom" ? 30 : presetDays[r.preset];
  const first = new Date(now.getFullYear(), now.getMonth(), now.getDate() - (n - 1));
  return { from: localDate(first), to: localDate(now) };
}

/** What the statistics API takes for a range: from, to and the time zone. */
export interface RangeQuery {
  from: string;
  /** Absent when the range ends today: the server's range then ends now, not at midnight. */
  to?: string;
  tz: string;
}

/** What the statistics API takes for the range: its days and the browser's time zone. */
export function rangeQuery(r: StatsRange, tz: string, now: Date = new Date()): RangeQuery {
  const d = rangeDays(r, now);
  return d.to === localDate(now) ? { from: d.from, tz } : { ...d, tz };
}

/** Most keys a breakdown answers (stats.MaxKeys on the server). */
export const maxKeys = 100;

/** A row of a breakdown: a key, or the visits that had no value ("unknown": no country, direct…). */
export interface BreakdownRow {
  key: string;
  unknown: boolean;
  visits: number;
  /** Percent of the range's visits, 0–100. */
  percent: number;
}

/**
 * The rows of a breakdown of total visits, most visits first (then by key), at most top: the
 * visits with no value are the ones no key counts, a row of their own. When the server cut the
 * list at maxKeys the rest is unknown, and no such row is made.
 */
export function breakdownRows(counts: { key: string; visits: number }[] | undefined, total: number, top = 10): BreakdownRow[] {
  const list = counts ?? [];
  const counted = list.reduce((n, c) => n + c.visits, 0);
  const rows: BreakdownRow[] = list.map((c) => ({ key: c.key, unknown: false, visits: c.visits, percent: 0 }));
  if (list.length < maxKeys && total > counted) rows.push({ key: "", unknown: true, visits: total - counted, percent: 0 });
  const sum = Math.max(total, counted);
  return rows
    .sort((a, b) => b.visits - a.visits || Number(a.unknown) - Number(b.unknown) || a.key.localeCompare(b.key))
    .slice(0, top)
    .map((r) => ({ ...r, percent: sum ? (r.visits * 100) / sum : 0 }));
}

/** The breakdowns a link's page shows, in order. */
export const breakdownNames = ["country", "referrer", "device", "os", "browser", "variant", "utm_source", "utm_medium", "utm_campaign"] as const;
export type BreakdownName = (typeof breakdownNames)[number];

/**
 * The translation key of the label of a breakdown's visits with no value: no referrer is a
 * direct visit, no UTM parameter is none, anything else is unknown.
 */
export function unknownLabelKey(name: BreakdownName): string {
  if (name === "referrer") return "stats.direct";
  if (name.startsWith("utm_")) return "stats.noUtm";
  if (name === "variant") return "stats.noVariant";
  return "stats.unknown";
}

/** A country's name in the language, its code when the browser has none. */
export function countryName(code: string, locale?: string): string {
  try {
    const name = new Intl.DisplayNames(locale ? [locale] : undefined, { type: "region" }).of(code);
    return name && name !== code ? name : code;
  } catch {
    return code;
  }
}
