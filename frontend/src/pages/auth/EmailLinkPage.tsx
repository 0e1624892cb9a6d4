// The pages that links mailed by the service open: /app/verify?token=… confirms the address,
// /app/reset-password?token=… sets a new password (every session of the account ends).
import { Anchor, Button, PasswordInput, Stack, Text, Title } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import { api, unwrap, type Me } from "../../api/client";
import { AuthFrame } from "../../components/AuthFrame";
import { FormError, Loading, fieldError } from "../../components/states";
import { checkAccountPassword } from "../../lib/validate";
import { useMe } from "../../session";

export default function EmailLinkPage({ kind }: { kind: "verify" | "reset" }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const client = useQueryClient();
  const verify = useMutation({
    mutationFn: () => unwrap(api.POST("/api/v1/auth/verify-email", { body: { token } })),
    // The address (a new one, for a change of address) is verified: the banner goes. The
    // answer is the person as they are now: a read of /me under way (begun before the
    // verification, so answering the unverified person) is called off first, or it would land
    // after and bring the banner back; then the answer is kept, or /me read again.
    onSuccess: async (r) => {
      await client.cancelQueries({ queryKey: ["me"] });
      const kept = client.setQueryData<Me | null>(["me"], (old) => (old ? { ...old, user: r.user, pending_email: null } : old));
      if (!kept) await client.invalidateQueries({ queryKey: ["me"] });
    },
  });
  const reset = useMutation({
    mutationFn: (password: string) => unwrap(api.POST("/api/v1/auth/password-reset/confirm", { body: { token, password } })),
  });
  // Signed in (an address verified from the app): the way on is the app, not the login page.
  const signedIn = !!useMe().data && kind === "verify";
  const [password, setPassword] = useState("");
  const [problem, setProblem] = useState<string>();
  const { mutate: verifyNow } = verify;
  useEffect(() => {
    if (kind === "verify" && token) verifyNow();
  }, [kind, token, verifyNow]);

  const onReset = (e: FormEvent) => {
    e.preventDefault();
    const p = checkAccountPassword(password);
    setProblem(p ? t(`validation.${p.key}`, p.values) : undefined);
    if (!p) reset.mutate(password);
  };
  return (
    <AuthFrame>
      <Stack>
        <Title order={2}>{kind === "verify" ? t("auth.verifyTitle") : t("auth.resetTitle")}</Title>
        {!token && <Text>{t("auth.noToken")}</Text>}
        {kind === "verify" && token && (verify.isPending ? <Loading /> : verify.isSuccess ? <Text>{t("auth.verified")}</Text> : <FormError error={verify.error} />)}
        {kind === "reset" && token && !reset.isSuccess && (
          <form onSubmit={onReset} noValidate>
            <Stack>
              <PasswordInput label={t("auth.newPassword")} autoComplete="new-password" value={password} onChange={(e) => setPassword(e.currentTarget.value)} error={problem ?? fieldError(reset.error, "password")} />
              <FormError error={reset.error} fields={["password"]} />
              <Button type="submit" loading={reset.isPending}>
                {t("auth.setPassword")}
              </Button>
            </Stack>
          </form>
        )}
        {reset.isSuccess && <Text>{t("auth.passwordChanged")}</Text>}
        <Anchor component={Link} to={signedIn ? "/links" : "/login"} data-testid="email-link-next">
          {signedIn ? t("auth.continue") : t("auth.login")}
        </Anchor>
      </Stack>
    </AuthFrame>
  );
}
