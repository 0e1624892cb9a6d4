// A flagged or banned link as its owner sees it: one state, the reason the moderation gave
// (its category and reason code translated, and a moderator's words), who decided, what the
// state means, and the appeal with its answer.
import { Alert, Button, Stack, Text, Textarea } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api, unwrap, type Link } from "../../api/client";
import { notifyDone } from "../../components/notify";
import { fieldError, FormError } from "../../components/states";
import { decidedByKey, meaningKey, ownerReason } from "../../lib/moderationOutcome";
import { useWorkspaceId } from "../../session";

/** The reason in the owner's language: the standard reason translated, then the words given. */
export function reasonText(t: (key: string, o?: Record<string, unknown>) => string, category: string, reason: string): string {
  const label = category && category !== "benign" ? t(`moderation.reasons.${category}`, { defaultValue: category }) : "";
  return [label, reason].filter(Boolean).join(" — ");
}

export function ModerationState({ link }: { link: Link }) {
  const { t, i18n } = useTranslation();
  const ws = useWorkspaceId();
  const client = useQueryClient();
  const [message, setMessage] = useState("");
  const [appealing, setAppealing] = useState(false);
  const appeal = useMutation({
    mutationFn: () =>
      unwrap(api.POST("/api/v1/workspaces/{workspace}/links/{id}/appeal", { params: { path: { workspace: ws, id: link.id } }, body: { message } })),
    onSuccess: () => {
      notifyDone(t("toasts.appealSent"));
      void client.invalidateQueries({ queryKey: [ws, "link", link.id] });
    },
  });
  const m = link.moderation;
  if (m.held) {
    // Held until its own review: nothing to appeal yet.
    return (
      <Alert color="orange" title={t("linkModeration.title.held")} data-testid="moderation-alert">
        <Text size="sm">{t("linkModeration.meaning.held")}</Text>
      </Alert>
    );
  }
  const date = (iso: string) => new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
  const answer = m.appeal && m.appeal.state !== "open" ? m.appeal : undefined;
  const answered = answer && (
    <Stack gap={2} data-testid="appeal-answer">
      <Text size="sm" fw={500}>
        {t(`linkModeration.outcome.${answer.state}`, { date: date(answer.at) })}
      </Text>
      {answer.answer && (
        <Text size="sm" className="break">
          {t("linkModeration.moderatorWords", { answer: answer.answer })}
        </Text>
      )}
    </Stack>
  );
  if (m.state !== "banned" && m.state !== "flagged") {
    // An appeal upheld: the link works again, and the owner reads the moderator's answer.
    return answered ? (
      <Alert color="green" title={t("linkModeration.appeal")} data-testid="moderation-alert">
        {answered}
      </Alert>
    ) : null;
  }
  const why = ownerReason(t, m);
  const decided = decidedByKey(m);
  const open = link.appeal && !link.appeal.resolved_at ? link.appeal : undefined;
  return (
    <Alert color={m.state === "banned" ? "red" : "orange"} title={t(`linkModeration.title.${m.state}`)} data-testid="moderation-alert">
      <Stack gap="xs">
        <Text size="sm" fw={500} data-testid="moderation-reason">
          {why ? t("linkModeration.reason", { reason: why }) : t("linkModeration.noReason")}
        </Text>
        {decided && (
          <Text size="sm" c="dimmed" data-testid="moderation-decided-by">
            {t(decided)}
          </Text>
        )}
        <Text size="sm">{t(meaningKey(m))}</Text>
        {open ? (
          <Stack gap={2} data-testid="appeal-open">
            <Text size="sm">{t("linkModeration.appealed", { date: date(open.created_at) })}</Text>
            <Text size="sm" fs="italic" className="break">
              {open.message}
            </Text>
          </Stack>
        ) : answered ? (
          answered
        ) : (
          link.appeal?.resolved_at && <Text size="sm">{t("linkModeration.answered", { date: date(link.appeal.resolved_at) })}</Text>
        )}
        {!link.appeal && !appeal.isSuccess && !appealing && (
          <Button size="xs" variant="white" color={m.state === "banned" ? "red" : "orange"} w="fit-content" onClick={() => setAppealing(true)} data-testid="appeal">
            {t("linkModeration.appeal")}
          </Button>
        )}
        {appealing && !appeal.isSuccess && (
          <Stack gap="xs">
            <Textarea
              label={t("linkModeration.appealMessage")}
              value={message}
              onChange={(e) => setMessage(e.currentTarget.value)}
              autosize
              minRows={2}
              maxLength={2000}
              error={fieldError(appeal.error, "message")}
            />
            <FormError error={appeal.error} fields={["message"]} />
            <Button size="xs" w="fit-content" onClick={() => appeal.mutate()} loading={appeal.isPending} disabled={!message.trim()}>
              {t("linkModeration.sendAppeal")}
            </Button>
          </Stack>
        )}
        {appeal.isSuccess && <Text size="sm">{t("linkModeration.appealSent")}</Text>}
      </Stack>
    </Alert>
  );
}
