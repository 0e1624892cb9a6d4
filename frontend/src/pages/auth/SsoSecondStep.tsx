// The second step of a single sign-on for an account with two-factor sign-in on: the provider
// signed the person in, and the API sent the browser here with the step's token in the
// address's fragment (#mfa_token=…&return_to=…), which no server sees. The step itself is the
// one that follows a password (TwoFactorStep), in words of its own.
import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { AuthFrame } from "../../components/AuthFrame";
import { TwoFactorStep } from "./TwoFactorStep";

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
  return (
    <AuthFrame>
      <TwoFactorStep
        mfaToken={step.token}
        title={t("auth.ssoCodeTitle")}
        text={t("auth.ssoCodeHelp")}
        submitLabel={t("auth.ssoCodeSubmit")}
        onDone={async () => {
          await client.resetQueries({ queryKey: ["me"] });
          navigate(step.returnTo === "/" ? "/links" : step.returnTo, { replace: true });
        }}
        onBack={() => navigate("/login", { replace: true })}
      />
    </AuthFrame>
  );
}
