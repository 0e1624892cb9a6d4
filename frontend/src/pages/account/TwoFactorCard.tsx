// Two-factor sign-in on the account page: whether it is on, turning it on (a QR code of the
// secret, the secret as text for typing, a code of the app to confirm, then the recovery codes,
// shown this once) and turning it off with a code or a recovery code.
import { Badge, Button, Code, CopyButton, Group, Image, List, Stack, Text, TextInput } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "../../api/client";
import { notifyDone } from "../../components/notify";
import { fieldError, FormError } from "../../components/states";
import { saveBlob } from "../../lib/download";
import { useMe } from "../../session";
import { Section } from "./Section";

/** The queries whose answers change with the person's 2FA: who they are and what they may open. */
const affected = [["me"], ["workspace-access"]];

export function TwoFactorCard() {
  const { t } = useTranslation();
  const on = useMe().data?.two_factor ?? false;
  const [codes, setCodes] = useState<string[]>();
  return (
    <Section title={t("account.twoFactorSection")} anchor="two-factor">
      <Group gap="xs">
        <Text size="sm">{t("account.twoFactorHelp")}</Text>
        <Badge color={on ? "teal" : "gray"} variant="light" data-testid="two-factor-state">
          {on ? t("account.twoFactorOn") : t("account.twoFactorOff")}
        </Badge>
      </Group>
      {codes ? <RecoveryCodes codes={codes} onDone={() => setCodes(undefined)} /> : on ? <TurnOff /> : <TurnOn onCodes={setCodes} />}
    </Section>
  );
}

function TurnOn({ onCodes }: { onCodes: (codes: string[]) => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [code, setCode] = useState("");
  const enrol = useMutation({ mutationFn: () => unwrap(api.POST("/api/v1/me/2fa")) });
  const confirm = useMutation({
    mutationFn: () => unwrap(api.POST("/api/v1/me/2fa/confirm", { body: { code: code.replace(/\s/g, "") } })),
    onSuccess: (r) => {
      onCodes(r.recovery_codes);
      notifyDone(t("account.twoFactorEnabled"));
      for (const key of affected) void client.invalidateQueries({ queryKey: key });
    },
  });
  const e = enrol.data;
  if (!e) {
    return (
      <Stack gap="sm" align="flex-start">
        <Button onClick={() => enrol.mutate()} loading={enrol.isPending}>
          {t("account.twoFactorStart")}
        </Button>
        <FormError error={enrol.error} />
      </Stack>
    );
  }
  const submit = (ev: FormEvent) => {
    ev.preventDefault();
    confirm.mutate();
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm">{t("account.twoFactorScan")}</Text>
        <Image src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(e.qr_svg)}`} alt={t("account.twoFactorQrAlt")} w={200} h={200} fit="contain" />
        <Text size="sm">{t("account.twoFactorManual")}</Text>
        <Code block aria-label={t("account.twoFactorSecret")} data-testid="totp-secret">
          {e.secret}
        </Code>
        <TextInput
          label={t("account.twoFactorConfirmCode")}
          autoComplete="one-time-code"
          inputMode="numeric"
          pattern="[0-9]*"
          maxLength={6}
          value={code}
          onChange={(ev) => setCode(ev.currentTarget.value)}
          error={fieldError(confirm.error, "code")}
          maw={240}
        />
        <FormError error={confirm.error} fields={["code"]} />
        <Group>
          <Button type="submit" loading={confirm.isPending}>
            {t("account.twoFactorConfirm")}
          </Button>
          <Button variant="default" onClick={() => enrol.reset()}>
            {t("common.cancel")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const text = codes.join("\n") + "\n";
  return (
    <Stack gap="sm" data-testid="recovery-codes">
      <Text fw={600}>{t("account.recoveryTitle")}</Text>
      <Text size="sm">{t("account.recoveryHelp")}</Text>
      <List spacing={2} className="recovery-codes">
        {codes.map((c) => (
          <List.Item key={c}>
            <Code>{c}</Code>
          </List.Item>
        ))}
      </List>
      <Group>
        <CopyButton value={text}>
          {({ copied, copy }) => (
            <Button variant="light" onClick={copy}>
              {copied ? t("account.recoveryCopied") : t("account.recoveryCopy")}
            </Button>
          )}
        </CopyButton>
        <Button variant="light" onClick={() => saveBlob(new Blob([text], { type: "text/plain" }), t("account.recoveryFile"))}>
          {t("account.recoveryDownload")}
        </Button>
        <Button onClick={onDone}>{t("account.recoveryDone")}</Button>
      </Group>
    </Stack>
  );
}

function TurnOff() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [code, setCode] = useState("");
  const off = useMutation({
    mutationFn: () => {
      const v = code.trim();
      // Six digits are a code of the app; anything else is taken for a recovery code.
      const body = /^\d{6}$/.test(v.replace(/\s/g, "")) ? { code: v.replace(/\s/g, "") } : { recovery_code: v };
      return unwrap(api.DELETE("/api/v1/me/2fa", { body }));
    },
    onSuccess: () => {
      setCode("");
      notifyDone(t("account.twoFactorDisabled"));
      for (const key of affected) void client.invalidateQueries({ queryKey: key });
    },
  });
  const submit = (ev: FormEvent) => {
    ev.preventDefault();
    off.mutate();
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm">{t("account.twoFactorDisableHelp")}</Text>
        <Group align="flex-end" className="stack-phone">
          <TextInput
            label={t("account.twoFactorDisableCode")}
            autoComplete="one-time-code"
            spellCheck={false}
            value={code}
            onChange={(ev) => setCode(ev.currentTarget.value)}
            error={fieldError(off.error, "code") ?? fieldError(off.error, "recovery_code")}
          />
          <Button type="submit" color="red" variant="light" loading={off.isPending}>
            {t("account.twoFactorDisable")}
          </Button>
        </Group>
        <FormError error={off.error} fields={["code", "recovery_code"]} />
      </Stack>
    </form>
  );
}
