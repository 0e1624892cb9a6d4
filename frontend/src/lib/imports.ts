// CSV imports as the app shows them: which are still under way, how far along, file sizes.
import type { Schemas } from "../api/client";

export type Import = Schemas["Import"];

/** Whether the job is still to finish: its progress is worth asking again. */
export function importActive(im: Pick<Import, "state">): boolean {
  return im.state === "queued" || im.state === "running";
}

/** Whether the results file can be read: the job has ended. */
export function importFinished(im: Pick<Import, "state">): boolean {
  return im.state === "done" || im.state === "failed";
}

/** Rows with a result, as a percentage of the file's rows (0 for an empty count). */
export function importPercent(im: Pick<Import, "done" | "rows">): number {
  return im.rows > 0 ? Math.min(100, Math.round((im.done / im.rows) * 100)) : 0;
}

/** A size in bytes in the reader's language: "64 MB", "1.5 kB". */
export function formatBytes(bytes: number, locale?: string): string {
  const units = [
    ["megabyte", 1 << 20],
    ["kilobyte", 1 << 10],
  ] as const;
  for (const [unit, size] of units) {
    if (bytes >= size) return new Intl.NumberFormat(locale, { style: "unit", unit, maximumFractionDigits: 1 }).format(bytes / size);
  }
  return new Intl.NumberFormat(locale, { style: "unit", unit: "byte" }).format(bytes);
}
