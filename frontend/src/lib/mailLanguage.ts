// The language of a person's mails (docs/web-app.md#language-errors-and-confirmations) follows the one they pick in
// the app: sent with the sign-up, and saved with PATCH /api/v1/me when a signed-in person
// picks another.
import { api, csrfToken } from "../api/client";
import { pickLanguage } from "../i18n";

export type MailLanguage = "en" | "zh";

/** The mail language of an app language tag ("zh-CN" → "zh"). */
export function mailLanguage(tag: string | undefined): MailLanguage {
  return pickLanguage(tag) === "zh-CN" ? "zh" : "en";
}

/** Saves the picked language as the signed-in person's mail language; a failure only means
 * the mails keep the language they had. */
export async function saveMailLanguage(tag: string): Promise<void> {
  if (!csrfToken(document.cookie)) return;
  try {
    await api.PATCH("/api/v1/me", { body: { language: mailLanguage(tag) } });
  } catch {
    // Nothing to tell: the app's own language changed regardless.
  }
}
