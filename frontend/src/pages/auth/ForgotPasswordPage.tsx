// /app/forgot-password: asks for the account's address and mails a link to /app/reset-password.
// The answer is the same whether or not an account uses the address.
import { Anchor, Button, Stack, Text, TextInput, Title } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { api, unwrap } from "../../api/client";
import { AuthFrame } from "../../components/AuthFrame";
import { FormError, fieldError } from "../../components/states";
import { checkEmail } from "../../lib/validate";

export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const [email, setEmail] = useState("");
  const [problem, setProblem] = useState<string>();
  const send = useMutation({
    mutationFn: (address: string) => unwrap(api.POST("/api/v1/auth/password-reset", { body: { email: address } })),
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const p = checkEmail(email);
    setProblem(p ? t(`validation.${p.key}`, p.values) : undefined);
    if (!p) send.mutate(email.trim());
  };
  return (
    <AuthFrame>
      <Stack>
        <Title order={2}>{t("account.forgotTitle")}</Title>
        {send.isSuccess ? (
          <Text role="status" data-testid="reset-sent">
            {t("account.forgotSent", { email: send.variables })}
          </Text>
        ) : (
          <form onSubmit={onSubmit} noValidate>
            <Stack>
              <Text size="sm" c="dimmed">
                {t("account.forgotText")}
              </Text>
              <TextInput
                label={t("auth.email")}
                type="email"
                autoComplete="username"
                value={email}
                onChange={(e) => setEmail(e.currentTarget.value)}
                error={problem ?? fieldError(send.error, "email")}
                required
              />
              <FormError error={send.error} fields={["email"]} />
              <Button type="submit" loading={send.isPending}>
                {t("account.forgotSend")}
              </Button>
            </Stack>
          </form>
        )}
        <Anchor component={Link} to="/login">
          {t("account.backToLogin")}
        </Anchor>
      </Stack>
    </AuthFrame>
  );
}
