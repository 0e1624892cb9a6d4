// The workspace's plan: its features, usage against its limits, and the trial.
import { Badge, Button, Card, Group, List, Progress, Stack, Text, ThemeIcon, Title } from "@mantine/core";
import { IconCheck, IconX } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { useCanManage, usePlan, useStartTrial } from "../../components/plan";
import { ErrorState, FormError, Loading } from "../../components/states";
import { formatDateTime, usagePercent } from "../../lib/format";
import type { Feature } from "../../lib/linkForm";

export default function PlanPage() {
  const { t, i18n } = useTranslation();
  const plan = usePlan();
  const trial = useStartTrial();
  const canManage = useCanManage();
  if (plan.isPending) return <Loading />;
  if (plan.isError) return <ErrorState error={plan.error} retry={() => void plan.refetch()} />;
  const p = plan.data;
  const usage = [
    { key: "links", used: p.usage.links_this_month, limit: p.limits.links_per_month },
    { key: "members", used: p.usage.members, limit: p.limits.members },
  ];
  return (
    <Stack maw={820}>
      <Group justify="space-between">
        <Title order={2}>{t("plan.title")}</Title>
        <Badge size="lg" data-testid="current-plan">
          {t(`plan.names.${p.plan}`)}
        </Badge>
      </Group>
      {p.plan === "trial" && p.trial_ends_at && (
        <Text data-testid="trial-ends">{t("plan.trialEnds", { date: formatDateTime(p.trial_ends_at, i18n.resolvedLanguage, "date") })}</Text>
      )}
      <Card withBorder>
        <Text fw={600} mb="sm">
          {t("plan.usage")}
        </Text>
        <Stack gap="sm">
          {usage.map((u) => (
            <div key={u.key}>
              <Group justify="space-between">
                <Text size="sm">{t(`plan.limits.${u.key}`)}</Text>
                <Text size="sm" data-testid={`usage-${u.key}`}>
                  {u.limit == null ? t("plan.ofUnlimited", { used: u.used }) : t("plan.of", { used: u.used, limit: u.limit })}
                </Text>
              </Group>
              <Progress value={usagePercent(u.used, u.limit)} color={usagePercent(u.used, u.limit) >= 90 ? "red" : "blue"} mt={4} />
            </div>
          ))}
        </Stack>
      </Card>
      <Card withBorder>
        <Text fw={600} mb="sm">
          {t("plan.featuresTitle")}
        </Text>
        <List spacing={6} center className="feature-list">
          {(Object.keys(p.features) as Feature[]).map((f) => (
            <List.Item
              key={f}
              icon={
                <ThemeIcon size={20} radius="xl" color={p.features[f] ? "teal" : "gray"} variant="light">
                  {p.features[f] ? <IconCheck size={12} /> : <IconX size={12} />}
                </ThemeIcon>
              }
            >
              <Text size="sm" c={p.features[f] ? undefined : "dimmed"}>
                {t(`plan.features.${f}`)}
              </Text>
            </List.Item>
          ))}
        </List>
      </Card>
      {p.plan === "free" && (
        <Card withBorder>
          <Stack gap="xs" align="flex-start">
            <Text fw={600}>{t("plan.trialTitle")}</Text>
            <Text size="sm">{p.trial_used ? t("plan.trialUsed") : t("plan.trialText")}</Text>
            {!p.trial_used && canManage && (
              <Button onClick={() => trial.mutate()} loading={trial.isPending} data-testid="start-trial">
                {t("plan.startTrial")}
              </Button>
            )}
            {!canManage && <Text size="sm" c="dimmed">{t("plan.askOwner")}</Text>}
            <FormError error={trial.error} />
          </Stack>
        </Card>
      )}
    </Stack>
  );
}
