// The sign-up and log-in form: the same fields, checks and answer handling.
import { Anchor, Button, Card, Group, PasswordInput, Stack, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useNavigate } from "react-router";
import { api, unwrap } from "../../api/client";
import { LanguagePicker } from "../../components/LanguagePicker";
import { FormError } from "../../components/states";
import { checkAccountPassword, checkEmail, type Problem } from "../../lib/validate";

export function AuthForm({ mode }: { mode: "login" | "signup" }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const client = useQueryClient();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [problems, setProblems] = useState<{ email?: Problem; password?: Problem }>({});
  const submit = useMutation({
    mutationFn: async () => {
      const body = { email: email.trim(), password };
      if (mode === "signup") {
        const r = await unwrap(api.POST("/api/v1/auth/signup", { body }));
        if (r.workspace?.id) localStorage.setItem("sl.workspace", String(r.workspace.id));
      } else {
        await unwrap(api.POST("/api/v1/auth/login", { body }));
      }
    },
    onSuccess: async () => {
      await client.resetQueries({ queryKey: ["me"] });
      const from = (location.state as { from?: string } | null)?.from;
      navigate(from && from !== "/login" ? from : "/links", { replace: true });
    },
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const p = {
      email: checkEmail(email),
      password: mode === "signup" ? checkAccountPassword(password) : password ? undefined : { key: "passwordRequired" },
    };
    setProblems(p);
    if (!p.email && !p.password) submit.mutate();
  };
  const msg = (p?: Problem) => (p ? t(`validation.${p.key}`, p.values) : undefined);
  return (
    <div className="auth">
      <Group justify="flex-end" mb="md">
        <LanguagePicker />
      </Group>
      <Card withBorder padding="lg" className="auth-card">
        <form onSubmit={onSubmit} noValidate>
          <Stack>
            <Title order={2}>{mode === "signup" ? t("auth.signupTitle") : t("auth.loginTitle")}</Title>
            <Text c="dimmed" size="sm">
              {t("auth.tagline")}
            </Text>
            <TextInput
              label={t("auth.email")}
              type="email"
              autoComplete="username"
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              error={msg(problems.email)}
              name="email"
              data-testid="email"
              required
            />
            <PasswordInput
              label={t("auth.password")}
              description={mode === "signup" ? t("auth.passwordRule") : undefined}
              autoComplete={mode === "signup" ? "new-password" : "current-password"}
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              error={msg(problems.password)}
              name="password"
              data-testid="password"
              required
            />
            {mode === "login" && (
              <Anchor component={Link} to="/forgot-password" size="sm">
                {t("account.forgotLink")}
              </Anchor>
            )}
            <FormError error={submit.error} />
            <Button type="submit" loading={submit.isPending} data-testid="submit">
              {mode === "signup" ? t("auth.signup") : t("auth.login")}
            </Button>
            <Text size="sm">
              {mode === "signup" ? t("auth.haveAccount") : t("auth.noAccount")}{" "}
              <Anchor component={Link} to={mode === "signup" ? "/login" : "/signup"} state={location.state}>
                {mode === "signup" ? t("auth.login") : t("auth.signup")}
              </Anchor>
            </Text>
          </Stack>
        </form>
      </Card>
    </div>
  );
}
