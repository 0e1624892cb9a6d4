// The second step of a single sign-on for an account with two-factor sign-in on: the provider
// signed the person in, and the API sent the browser here with the step's token in the
// address's fragment (#mfa_token=…&return_to=…), which no server sees.
import { Button, Stack, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { api, unwrap } from "../../api/client";
import { AuthFrame } from "../../components/AuthFrame";
import { FormError, fieldError } from "../../components/states";

export type SecondStep = { token: string; returnTo: string };

/** The second step the address's fragment carries, if any. */
export function ssoSecondStep(): SecondStep | undefined {
  const f = new URLSearchParams(window.location.hash.replace(/^#/, ""));
  const token = f.get("mfa_token");
  if (!token) return undefined;
  const r = f.get("return_to") ?? "";
  // Only a page of the app: the server sends one, and nothing else is followed.
  const returnTo = r.startsWith("/app/") && !r.startsWith("//") ? r.slice("/app".length) : "/links";
  return { token, returnTo };
}

export function SsoSecondStep({ step }: { step: SecondStep }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [code, setCode] = useState("");
  const finish = useMutation({
    mutationFn: () => {
      const c = code.replace(/\s/g, "");
      const body = /^\d{6}$/.test(c) ? { mfa_token: step.token, code: c } : { mfa_token: step.token, recovery_code: code.trim() };
      return unwrap(api.POST("/api/v1/auth/login/2fa", { body }));
    },
    onSuccess: async () => {
      await client.resetQueries({ queryKey: ["me"] });
      navigate(step.returnTo === "/" ? "/links" : step.returnTo, { replace: true });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (code.trim()) finish.mutate();
  };
  return (
    <AuthFrame>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Title order={2}>{t("auth.ssoCodeTitle")}</Title>
          <Text size="sm">{t("auth.ssoCodeHelp")}</Text>
          <TextInput
            label={t("auth.ssoCode")}
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
            autoComplete="one-time-code"
            error={fieldError(finish.error, "code") ?? fieldError(finish.error, "recovery_code")}
            data-testid="sso-code"
            required
          />
          <FormError error={finish.error} fields={["code", "recovery_code"]} />
          <Button type="submit" loading={finish.isPending}>
            {t("auth.ssoCodeSubmit")}
          </Button>
        </Stack>
      </form>
    </AuthFrame>
  );
}
