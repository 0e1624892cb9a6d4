// What decided a link's state, as the desk says it (docs/moderation.md#what-the-owner-is-told):
// a moderator's or the domain's decision names who and the category; the automatic reviewer's
// score shows only when its decision is the one in force. Categories and reason codes read in the
// app's language through the owner's table (lib/moderationOutcome); the scorer's own words are
// English and show in the English desk only.
import { Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import type { Link, Schemas } from "../../api/client";
import { decidedByKey, ownerReason } from "../../lib/moderationOutcome";

type Moderation = Link["moderation"];

/** Whether the automatic review's verdict is what the link's state stands on. */
export function reviewInForce(m: Pick<Moderation, "decided_by">): boolean {
  return !m.decided_by || m.decided_by === "review";
}

type T = (key: string, o?: Record<string, unknown>) => string;

/** The scorer's words, which are English: for the English desk only. */
export function scorerWords(lang: string | undefined, words: string): string {
  return lang?.startsWith("en") ? words : "";
}

/** A review's category and reason code in the app's language; the code only when the review is
 * the decision in force (the link's reason code is that decision's). */
export function reviewReason(t: T, review: Pick<Schemas["ReviewSummary"], "category">, m: Pick<Moderation, "decided_by" | "reason_code">): string {
  return ownerReason(t, { category: review.category, reason: "", reason_code: reviewInForce(m) ? m.reason_code : undefined }) || t("moderation.reasons.benign");
}

/** What the desk says of a decision in force that a moderator or the domain made: who decided
 * and, while the link stands banned or held, the category; an unban's line names none (the link
 * keeps the category of the ban it lifted). Empty when the automatic review decided. */
export function decisionLine(t: T, m: Pick<Moderation, "decided_by" | "state" | "category" | "reason_code">, by?: string): string {
  const key = decidedByKey(m);
  if (!key || reviewInForce(m)) return "";
  const category = m.state === "passed" ? "" : ownerReason(t, { category: m.category, reason: "", reason_code: m.reason_code });
  return [t(key), by, category].filter(Boolean).join(" · ");
}

/** The decision in force when a moderator or the domain made it (decisionLine). */
export function DecisionInForce({ m, by }: { m: Moderation; by?: string }) {
  const { t } = useTranslation();
  const line = decisionLine(t, m, by);
  if (!line) return null;
  return (
    <Text size="sm" data-testid="decision-in-force">
      {line}
    </Text>
  );
}

/** How the desk says an answered appeal ended: the outcome's key and the words the owner was
 * given; undefined while it is open (the desk then offers to answer it). */
export function answeredAppeal(a: Pick<Schemas["Appeal"], "resolved_at" | "outcome" | "answer"> | null | undefined): { key: string; date: string; answer: string } | undefined {
  if (!a?.resolved_at) return undefined;
  return { key: a.outcome === "upheld" ? "moderation.appealUpheld" : "moderation.appealRejected", date: a.resolved_at, answer: a.answer ?? "" };
}
