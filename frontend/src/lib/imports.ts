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

/** A size in bytes: the app's one formatter of sizes, in lib/format. */
export { formatBytes } from "./format";
