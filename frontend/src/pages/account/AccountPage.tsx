// /app/account: the person's own settings. Email (a change waits for the link mailed to the new
// address), password, two-factor sign-in, the signed-in sessions, and deleting the account.
import { Badge, Button, Card, Group, PasswordInput, Stack, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { api, unwrap, type Schemas } from "../../api/client";
import { ConfirmButton } from "../../components/confirm";
import { notifyDone, notifyFailed } from "../../components/notify";
import { errorMessage, fieldError, FormError, Queried } from "../../components/states";
import { checkAccountPassword, checkEmail, type Problem } from "../../lib/validate";
import { useMe, useSession } from "../../session";
import { Section } from "./Section";
import { TwoFactorCard } from "./TwoFactorCard";

type Session = Schemas["Session"];

export default function AccountPage() {
  const { t } = useTranslation();
  return (
    <Stack maw={760}>
      <Title order={2}>{t("account.title")}</Title>
      <EmailCard />
      <PasswordCard />
      <TwoFactorCard />
      <SessionsCard />
      <DeleteCard />
    </Stack>
  );
}

function EmailCard() {
  const { t } = useTranslation();
  const { user } = useSession();
  const pending = useMe().data?.pending_email;
  const client = useQueryClient();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [problems, setProblems] = useState<{ email?: Problem; password?: Problem }>({});
  const change = useMutation({
    mutationFn: () => unwrap(api.POST("/api/v1/me/email", { body: { email: email.trim(), current_password: password } })),
    onSuccess: (r) => {
      setEmail("");
      setPassword("");
      notifyDone(t("account.emailLinkSent", { email: r.pending_email }));
      void client.invalidateQueries({ queryKey: ["me"] });
    },
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const p = { email: checkEmail(email), password: password ? undefined : { key: "passwordRequired" } };
    setProblems(p);
    if (!p.email && !p.password) change.mutate();
  };
  const msg = (p?: Problem) => (p ? t(`validation.${p.key}`, p.values) : undefined);
  return (
    <Section title={t("account.emailSection")}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <Group gap="xs">
            <Text size="sm">{t("account.currentEmail")}:</Text>
            <Text size="sm" fw={600} data-testid="current-email">
              {user.email}
            </Text>
            <Badge color={user.email_verified ? "teal" : "yellow"} variant="light">
              {user.email_verified ? t("account.verified") : t("account.unverified")}
            </Badge>
          </Group>
          {pending && (
            <Text size="sm" c="dimmed" data-testid="pending-email">
              {t("account.pending", { email: pending })}
            </Text>
          )}
          <TextInput
            label={t("account.newEmail")}
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={msg(problems.email) ?? fieldError(change.error, "email")}
          />
          <PasswordInput
            label={t("account.currentPassword")}
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={msg(problems.password) ?? fieldError(change.error, "current_password")}
          />
          <FormError error={change.error} fields={["email", "current_password"]} />
          <Group>
            <Button type="submit" loading={change.isPending}>
              {t("account.changeEmail")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}

function PasswordCard() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [problems, setProblems] = useState<{ current?: Problem; next?: Problem }>({});
  const change = useMutation({
    mutationFn: () => unwrap(api.POST("/api/v1/me/password", { body: { current_password: current, new_password: next } })),
    onSuccess: () => {
      setCurrent("");
      setNext("");
      notifyDone(t("account.passwordChanged"));
      void client.invalidateQueries({ queryKey: ["sessions"] });
    },
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const p = { current: current ? undefined : { key: "passwordRequired" }, next: checkAccountPassword(next) };
    setProblems(p);
    if (!p.current && !p.next) change.mutate();
  };
  const msg = (p?: Problem) => (p ? t(`validation.${p.key}`, p.values) : undefined);
  return (
    <Section title={t("account.passwordSection")}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <PasswordInput
            label={t("account.currentPassword")}
            autoComplete="current-password"
            value={current}
            onChange={(e) => setCurrent(e.currentTarget.value)}
            error={msg(problems.current) ?? fieldError(change.error, "current_password")}
          />
          <PasswordInput
            label={t("account.newPassword")}
            description={t("auth.passwordRule")}
            autoComplete="new-password"
            value={next}
            onChange={(e) => setNext(e.currentTarget.value)}
            error={msg(problems.next) ?? fieldError(change.error, "new_password")}
          />
          <FormError error={change.error} fields={["current_password", "new_password"]} />
          <Group>
            <Button type="submit" loading={change.isPending}>
              {t("account.changePassword")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}

function SessionsCard() {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const sessions = useQuery({ queryKey: ["sessions"], queryFn: () => unwrap(api.GET("/api/v1/me/sessions")) });
  const refresh = () => void client.invalidateQueries({ queryKey: ["sessions"] });
  const end = useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE("/api/v1/me/sessions/{id}", { params: { path: { id } } })),
    onSuccess: () => {
      notifyDone(t("account.signedOut"));
      refresh();
    },
    onError: (e) => {
      notifyFailed(errorMessage(e, t("common.unexpected")));
      refresh();
    },
  });
  const endOthers = useMutation({
    mutationFn: () => unwrap(api.DELETE("/api/v1/me/sessions")),
    onSuccess: (r) => {
      notifyDone(t("account.signedOutOthers", { count: r.ended }));
      refresh();
    },
    onError: (e) => notifyFailed(errorMessage(e, t("common.unexpected"))),
  });
  const date = new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: "medium", timeStyle: "short" });
  const device = (s: Session) =>
    s.browser && s.os ? t("account.device", { browser: s.browser, os: s.os }) : s.browser || s.os || t("account.unknownDevice");
  return (
    <Section title={t("account.sessionsSection")}>
      <Text size="sm" c="dimmed">
        {t("account.sessionsHelp")}
      </Text>
      <Queried query={sessions}>
        {(data) => (
          <Stack gap="xs" component="ul" className="plain-list" data-testid="sessions">
            {[...data.sessions].sort((a, b) => Number(b.current) - Number(a.current)).map((s) => (
              <Card component="li" key={s.id} withBorder padding="sm" data-testid="session">
                <Group justify="space-between" wrap="wrap" gap="xs">
                  <Stack gap={2}>
                    <Group gap="xs">
                      <Text size="sm" fw={600}>
                        {device(s)}
                      </Text>
                      {s.current && (
                        <Badge variant="light" color="teal">
                          {t("account.thisDevice")}
                        </Badge>
                      )}
                    </Group>
                    <Text size="xs" c="dimmed">
                      {t("account.signedIn", { date: date.format(new Date(s.created_at)) })} ·{" "}
                      {t("account.lastActive", { date: date.format(new Date(s.last_used_at)) })}
                      {s.network && <> · {t("account.network", { network: s.network })}</>}
                    </Text>
                  </Stack>
                  {!s.current && (
                    <Button
                      size="xs"
                      variant="default"
                      aria-label={t("account.signOutLabel", { device: device(s), date: date.format(new Date(s.created_at)) })}
                      loading={end.isPending && end.variables === s.id}
                      onClick={() => end.mutate(s.id)}
                    >
                      {t("account.signOut")}
                    </Button>
                  )}
                </Group>
              </Card>
            ))}
          </Stack>
        )}
      </Queried>
      {(sessions.data?.sessions.length ?? 0) > 1 && (
        <Group>
          <ConfirmButton
            variant="light"
            question={t("account.signOutOthersQuestion")}
            onConfirm={() => endOthers.mutate()}
            loading={endOthers.isPending}
          >
            {t("account.signOutOthers")}
          </ConfirmButton>
        </Group>
      )}
    </Section>
  );
}

function DeleteCard() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const navigate = useNavigate();
  const [password, setPassword] = useState("");
  const [problem, setProblem] = useState<string>();
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE("/api/v1/me", { body: { current_password: password } })),
    onSuccess: () => {
      notifyDone(t("account.deleted"));
      client.clear();
      client.setQueryData(["me"], null);
      navigate("/login", { replace: true });
    },
  });
  return (
    <Section title={t("account.deleteSection")}>
      <Text size="sm">{t("account.deleteHelp")}</Text>
      <PasswordInput
        label={t("account.currentPassword")}
        autoComplete="current-password"
        value={password}
        onChange={(e) => {
          setPassword(e.currentTarget.value);
          setProblem(undefined);
        }}
        error={problem ?? fieldError(remove.error, "current_password")}
        data-testid="delete-password"
      />
      <FormError error={remove.error} fields={["current_password"]} />
      <Group>
        <ConfirmButton
          question={t("account.deleteQuestion")}
          detail={t("account.deleteDetail")}
          loading={remove.isPending}
          onConfirm={() => {
            if (!password) setProblem(t("validation.passwordRequired"));
            else remove.mutate();
          }}
        >
          {t("account.deleteAccount")}
        </ConfirmButton>
      </Group>
    </Section>
  );
}
