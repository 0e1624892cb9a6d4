/** The shade of a country on the map, 0 (no visits) to 5 (the most visits), by share of max. */
export function mapShade(visits: number, max: number): number {
  if (visits <= 0 || max <= 0) return 0;
  return Math.min(5, Math.max(1, Math.ceil((visits / max) * 5)));
}
