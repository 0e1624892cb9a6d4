// A waiting invitation's expiry: "Expires in 3 days", or "Expired" (Resend renews it).
import { Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "../../lib/format";
import { invitationDaysLeft } from "../../lib/members";

export function InvitationExpiry({ expiresAt, expired }: { expiresAt: string; expired: boolean }) {
  const { t, i18n } = useTranslation();
  const left = invitationDaysLeft(expiresAt, expired);
  const title = formatDateTime(expiresAt, i18n.resolvedLanguage);
  if (left === "expired") {
    return (
      <Text size="sm" c="red" title={title}>
        {t("members.expired")}
      </Text>
    );
  }
  return (
    <Text size="sm" c="dimmed" title={title}>
      {left === 0 ? t("members.expiresSoon") : t("members.expiresIn", { count: left })}
    </Text>
  );
}
