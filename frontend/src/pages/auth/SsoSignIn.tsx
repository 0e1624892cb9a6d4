// "Sign in with SSO" on the login page: the address's domain names the workspace's identity
// provider, so the browser goes to the API's start, which sends it on to that provider. A
// sign-in that failed comes back here with ?sso_error=<reason>.
import { Alert, Button, Divider } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";

export function SsoSignIn({ email, onMissingEmail, from }: { email: string; onMissingEmail: () => void; from?: string }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const failed = params.get("sso_error");
  const start = () => {
    const e = email.trim();
    if (!e.includes("@")) {
      onMissingEmail();
      return;
    }
    const q = new URLSearchParams({ email: e });
    if (from && from.startsWith("/") && !from.startsWith("//")) q.set("return_to", "/app" + from);
    window.location.assign("/api/v1/auth/sso/start?" + q.toString());
  };
  return (
    <>
      {failed && (
        <Alert color="red" data-testid="sso-error">
          {t(`errors.${failed}`, { defaultValue: t("auth.ssoFailed") })}
        </Alert>
      )}
      <Divider label={t("auth.or")} labelPosition="center" />
      <Button variant="default" onClick={start} data-testid="sso-start">
        {t("auth.ssoSignIn")}
      </Button>
    </>
  );
}
