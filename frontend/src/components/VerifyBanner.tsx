// The reminder on every page while the person's address is not verified, with a button that
// mails a new link.
import { Alert, Button, Group, Text } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { IconMailExclamation } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { api, ApiError, unwrap } from "../api/client";
import { useSession } from "../session";
import { notifyDone, notifyFailed } from "./notify";
import { errorMessage } from "./states";

export function VerifyBanner() {
  const { t } = useTranslation();
  const { user } = useSession();
  const resend = useMutation({
    mutationFn: () => unwrap(api.POST("/api/v1/me/verification")),
    onSuccess: () => notifyDone(t("account.resent")),
    onError: (e) =>
      notifyFailed(e instanceof ApiError && e.code === "rate_limited" ? t("account.resendLimited") : errorMessage(e, t("common.unexpected"))),
  });
  if (user.email_verified) return null;
  return (
    <Alert color="yellow" icon={<IconMailExclamation size={18} />} mb="md" data-testid="verify-banner">
      <Group justify="space-between" gap="sm">
        <Text size="sm">{t("account.bannerText", { email: user.email })}</Text>
        <Button size="xs" variant="light" color="yellow" onClick={() => resend.mutate()} loading={resend.isPending}>
          {t("account.resend")}
        </Button>
      </Group>
    </Alert>
  );
}
