// The workspace audit log's events in words: who did it, what it was done to, and its details
// as short lines. Action names are translated where the page shows them (audit.actions).
import type { Schemas } from "../api/client";
import { formatDateTime } from "./format";

type Actor = Schemas["AuditActor"];
type TargetName = Schemas["AuditTargetName"];
type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The kinds of target the log names ("link:7"), each translated under audit.targets. */
const targetKinds = ["workspace", "user", "member", "invitation", "api_key", "domain", "link", "utm_template", "webhook", "scim_token"];

/** Who did it: a person by name and email, an API key by its name (or number), or the service
 * itself. "User 4" only when the log knows nothing more of them. */
export function actorText(t: Translate, a: Actor): string {
  switch (a.type) {
    case "user":
      if (a.name && a.email) return `${a.name} (${a.email})`;
      return a.email || a.name || t("audit.actors.user", { id: a.id });
    case "api_key":
      return a.name ? t("audit.actors.api_key_named", { name: a.name }) : t("audit.actors.api_key", { id: a.id });
    default:
      return t("audit.actors.system");
  }
}

/** What it was done to: its name now ("sho.rt/abc → example.com", "ada@example.com"), marked
 * when it is gone; without a name, "link:7" as "Link 7" (and "deleted" when gone); an unknown
 * kind as the log names it. */
export function targetText(t: Translate, target: string, name?: TargetName): string {
  if (name?.label) {
    const label = name.detail ? t("audit.named", { label: name.label, detail: name.detail }) : name.label;
    return name.exists ? label : t("audit.gone", { name: label });
  }
  const [kind, id] = target.split(":");
  if (!kind || id === undefined || !targetKinds.includes(kind)) return target;
  const text = t(`audit.targets.${kind}`, { id });
  return name && !name.exists ? t("audit.gone", { name: text }) : text;
}

/** Where the target can be opened in the app while it exists: a link's page, the members. */
export function targetHref(name: TargetName | undefined): string | undefined {
  if (!name?.exists) return undefined;
  if (name.kind === "link") return `/links/${name.id}`;
  if (name.kind === "user" || name.kind === "member") return "/members";
  return undefined;
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

/** Where a detail's value is a code the app has words for: a role, a plan, a status, an interval. */
const valueWords: Record<string, string> = {
  role: "members.roles",
  plan: "plan.names",
  billed_plan: "plan.names",
  status: "billing.statuses",
  interval: "audit.intervals",
};

/** A detail's value in the reader's words: codes the app names (a role, a plan), yes and no,
 * the rest as detailValue writes it. Without t, as detailValue writes it. */
function detailWords(key: string, v: unknown, lang: string | undefined, t?: Translate): string {
  if (!t) return detailValue(v, lang);
  if (typeof v === "boolean") return t(v ? "audit.yes" : "audit.no");
  const words = valueWords[key];
  if (words && typeof v === "string" && /^[a-z_]+$/.test(v)) return t(`${words}.${v}`, { defaultValue: v });
  return detailValue(v, lang);
}

/** The details as "key: value" lines, in key order: with t, each key and known value in the
 * reader's words ("角色：管理员"), a key the app has no words for as it is. */
export function detailLines(details: Record<string, unknown>, lang: string | undefined, t?: Translate): string[] {
  return Object.keys(details)
    .sort()
    .map((k) => {
      const value = detailWords(k, details[k], lang, t);
      return t ? t("audit.detail", { key: t(`audit.keys.${k}`, { defaultValue: k }), value }) : `${k}: ${value}`;
    });
}
