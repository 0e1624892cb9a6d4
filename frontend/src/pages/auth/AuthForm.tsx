// The sign-up and log-in form: the same fields, checks and answer handling. Reached from an
// invitation mail's link (/app/invitations/{id}?token=…), it says what the invitation is, and
// signing up with it joins the inviting workspace instead of making one of one's own.
import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useNavigate } from "react-router";
import { api, unwrap } from "../../api/client";
import { AuthFrame } from "../../components/AuthFrame";
import { FormError, fieldError } from "../../components/states";
import { formatDateTime } from "../../lib/format";
import { mailLanguage } from "../../lib/mailLanguage";
import { invitationLink } from "../../lib/invitation";
import { TwoFactorStep } from "./TwoFactorStep";
import { checkAccountPassword, checkEmail, type Problem } from "../../lib/validate";
import { SsoSignIn } from "./SsoSignIn";

export function AuthForm({ mode }: { mode: "login" | "signup" }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const client = useQueryClient();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [problems, setProblems] = useState<{ email?: Problem; password?: Problem }>({});
  const [mfaToken, setMfaToken] = useState<string>();
  const state = location.state as { from?: string; chosen?: boolean } | null;
  const from = state?.from;
  const invitation = invitationLink(from);
  const preview = useQuery({
    queryKey: ["invitation", invitation?.id, invitation?.token],
    queryFn: () =>
      unwrap(api.GET("/api/v1/invitations/{id}", { params: { path: { id: invitation!.id }, query: { token: invitation!.token! } } })),
    enabled: !!invitation?.token,
    retry: false,
  });
  const invited = preview.data;
  // The invited address fills the form, once it is known.
  useEffect(() => {
    if (invited) setEmail((e) => e || invited.email);
  }, [invited]);
  // An invited address without an account signs up, unless the person chose to log in.
  useEffect(() => {
    if (mode === "login" && invited && !invited.has_account && !state?.chosen) navigate("/signup", { replace: true, state });
  }, [mode, invited, state, navigate]);
  const submit = useMutation({
    mutationFn: async () => {
      const body = { email: email.trim(), password };
      if (mode === "signup") {
        // An expired invitation joins nothing: the person signs up on their own, as its note says.
        const joining = invited && !invited.expired && invitation?.token ? { id: invitation.id, token: invitation.token } : undefined;
        const signup = { ...body, language: mailLanguage(i18n.resolvedLanguage) };
        const r = await unwrap(api.POST("/api/v1/auth/signup", { body: joining ? { ...signup, invitation: joining } : signup }));
        if (r.workspace?.id) localStorage.setItem("sl.workspace", String(r.workspace.id));
        return !!joining;
      }
      const r = await unwrap(api.POST("/api/v1/auth/login", { body }));
      // Two-factor sign-in: the password was right, a code finishes the sign-in.
      if ("mfa_required" in r && r.mfa_required) {
        setMfaToken(r.mfa_token);
        return "mfa" as const;
      }
      return false;
    },
    onSuccess: async (joined) => {
      if (joined === "mfa") return;
      await signedIn(joined);
    },
  });
  const signedIn = async (joined: boolean) => {
    await client.resetQueries({ queryKey: ["me"] });
    // Signed up through the invitation: already in its workspace, nothing left to accept.
    navigate(!joined && from && from !== "/login" ? from : "/links", { replace: true });
  };
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
  if (mfaToken) {
    return (
      <AuthFrame>
        <TwoFactorStep
          mfaToken={mfaToken}
          onDone={() => void signedIn(false)}
          onBack={() => {
            setMfaToken(undefined);
            setPassword("");
            submit.reset();
          }}
        />
      </AuthFrame>
    );
  }
  return (
    <AuthFrame>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <Title order={2}>{mode === "signup" ? t("auth.signupTitle") : t("auth.loginTitle")}</Title>
          <Text c="dimmed" size="sm">
            {t("auth.tagline")}
          </Text>
          {invitation && <InvitationNote invited={invited} tokenless={!invitation.token} gone={preview.isError} mode={mode} />}
          <TextInput
            label={t("auth.email")}
            type="email"
            autoComplete="username"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={msg(problems.email) ?? fieldError(submit.error, "email")}
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
            error={msg(problems.password) ?? fieldError(submit.error, "password")}
            name="password"
            data-testid="password"
            required
          />
          {mode === "login" && (
            <Anchor component={Link} to="/forgot-password" size="sm">
              {t("account.forgotLink")}
            </Anchor>
          )}
          <FormError error={submit.error} fields={["email", "password"]} />
          <Button type="submit" loading={submit.isPending} data-testid="submit">
            {mode === "signup" ? t("auth.signup") : t("auth.login")}
          </Button>
          {mode === "login" && <SsoSignIn email={email} from={from} onMissingEmail={() => setProblems({ email: checkEmail(email) ?? { key: "email" } })} />}
          <Text size="sm">
            {mode === "signup" ? t("auth.haveAccount") : t("auth.noAccount")}{" "}
            <Anchor component={Link} to={mode === "signup" ? "/login" : "/signup"} state={{ ...state, chosen: true }}>
              {mode === "signup" ? t("auth.login") : t("auth.signup")}
            </Anchor>
          </Text>
          <Anchor component={Link} to="/pricing" size="sm" w="fit-content">
            {t("plans.seeAll")}
          </Anchor>
        </Stack>
      </form>
    </AuthFrame>
  );
}

type Preview = {
  workspace_name: string;
  invited_by: string;
  role: "admin" | "member" | "viewer";
  email: string;
  has_account: boolean;
  expires_at: string;
  expired: boolean;
};

/** What the invitation the person came with is, or that it can no longer be seen. */
function InvitationNote({ invited, tokenless, gone, mode }: { invited?: Preview; tokenless: boolean; gone: boolean; mode: "login" | "signup" }) {
  const { t, i18n } = useTranslation();
  if (!invited) {
    // An older link, without a secret: what it invites to cannot be shown before signing in.
    if (!tokenless && !gone) return null;
    return (
      <Alert color="gray" data-testid="invitation-context">
        {t(gone ? "auth.invitationGone" : "auth.invitedGeneric")}
      </Alert>
    );
  }
  if (invited.expired) {
    const date = formatDateTime(invited.expires_at, i18n.resolvedLanguage, "date");
    return (
      <Alert color="yellow" data-testid="invitation-context">
        {invited.invited_by
          ? t("auth.invitationExpired", { workspace: invited.workspace_name, inviter: invited.invited_by, date })
          : t("auth.invitationExpiredNoInviter", { workspace: invited.workspace_name, date })}
      </Alert>
    );
  }
  const role = t(`members.roles.${invited.role}`);
  return (
    <Alert color="blue" data-testid="invitation-context">
      <Text size="sm" fw={600}>
        {invited.invited_by
          ? t("auth.invited", { workspace: invited.workspace_name, inviter: invited.invited_by, role })
          : t("auth.invitedNoInviter", { workspace: invited.workspace_name, role })}
      </Text>
      <Text size="sm">{t(mode === "signup" ? "auth.invitedSignup" : "auth.invitedLogin", { email: invited.email })}</Text>
    </Alert>
  );
}
