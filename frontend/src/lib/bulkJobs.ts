// Bulk jobs over every link a filter matches (docs/api.md#bulk-jobs): the links list's filter as a
// job's, what each action of the bulk bar asks of the job, and how far along a job is.
import type { Schemas } from "../api/client";

export type BulkJob = Schemas["BulkJob"];
export type BulkJobFilter = Schemas["BulkJobFilter"];
export type BulkJobRequest = Schemas["BulkJobRequest"];

/** What the bulk bar does to the links. */
export type BulkAction = { kind: "disable" | "enable" | "delete" | "archive" | "unarchive" } | { kind: "add" | "remove"; names: string[] };

/** The links list's filters as the page holds them. */
export interface ListFilter {
  search: string;
  status: string;
  domain: string;
  tag: string;
  health: string;
  archived: "false" | "true" | "all";
}

/** The job's filter for the list's: only the filters set, with the list's meaning. */
export function jobFilter(f: ListFilter): BulkJobFilter {
  const out: BulkJobFilter = {};
  if (f.search) out.q = f.search;
  if (f.status) out.status = f.status as BulkJobFilter["status"];
  if (f.domain) out.domain = f.domain;
  if (f.tag) out.tag = [f.tag];
  if (f.health) out.health = f.health as BulkJobFilter["health"];
  if (f.archived !== "false") out.archived = f.archived;
  return out;
}

/** Whether a filter narrows the list: only then is "every matching link" offered. */
export function filterActive(f: ListFilter): boolean {
  return Object.keys(jobFilter(f)).length > 0;
}

/** The bulk bar's fields of a link as one change (set) of a bulk edit or job. */
export function changeOf(action: BulkAction): NonNullable<BulkJobRequest["set"]> | null {
  switch (action.kind) {
    case "delete":
      return null;
    case "disable":
    case "enable":
      return { status: action.kind === "disable" ? "disabled" : "active" };
    case "archive":
    case "unarchive":
      return { archived: action.kind === "archive" };
    case "add":
      return { tags_add: action.names };
    case "remove":
      return { tags_remove: action.names };
  }
}

/** The job that does action to every link filter matches. */
export function jobRequest(action: BulkAction, filter: BulkJobFilter): BulkJobRequest {
  const set = changeOf(action);
  return set ? { filter, set } : { filter, delete: true };
}

/** Whether the job may still move: its progress is worth asking again. */
export function jobActive(j: Pick<BulkJob, "state">): boolean {
  return j.state === "queued" || j.state === "running";
}

/** Links handled, as a percentage of those the filter matched (0 before they are counted). */
export function jobPercent(j: Pick<BulkJob, "done" | "total" | "state">): number {
  if (j.state === "done") return 100;
  return j.total > 0 ? Math.min(100, Math.round((j.done / j.total) * 100)) : 0;
}

/** How often the page asks for a running job's progress, in milliseconds. */
export const jobPoll = 1000;
