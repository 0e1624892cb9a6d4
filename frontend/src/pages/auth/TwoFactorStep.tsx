// The second step of logging in to an account with two-factor sign-in: the password was right,
// and the server answered a token for this step instead of a session. A code of the
// authenticator app, or one of the recovery codes, finishes it.
import { Anchor, Button, Stack, Text, TextInput, Title } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "../../api/client";
import { fieldError, FormError } from "../../components/states";

/**
 * The step's form. title, text and submitLabel replace its own wording where the step follows
 * something else than a password (a single sign-on).
 */
export function TwoFactorStep({
  mfaToken,
  onDone,
  onBack,
  title,
  text,
  submitLabel,
}: {
  mfaToken: string;
  onDone: () => void;
  onBack: () => void;
  title?: string;
  text?: string;
  submitLabel?: string;
}) {
  const { t } = useTranslation();
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState("");
  const [missing, setMissing] = useState(false);
  const submit = useMutation({
    mutationFn: () => {
      const value = code.trim();
      const body = recovery ? { mfa_token: mfaToken, recovery_code: value } : { mfa_token: mfaToken, code: value.replace(/\s/g, "") };
      return unwrap(api.POST("/api/v1/auth/login/2fa", { body }));
    },
    onSuccess: onDone,
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setMissing(!code.trim());
    if (code.trim()) submit.mutate();
  };
  const switchMode = () => {
    setRecovery((r) => !r);
    setCode("");
    setMissing(false);
    submit.reset();
  };
  const inputError = missing ? t("errors.code_required") : (fieldError(submit.error, "code") ?? fieldError(submit.error, "recovery_code"));
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        <Title order={2}>{title ?? t("auth.mfaTitle")}</Title>
        <Text size="sm">{recovery ? t("auth.mfaRecoveryText") : (text ?? t("auth.mfaText"))}</Text>
        {recovery ? (
          <TextInput
            key="recovery"
            label={t("auth.recoveryCode")}
            autoComplete="off"
            spellCheck={false}
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
            error={inputError}
            autoFocus
            required
          />
        ) : (
          <TextInput
            key="code"
            label={t("auth.mfaCode")}
            autoComplete="one-time-code"
            inputMode="numeric"
            pattern="[0-9]*"
            maxLength={6}
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
            error={inputError}
            autoFocus
            required
          />
        )}
        <FormError error={submit.error} fields={["code", "recovery_code"]} />
        <Button type="submit" loading={submit.isPending} data-testid="mfa-submit">
          {submitLabel ?? t("auth.verify")}
        </Button>
        <Anchor component="button" type="button" size="sm" onClick={switchMode} w="fit-content">
          {recovery ? t("auth.useApp") : t("auth.useRecovery")}
        </Anchor>
        <Anchor component="button" type="button" size="sm" onClick={onBack} w="fit-content">
          {t("account.backToLogin")}
        </Anchor>
      </Stack>
    </form>
  );
}
