import { Button, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Stack align="flex-start">
      <Title order={2}>{t("notFound.title")}</Title>
      <Text c="dimmed">{t("notFound.text")}</Text>
      <Button component={Link} to="/links" variant="light">
        {t("nav.links")}
      </Button>
    </Stack>
  );
}
