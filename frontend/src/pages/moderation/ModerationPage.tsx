// The moderators' desk: the queue by state (and the open appeals), each tab with its count and
// each item with whose link it is; for the chosen link its latest review with the three
// visitors' screenshots side by side, the decisions so far, the owner's appeal, and approve,
// ban or unban with the reason the owner is shown and a private note; below, the banned and held
// domains. /moderation/links/{id} opens one link's file on its own (the audit log links there).
import { Alert, Anchor, Badge, Button, Card, Group, Image, NativeSelect, Stack, Table, Tabs, Text, Textarea, TextInput, Title, UnstyledButton } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useParams } from "react-router";
import { api, unwrap, type Link, type Schemas } from "../../api/client";
import { ModerationBadge } from "../../components/badges";
import { ConfirmButton } from "../../components/confirm";
import { notifyDone } from "../../components/notify";
import { Empty, ErrorState, fieldError, FormError, Loading, Queried } from "../../components/states";
import { DomainList } from "./DomainList";
import { answeredAppeal, DecisionInForce, reviewInForce, reviewReason, scorerWords } from "./Verdict";

type Tab = "pending" | "passed" | "flagged" | "banned" | "appealed";
const tabs = ["flagged", "appealed", "pending", "banned", "passed"] as const satisfies readonly Tab[];
/** The standard reasons a moderator gives an owner, in the API's order. */
const reasons = ["phishing", "malware", "scam", "spam", "adult", "cloaking", "other"] as const;
type Reason = (typeof reasons)[number];

function queuePage(state: Tab) {
  return unwrap(api.GET("/api/v1/moderation/queue", { params: { query: { state, limit: 50 } } }));
}

function useFormat() {
  const { i18n } = useTranslation();
  const lang = i18n.resolvedLanguage;
  return {
    date: (iso: string) => new Intl.DateTimeFormat(lang, { dateStyle: "medium" }).format(new Date(iso)),
    dateTime: (iso: string) => new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso)),
    number: (n: number) => new Intl.NumberFormat(lang).format(n),
    score: (s: number) => new Intl.NumberFormat(lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(s),
  };
}

const scoreColor = (s: number) => (s >= 0.8 ? "red" : s >= 0.5 ? "orange" : "green");

export default function ModerationPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  if (id > 0) {
    return (
      <Stack>
        <Anchor component={RouterLink} to="/moderation" size="sm" w="fit-content">
          {t("moderation.toQueue")}
        </Anchor>
        <Title order={2}>{t("moderation.title")}</Title>
        <LinkFile id={id} />
      </Stack>
    );
  }
  return <Desk />;
}

function Desk() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const [state, setState] = useState<Tab>("flagged");
  const [chosen, setChosen] = useState<number>();
  const queue = useQuery({ queryKey: ["moderation", "queue", state], queryFn: () => queuePage(state) });
  const counts = useQuery({
    queryKey: ["moderation", "counts"],
    queryFn: () => unwrap(api.GET("/api/v1/moderation/counts")),
  });
  const count = (tab: Tab) => {
    const n = counts.data?.[tab];
    if (n === undefined) return undefined;
    return n >= counts.data!.cap ? `${fmt.number(counts.data!.cap)}+` : fmt.number(n);
  };
  return (
    <Stack>
      <Title order={2}>{t("moderation.title")}</Title>
      <Tabs
        value={state}
        onChange={(v) => {
          if (!v) return;
          setState(v as Tab);
          setChosen(undefined);
        }}
        variant="pills"
      >
        <Tabs.List className="queue-tabs" data-testid="queue-state">
          {tabs.map((s) => (
            <Tabs.Tab
              key={s}
              value={s}
              rightSection={
                count(s) !== undefined && (
                  <Badge size="sm" variant={state === s ? "white" : "light"} color={s === "banned" ? "red" : s === "flagged" || s === "appealed" ? "orange" : "gray"} data-testid={`count-${s}`}>
                    {count(s)}
                  </Badge>
                )
              }
            >
              {t(`moderation.tabs.${s}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <div className="desk">
        <div>
          <Queried query={queue}>
            {(data) =>
              data.items.length === 0 ? (
                <Empty title={t("moderation.empty")} />
              ) : (
                <Stack gap="xs" data-testid="queue">
                  {data.items.map((item) => (
                    <QueueItem key={item.link.id} item={item} chosen={chosen === item.link.id} choose={() => setChosen(item.link.id)} />
                  ))}
                </Stack>
              )
            }
          </Queried>
        </div>
        <div>{chosen ? <LinkFile id={chosen} /> : <Text c="dimmed">{t("moderation.choose")}</Text>}</div>
      </div>
      <DomainList />
    </Stack>
  );
}

function QueueItem({ item, chosen, choose }: { item: Schemas["ModerationQueueItem"]; chosen: boolean; choose: () => void }) {
  const { t, i18n } = useTranslation();
  const fmt = useFormat();
  const { link, review, appeal } = item;
  const scored = reviewInForce(link.moderation);
  return (
    <UnstyledButton className={"queue-item" + (chosen ? " chosen" : "")} onClick={choose} data-testid="queue-item" aria-pressed={chosen}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text size="sm" fw={600} className="mono minw0" truncate>
          {link.short_url.replace(/^https?:\/\//, "")}
        </Text>
        {review && scored && (
          <Badge className="queue-score" color={scoreColor(review.score)} aria-label={t("moderation.score", { score: fmt.score(review.score) })} data-testid="queue-score">
            {fmt.score(review.score)}
          </Badge>
        )}
      </Group>
      <Text size="xs" c="dimmed" lineClamp={1} className="break">
        {link.url}
      </Text>
      {review && scored && (
        <Text size="xs" lineClamp={2} data-testid="queue-reason">
          {[reviewReason(t, review, link.moderation), scorerWords(i18n.resolvedLanguage, review.reason)].filter(Boolean).join(": ")}
        </Text>
      )}
      {!scored && <DecisionInForce m={link.moderation} />}
      <dl className="queue-facts">
        <dt>{t("moderation.workspace")}</dt>
        <dd className="break" data-testid="queue-workspace">
          {item.workspace.name}
        </dd>
        <dt>{t("moderation.owner")}</dt>
        <dd className="break" data-testid="queue-owner">
          {item.owner_email || "—"}
        </dd>
        <dt>{t("moderation.created")}</dt>
        <dd data-testid="queue-created">{fmt.date(link.created_at)}</dd>
        <dt>{t("moderation.visits")}</dt>
        <dd data-testid="queue-visits">{fmt.number(item.visits)}</dd>
      </dl>
      {appeal && (
        <Text size="xs" lineClamp={2} className="break" data-testid="queue-appeal">
          {t("moderation.appealedOn", { date: fmt.date(appeal.created_at) })}: {appeal.message}
        </Text>
      )}
    </UnstyledButton>
  );
}

function LinkFile({ id }: { id: number }) {
  const { t, i18n } = useTranslation();
  const fmt = useFormat();
  const client = useQueryClient();
  const [reason, setReason] = useState<Reason | "">("");
  const [reasonText, setReasonText] = useState("");
  const [note, setNote] = useState("");
  // A ban asked for without its reason: the inputs say what is missing before anything is sent
  // (the server refuses it too).
  const [tried, setTried] = useState(false);
  const [ownerMessage, setOwnerMessage] = useState("");
  const file = useQuery({
    queryKey: ["moderation", "link", id],
    queryFn: () => unwrap(api.GET("/api/v1/moderation/links/{id}", { params: { path: { id } } })),
  });
  const decide = useMutation({
    mutationFn: (action: "approve" | "ban" | "unban" | "keep_ban") =>
      unwrap(
        api.POST("/api/v1/moderation/links/{id}/decision", {
          params: { path: { id } },
          body: {
            action,
            reason: reason || undefined,
            reason_text: reasonText.trim() || undefined,
            note: note.trim() || undefined,
            owner_message: ownerMessage.trim() || undefined,
          },
        }),
      ),
    onSuccess: (out) => {
      setTried(false);
      setReason("");
      setReasonText("");
      setNote("");
      setOwnerMessage("");
      notifyDone(`${t("moderation.decided")}: ${t(`moderation.actions.${out.decision.action}`)}`);
      void client.invalidateQueries({ queryKey: ["moderation"] });
    },
  });
  if (file.isPending) return <Loading />;
  if (file.isError) return <ErrorState error={file.error} retry={() => void file.refetch()} />;
  const { link, reviews, decisions, appeal } = file.data;
  const review = reviews[0];
  const told = (d: Schemas["Decision"]) =>
    [d.reason ? t(`moderation.reasons.${d.reason}`, { defaultValue: d.reason }) : "", d.reason_text].filter(Boolean).join(" — ");
  // The language the owner reads: a moderator's words reach them as written.
  const ownerLanguage = file.data.owner_language ? t(`moderation.ownerLanguages.${file.data.owner_language}`) : "";
  const missing = !reason ? "reason" : reason === "other" && !reasonText.trim() ? "reason_text" : undefined;
  const reasonError = tried && missing === "reason" ? t("errors.reason_required") : fieldError(decide.error, "reason");
  const reasonTextError = tried && missing === "reason_text" ? t("errors.reason_text_required") : fieldError(decide.error, "reason_text");
  const fieldless = decide.error && !["reason", "reason_text", "note", "owner_message"].some((f) => fieldError(decide.error, f));
  const openAppeal = appeal && !appeal.resolved_at;
  const answered = answeredAppeal(appeal);
  return (
    <Stack data-testid="link-file">
      <Card withBorder>
        <Stack gap={4}>
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Text fw={600} className="mono minw0 break">
              {link.short_url.replace(/^https?:\/\//, "")}
            </Text>
            <div className="no-shrink">
              <ModerationBadge link={link as Link} always />
            </div>
          </Group>
          <Anchor href={link.url} target="_blank" rel="noreferrer noopener" size="sm" className="break">
            {link.url}
          </Anchor>
          <dl className="queue-facts" data-testid="file-facts">
            <dt>{t("moderation.workspace")}</dt>
            <dd className="break">{file.data.workspace.name}</dd>
            <dt>{t("moderation.owner")}</dt>
            <dd className="break">{file.data.owner_email || "—"}</dd>
            {file.data.owner_language && (
              <>
                <dt>{t("moderation.ownerLanguage")}</dt>
                <dd data-testid="owner-language">{t(`moderation.ownerLanguages.${file.data.owner_language}`)}</dd>
              </>
            )}
            <dt>{t("moderation.created")}</dt>
            <dd>{fmt.dateTime(link.created_at)}</dd>
            <dt>{t("moderation.visits")}</dt>
            <dd>{fmt.number(file.data.visits)}</dd>
          </dl>
          {!reviewInForce(link.moderation) ? (
            <DecisionInForce m={link.moderation} by={link.moderation.decided_by === "moderator" ? decisions.find((d) => d.actor)?.actor?.email : undefined} />
          ) : review ? (
            <Text size="sm" data-testid="review-summary">
              {[
                t("moderation.verdict", { score: fmt.score(review.score), category: reviewReason(t, review, link.moderation), scorer: review.model || t(`moderation.scorers.${review.scorer}`, { defaultValue: review.scorer }) }),
                scorerWords(i18n.resolvedLanguage, review.reason),
              ]
                .filter(Boolean)
                .join(": ")}
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
      {appeal && answered && (
        // Answered: what the owner asked and was told stays on the file.
        <Alert color="gray" title={t("moderation.appeal")} data-testid="appeal-resolved">
          <AppealAsked appeal={appeal} />
          <Text size="sm" mt="xs" fw={500}>
            {t(answered.key, { date: fmt.dateTime(answered.date) })}
          </Text>
          {answered.answer && (
            <Text size="sm" className="break">
              {t("moderation.appealAnswer", { answer: answered.answer })}
            </Text>
          )}
        </Alert>
      )}
      {openAppeal && (
        <Alert color="blue" title={t("moderation.appeal")} data-testid="appeal">
          <AppealAsked appeal={appeal} />
        </Alert>
      )}
      <Card withBorder>
        <Stack gap="xs">
          <NativeSelect
            label={t("moderation.reason")}
            description={t("moderation.reasonHelp")}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value as Reason | "")}
            data={[{ value: "", label: t("moderation.reasonPlaceholder") }, ...reasons.map((r) => ({ value: r, label: t(`moderation.reasons.${r}`) }))]}
            error={reasonError}
            data-testid="decision-reason"
          />
          <Textarea
            label={t("moderation.reasonText")}
            description={ownerLanguage && t("moderation.wordsAsWritten", { language: ownerLanguage })}
            value={reasonText}
            onChange={(e) => setReasonText(e.currentTarget.value)}
            autosize
            minRows={2}
            maxLength={500}
            error={reasonTextError}
            data-testid="decision-reason-text"
          />
          <Textarea
            label={t("moderation.note")}
            value={note}
            onChange={(e) => setNote(e.currentTarget.value)}
            autosize
            minRows={2}
            maxLength={2000}
            error={fieldError(decide.error, "note")}
            data-testid="decision-note"
          />
          {openAppeal && (
            <Textarea
              label={t("moderation.ownerMessage")}
              description={ownerLanguage ? t("moderation.ownerMessageHelpIn", { language: ownerLanguage }) : t("moderation.ownerMessageHelp")}
              value={ownerMessage}
              onChange={(e) => setOwnerMessage(e.currentTarget.value)}
              autosize
              minRows={2}
              maxLength={2000}
              error={fieldError(decide.error, "owner_message")}
              data-testid="decision-owner-message"
            />
          )}
          {fieldless && <FormError error={decide.error} />}
          <Group gap="xs">
            {link.moderation.state !== "banned" ? (
              <>
                <Button color="green" variant="light" onClick={() => decide.mutate("approve")} loading={decide.isPending} data-testid="approve">
                  {t("moderation.approve")}
                </Button>
                {missing ? (
                  <Button color="red" onClick={() => setTried(true)} data-testid="ban">
                    {t("moderation.ban")}
                  </Button>
                ) : (
                  <ConfirmButton
                    question={t("moderation.banQuestion")}
                    detail={t("moderation.banDetail")}
                    onConfirm={() => decide.mutate("ban")}
                    loading={decide.isPending}
                    data-testid="ban"
                  >
                    {t("moderation.ban")}
                  </ConfirmButton>
                )}
              </>
            ) : (
              <>
                <Button variant="light" onClick={() => decide.mutate("unban")} loading={decide.isPending} data-testid="unban">
                  {t("moderation.unban")}
                </Button>
                {openAppeal && (
                  <Button color="red" variant="light" onClick={() => decide.mutate("keep_ban")} loading={decide.isPending} data-testid="keep-ban">
                    {t("moderation.keepBan")}
                  </Button>
                )}
              </>
            )}
          </Group>
        </Stack>
      </Card>
      <DomainDecision url={link.url} />
      {decisions.length > 0 && (
        <Card withBorder>
          <Text fw={600} mb="xs">
            {t("moderation.history")}
          </Text>
          <div className="table-wrap">
            <Table verticalSpacing={4} data-testid="decisions">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t("detail.when")}</Table.Th>
                  <Table.Th>{t("admin.action")}</Table.Th>
                  <Table.Th>{t("admin.by")}</Table.Th>
                  <Table.Th>{t("moderation.told")}</Table.Th>
                  <Table.Th>{t("admin.note")}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {decisions.map((d) => (
                  <Table.Tr key={d.id}>
                    <Table.Td>{fmt.dateTime(d.created_at)}</Table.Td>
                    <Table.Td>{t(`moderation.actions.${d.action}`)}</Table.Td>
                    <Table.Td className="break">{d.actor?.email ?? t("moderation.worker")}</Table.Td>
                    <Table.Td className="break">{told(d)}</Table.Td>
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

/** What the owner asked in an appeal, and when: open or answered alike. */
function AppealAsked({ appeal }: { appeal: { message: string; created_at: string } }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  return (
    <>
      <Text size="sm" className="break">
        {appeal.message}
      </Text>
      <Text size="xs" c="dimmed">
        {t("moderation.appealedOn", { date: fmt.dateTime(appeal.created_at) })}
      </Text>
    </>
  );
}

/** The host of a destination without a leading www.: where a moderator starts naming the
 * registrable domain (the server checks it against the public suffix list). */
function hostOf(url: string) {
  try {
    return new URL(url).hostname.replace(/^www\./, "");
  } catch {
    return "";
  }
}

/** Ban or clear the whole domain of the link's destination: its new links are banned at once,
 * or its record of phishing bans stops banning them. Audited in the moderators' audit log. */
function DomainDecision({ url }: { url: string }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [domain, setDomain] = useState(() => hostOf(url));
  const [note, setNote] = useState("");
  // What every link banned under the domain is banned as, shown to its owner: a link ban's reasons.
  const [category, setCategory] = useState<Reason>("phishing");
  const set = useMutation({
    mutationFn: (action: "ban" | "clear") =>
      unwrap(
        action === "ban"
          ? api.POST("/api/v1/moderation/domains/{domain}/ban", { params: { path: { domain: domain.trim() } }, body: { note: note.trim() || undefined, category } })
          : api.POST("/api/v1/moderation/domains/{domain}/clear", { params: { path: { domain: domain.trim() } }, body: { note: note.trim() || undefined } }),
      ),
    onSuccess: (out) => {
      setNote("");
      notifyDone(t(out.state === "banned" ? "moderation.domain.banned" : "moderation.domain.cleared", { domain: out.domain }));
      void client.invalidateQueries({ queryKey: ["moderation"] });
    },
  });
  const fieldless = set.error && !["domain", "note", "category"].some((f) => fieldError(set.error, f));
  return (
    <Card withBorder data-testid="domain-decision">
      <Stack gap="xs">
        <Text fw={600}>{t("moderation.domain.title")}</Text>
        <TextInput
          label={t("moderation.domain.label")}
          description={t("moderation.domain.help")}
          value={domain}
          onChange={(e) => setDomain(e.currentTarget.value)}
          error={fieldError(set.error, "domain")}
          data-testid="domain-name"
        />
        <NativeSelect
          label={t("moderation.domain.category")}
          description={t("moderation.domain.categoryHelp")}
          value={category}
          onChange={(e) => setCategory(e.currentTarget.value as Reason)}
          data={reasons.map((r) => ({ value: r, label: t(`moderation.reasons.${r}`) }))}
          error={fieldError(set.error, "category")}
          data-testid="domain-category"
        />
        <Textarea
          label={t("moderation.domain.note")}
          value={note}
          onChange={(e) => setNote(e.currentTarget.value)}
          autosize
          minRows={1}
          maxLength={2000}
          error={fieldError(set.error, "note")}
          data-testid="domain-note"
        />
        {fieldless && <FormError error={set.error} />}
        <Group gap="xs">
          <ConfirmButton
            question={t("moderation.domain.banQuestion", { domain: domain.trim() })}
            detail={t("moderation.domain.banDetail")}
            onConfirm={() => set.mutate("ban")}
            loading={set.isPending}
            disabled={!domain.trim()}
            data-testid="ban-domain"
          >
            {t("moderation.domain.ban")}
          </ConfirmButton>
          <Button variant="light" onClick={() => set.mutate("clear")} loading={set.isPending} disabled={!domain.trim()} data-testid="clear-domain">
            {t("moderation.domain.clear")}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
