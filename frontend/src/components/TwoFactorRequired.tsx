// What a workspace that requires two-factor sign-in shows a member without it (the API answers
// 2fa_required on its routes): why, and the way to the account's security settings.
import { Alert, Button, Stack, Text, Title } from "@mantine/core";
import { IconShieldLock } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

export function TwoFactorRequired() {
  const { t } = useTranslation();
  return (
    <Stack maw={640} gap="md" data-testid="2fa-required">
      <Title order={2}>{t("twoFactorRequired.title")}</Title>
      <Alert color="yellow" variant="light" icon={<IconShieldLock size={20} />}>
        <Text size="sm">{t("twoFactorRequired.text")}</Text>
      </Alert>
      <Button component={Link} to="/account#two-factor" w="fit-content">
        {t("twoFactorRequired.action")}
      </Button>
      <Text size="sm" c="dimmed">
        {t("twoFactorRequired.other")}
      </Text>
    </Stack>
  );
}
