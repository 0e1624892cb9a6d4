// What a link's owner is told of its moderation (docs/moderation.md#what-the-owner-is-told):
// the category and the reason code translated, a moderator's words, who decided and the
// appeal's answer. The scorer's own words never reach the owner.
import type { Link } from "../api/client";

type T = (key: string, o?: Record<string, unknown>) => string;
type Moderation = Link["moderation"];

/** The reason in the owner's language: the category translated, then the reason code's text
 * (when it says more than the category) and a moderator's words. */
export function ownerReason(t: T, m: Pick<Moderation, "category" | "reason" | "reason_code">): string {
  const label = m.category && m.category !== "benign" ? t(`moderation.reasons.${m.category}`, { defaultValue: m.category }) : "";
  const code = m.reason_code && m.reason_code !== m.category ? t(`linkModeration.codes.${m.reason_code}`, { defaultValue: "" }) : "";
  return [label, code, m.reason].filter(Boolean).join(" — ");
}

/** Who decided, for the owner: a translation key, or undefined before anyone did. */
export function decidedByKey(m: Pick<Moderation, "decided_by">): string | undefined {
  return m.decided_by ? `linkModeration.decidedBy.${m.decided_by}` : undefined;
}

/** What a ban means and what the owner can do, by who decided it. */
export function meaningKey(m: Pick<Moderation, "state" | "decided_by">): string {
  if (m.state === "banned") return `linkModeration.bannedBy.${m.decided_by ?? "moderator"}`;
  return `linkModeration.meaning.${m.state}`;
}
