// The workspace audit log's events in words: who did it, what it was done to, and its details
// as short lines. Action names are translated where the page shows them (audit.actions).
import type { Schemas } from "../api/client";
import { formatDateTime } from "./format";

type Actor = Schemas["AuditActor"];
type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The kinds of target the log names ("link:7"), each translated under audit.targets. */
const targetKinds = ["workspace", "user", "invitation", "api_key", "domain", "link"];

/** Who did it: a person's email, an API key by its number, or the service itself. */
export function actorText(t: Translate, a: Actor): string {
  switch (a.type) {
    case "user":
      return a.email || t("audit.actors.user", { id: a.id });
    case "api_key":
      return t("audit.actors.api_key", { id: a.id });
    default:
      return t("audit.actors.system");
  }
}

/** What it was done to: "link:7" as "Link 7"; an unknown kind as the log names it. */
export function targetText(t: Translate, target: string): string {
  const [kind, id] = target.split(":");
  if (!kind || id === undefined || !targetKinds.includes(kind)) return target;
  return t(`audit.targets.${kind}`, { id });
}

const isoTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** A detail's value as text: times in the reader's language, lists joined, nothing as "–". */
export function detailValue(v: unknown, lang: string | undefined): string {
  if (v === null || v === undefined || v === "") return "–";
  if (typeof v === "string") return isoTime.test(v) ? formatDateTime(v, lang) : v;
  if (Array.isArray(v)) return v.map((x) => detailValue(x, lang)).join(", ");
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

/** The details as "key: value" lines, in key order. */
export function detailLines(details: Record<string, unknown>, lang: string | undefined): string[] {
  return Object.keys(details)
    .sort()
    .map((k) => `${k}: ${detailValue(details[k], lang)}`);
}
