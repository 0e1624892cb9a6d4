// A tiny line of a few numbers (a link's visits per day), drawn as an inline SVG: no chart library
// on the links page.

/** The SVG path of values in a box of width × height, the largest at the top; a flat line at the
 * bottom when every value is 0. Exported for its test. */
export function sparkPath(values: number[], width: number, height: number): string {
  if (values.length === 0) return "";
  const top = Math.max(...values, 0);
  const pad = 1.5;
  const stepX = values.length > 1 ? (width - 2 * pad) / (values.length - 1) : 0;
  return values
    .map((v, i) => {
      const x = pad + i * stepX;
      const y = top > 0 ? pad + (height - 2 * pad) * (1 - v / top) : height - pad;
      return `${i === 0 ? "M" : "L"}${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join(" ");
}

/** values as a line; label names it for screen readers (role img). */
export function Sparkline({ values, label, width = 64, height = 20 }: { values: number[]; label: string; width?: number; height?: number }) {
  return (
    <svg className="sparkline" width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label} data-testid="link-sparkline">
      <title>{label}</title>
      <path d={sparkPath(values, width, height)} fill="none" stroke="currentColor" strokeWidth={1.5} strokeLinejoin="round" strokeLinecap="round" />
    </svg>
  );
}
