// The statistics' filters as the pages keep them in the URL: a value of a breakdown clicked
// narrows the whole page to the visits that have it; filters of several breakdowns combine
// (docs/architecture.md#statistics).
import type { BreakdownName } from "./statsView";

/** The breakdowns a page filters by, named as the API's parameters (all but the variant); the
 * in-app browser is picked from its figure (components/InAppFigure). */
export const filterNames = ["country", "referrer", "device", "os", "browser", "in_app", "utm_source", "utm_medium", "utm_campaign"] as const;
export type FilterName = (typeof filterNames)[number];

/** The filters of a page: at most one value per breakdown. */
export type StatsFilter = Partial<Record<FilterName, string>>;

/** The longest value the API takes, in bytes. */
export const maxFilterValue = 253;

const devices = ["ios", "android", "desktop", "other"];

/** Whether a breakdown's values filter the page. */
export function isFilterName(name: BreakdownName | string): name is FilterName {
  return (filterNames as readonly string[]).includes(name);
}

/** Whether the API takes v as the filter name's value: a link edited by hand gets no 400. */
export function validFilterValue(name: FilterName, v: string): boolean {
  if (v === "" || new TextEncoder().encode(v).length > maxFilterValue || /[\u0000-\u001f\u007f]/.test(v)) return false;
  if (name === "country") return /^[A-Z]{2}$/.test(v);
  if (name === "device") return devices.includes(v);
  return true;
}

/** The filters the URL's query names; a value given twice or one the API refuses is left out. */
export function filterFromSearch(params: URLSearchParams): StatsFilter {
  const out: StatsFilter = {};
  for (const name of filterNames) {
    const vs = params.getAll(name);
    if (vs.length === 1 && validFilterValue(name, vs[0] ?? "")) out[name] = vs[0];
  }
  return out;
}

/** The URL's query with the filter name set to value (replacing its value), other parameters kept. */
export function withFilter(params: URLSearchParams, name: FilterName, value: string): URLSearchParams {
  const out = new URLSearchParams(params);
  out.set(name, value);
  return out;
}

/** The URL's query without the filter name, or without any filter when name is absent. */
export function withoutFilter(params: URLSearchParams, name?: FilterName): URLSearchParams {
  const out = new URLSearchParams(params);
  for (const n of name ? [name] : filterNames) out.delete(n);
  return out;
}

/** The filters in the order the page shows them. */
export function filterEntries(f: StatsFilter): [FilterName, string][] {
  return filterNames.flatMap((n) => (f[n] === undefined ? [] : [[n, f[n]] as [FilterName, string]]));
}
