// The moderators' desk: the queue by state, and for the chosen link its latest review with
// the three visitors' screenshots side by side, the decisions so far, the owner's appeal, and
// approve, ban or unban with a note.
import { Alert, Anchor, Badge, Button, Card, Group, Image, SegmentedControl, Stack, Table, Text, Textarea, Title, UnstyledButton } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api, unwrap, type Link, type Schemas } from "../../api/client";
import { ModerationBadge } from "../../components/badges";
import { Empty, ErrorState, FormError, Loading, Queried } from "../../components/states";
import i18n from "../../i18n";
import { formatDateTime } from "../../lib/format";

type State = Schemas["LinkModeration"]["state"];

export default function ModerationPage() {
  const { t } = useTranslation();
  const [state, setState] = useState<State>("flagged");
  const [chosen, setChosen] = useState<number>();
  const queue = useQuery({
    queryKey: ["moderation", "queue", state],
    queryFn: () => unwrap(api.GET("/api/v1/moderation/queue", { params: { query: { state, limit: 50 } } })),
  });
  return (
    <Stack>
      <Title order={2}>{t("moderation.title")}</Title>
      <SegmentedControl
        w="fit-content"
        value={state}
        onChange={(v) => {
          setState(v as State);
          setChosen(undefined);
        }}
        data={(["flagged", "pending", "banned", "passed"] as const).map((s) => ({ value: s, label: t(`moderation.tabs.${s}`) }))}
        data-testid="queue-state"
      />
      <div className="desk">
        <div>
          <Queried query={queue}>
            {(data) =>
              data.items.length === 0 ? (
                <Empty title={t("moderation.empty")} />
              ) : (
                <Stack gap="xs" data-testid="queue">
                  {data.items.map(({ link, review }) => (
                    <UnstyledButton
                      key={link.id}
                      className={"queue-item" + (chosen === link.id ? " chosen" : "")}
                      onClick={() => setChosen(link.id)}
                      data-testid="queue-item"
                      aria-pressed={chosen === link.id}
                    >
                      <Group justify="space-between" wrap="nowrap">
                        <Text size="sm" fw={600} className="mono">
                          {link.short_url.replace(/^https?:\/\//, "")}
                        </Text>
                        {review && <Badge color={review.score >= 0.8 ? "red" : review.score >= 0.5 ? "orange" : "green"}>{review.score.toFixed(2)}</Badge>}
                      </Group>
                      <Text size="xs" c="dimmed" lineClamp={1} className="break">
                        {link.url}
                      </Text>
                      {review && (
                        <Text size="xs" lineClamp={2}>
                          {review.category}: {review.reason}
                        </Text>
                      )}
                    </UnstyledButton>
                  ))}
                </Stack>
              )
            }
          </Queried>
        </div>
        <div>{chosen ? <LinkFile id={chosen} /> : <Text c="dimmed">{t("moderation.choose")}</Text>}</div>
      </div>
    </Stack>
  );
}

function LinkFile({ id }: { id: number }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [note, setNote] = useState("");
  const file = useQuery({
    queryKey: ["moderation", "link", id],
    queryFn: () => unwrap(api.GET("/api/v1/moderation/links/{id}", { params: { path: { id } } })),
  });
  const decide = useMutation({
    mutationFn: (action: "approve" | "ban" | "unban") =>
      unwrap(api.POST("/api/v1/moderation/links/{id}/decision", { params: { path: { id } }, body: { action, note: note.trim() || undefined } })),
    onSuccess: () => {
      setNote("");
      void client.invalidateQueries({ queryKey: ["moderation"] });
    },
  });
  if (file.isPending) return <Loading />;
  if (file.isError) return <ErrorState error={file.error} retry={() => void file.refetch()} />;
  const { link, reviews, decisions, appeal } = file.data;
  const review = reviews[0];
  return (
    <Stack data-testid="link-file">
      <Card withBorder>
        <Stack gap={4}>
          <Group justify="space-between">
            <Text fw={600} className="mono">
              {link.short_url.replace(/^https?:\/\//, "")}
            </Text>
            <ModerationBadge link={link as Link} />
          </Group>
          <Anchor href={link.url} target="_blank" rel="noreferrer noopener" size="sm" className="break">
            {link.url}
          </Anchor>
          {review ? (
            <Text size="sm" data-testid="review-summary">
              {t("moderation.verdict", { score: review.score.toFixed(2), category: review.category, scorer: review.model || review.scorer })}: {review.reason}
            </Text>
          ) : (
            <Text size="sm" c="dimmed">
              {t("moderation.noReview")}
            </Text>
          )}
        </Stack>
      </Card>
      {review && (
        <div className="shots" data-testid="screenshots">
          {review.captures.map((c) => (
            <Card withBorder padding="xs" key={c.profile}>
              <Text size="xs" fw={600} tt="uppercase">
                {t(`moderation.profiles.${c.profile}`)}
              </Text>
              {c.screenshot_url ? (
                <Image src={c.screenshot_url} alt={t("moderation.shotAlt", { profile: c.profile })} radius="sm" className="shot" data-testid="screenshot" />
              ) : (
                <Text size="xs" c="dimmed">
                  {c.error || t("moderation.noShot")}
                </Text>
              )}
              <Text size="xs" lineClamp={2} mt={4}>
                {c.title}
              </Text>
              <Text size="xs" c="dimmed" lineClamp={1} className="break">
                {c.final_url}
              </Text>
            </Card>
          ))}
        </div>
      )}
      {appeal && (
        <Alert color="blue" title={t("moderation.appeal")} data-testid="appeal">
          {appeal.message}
        </Alert>
      )}
      <Card withBorder>
        <Stack gap="xs">
          <Textarea label={t("moderation.note")} value={note} onChange={(e) => setNote(e.currentTarget.value)} autosize minRows={2} data-testid="decision-note" />
          <FormError error={decide.error} />
          <Group gap="xs">
            {link.moderation.state !== "banned" ? (
              <>
                <Button color="green" variant="light" onClick={() => decide.mutate("approve")} loading={decide.isPending} data-testid="approve">
                  {t("moderation.approve")}
                </Button>
                <Button color="red" onClick={() => decide.mutate("ban")} loading={decide.isPending} data-testid="ban">
                  {t("moderation.ban")}
                </Button>
              </>
            ) : (
              <Button variant="light" onClick={() => decide.mutate("unban")} loading={decide.isPending} data-testid="unban">
                {t("moderation.unban")}
              </Button>
            )}
          </Group>
        </Stack>
      </Card>
      {decisions.length > 0 && (
        <Card withBorder>
          <Text fw={600} mb="xs">
            {t("moderation.history")}
          </Text>
          <div className="table-wrap">
            <Table verticalSpacing={4}>
              <Table.Tbody>
                {decisions.map((d) => (
                  <Table.Tr key={d.id}>
                    <Table.Td>{formatDateTime(d.created_at, i18n.resolvedLanguage)}</Table.Td>
                    <Table.Td>{t(`moderation.actions.${d.action}`)}</Table.Td>
                    <Table.Td>{d.actor?.email ?? t("moderation.worker")}</Table.Td>
                    <Table.Td className="break">{d.note}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </div>
        </Card>
      )}
    </Stack>
  );
}
