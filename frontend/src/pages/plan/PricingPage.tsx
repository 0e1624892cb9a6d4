// The plans and their prices for anyone, signed in or not: what each plan includes, and the
// way in (sign up free, start the trial from the app).
import { Anchor, Button, Group, Stack, Text, Title } from "@mantine/core";
import { IconLink } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { LanguagePicker } from "../../components/LanguagePicker";
import { usePlans } from "../../components/plan";
import { Queried } from "../../components/states";
import type { Offer } from "../../lib/plans";
import { PlansComparison } from "./PlansComparison";

export default function PricingPage() {
  const { t } = useTranslation();
  const offers = usePlans();
  const action = (o: Offer) => {
    if (o.id === "free" || o.id === "trial") {
      return (
        <Stack gap={6}>
          {o.id === "trial" && !offers.data?.checkout && <Text size="xs" c="dimmed">{t("plans.trialFreeToday")}</Text>}
          <Button component={RouterLink} to="/signup" variant={o.id === "trial" ? "filled" : "default"}>
            {t("plans.signup")}
          </Button>
        </Stack>
      );
    }
    if (offers.data?.checkout) {
      // Bought online: from the workspace's plan page, once signed up.
      return (
        <Stack gap={6}>
          <Text size="sm">{t("billing.publicUpgrade", { plan: t(`plan.names.${o.id}`) })}</Text>
          <Button component={RouterLink} to="/signup" variant="default">
            {t("plans.signup")}
          </Button>
        </Stack>
      );
    }
    return <Text size="sm">{t("plans.howToUpgradePublic", { plan: t(`plan.names.${o.id}`) })}</Text>;
  };
  return (
    <div className="page">
      <Group justify="space-between" mb="md">
        <Anchor component={RouterLink} to="/login" className="brand">
          <IconLink size={20} /> Shortlink
        </Anchor>
        <Group gap="xs">
          <LanguagePicker />
          <Button component={RouterLink} to="/login" variant="subtle" size="xs">
            {t("auth.login")}
          </Button>
        </Group>
      </Group>
      <Stack>
        <Title order={2}>{t("plans.title")}</Title>
        <Text c="dimmed">{t("plans.publicIntro")}</Text>
        <Queried query={offers}>{(d) => <PlansComparison offers={d.plans} features={d.features} actions={action} />}</Queried>
      </Stack>
    </div>
  );
}
