// The in-app browsers' figure of a link's statistics: each app's share of the people's visits,
// as the API's in_app breakdown counts them (docs/visitors.md).

/** One in-app browser's share: its key (the API's, such as "wechat"), visits and whole percent. */
export interface InAppShare {
  key: string;
  visits: number;
  percent: number;
}

/** The whole percent of part in total: 0 for none, at least 1 for any part, at most 100. */
export function wholePercent(part: number, total: number): number {
  if (part <= 0 || total <= 0) return 0;
  return Math.min(100, Math.max(1, Math.round((part / total) * 100)));
}

/** The in-app browsers' shares of visits, most visits first (then by key), the first top only,
 * and the share of every in-app browser together. */
export function inAppShares(counts: { key: string; visits: number }[], visits: number, top = 3): { all: number; apps: InAppShare[] } {
  const known = counts.filter((c) => c.key !== "" && c.visits > 0);
  const sum = known.reduce((n, c) => n + c.visits, 0);
  const apps = [...known]
    .sort((a, b) => b.visits - a.visits || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .slice(0, top)
    .map((c) => ({ key: c.key, visits: c.visits, percent: wholePercent(c.visits, visits) }));
  return { all: wholePercent(sum, visits), apps };
}
