// The in-app browsers' figure of a link's statistics (lib/inApp): the share of the visits made
// in apps' browsers, and each app's ("WeChat 12%") as a button that filters the page by it, as a
// breakdown's value does (docs/web-app.md).
import { Card, Group, Text, UnstyledButton } from "@mantine/core";
import { useTranslation } from "react-i18next";
import type { LinkStats } from "../api/client";
import { inAppShares } from "../lib/inApp";
import type { FilterName, StatsFilter } from "../lib/statsFilter";
import { useFilterLabel } from "./StatsFilter";

export function InAppFigure({
  stats,
  filter = {},
  onPick,
  testId = "in-app-figure",
}: {
  stats: Pick<LinkStats, "breakdowns" | "visits">;
  filter?: StatsFilter;
  onPick?: (name: FilterName, value: string) => void;
  testId?: string;
}) {
  const { t, i18n } = useTranslation();
  const label = useFilterLabel();
  const { all, apps } = inAppShares(stats.breakdowns.in_app ?? [], stats.visits);
  const percent = new Intl.NumberFormat(i18n.resolvedLanguage, { style: "percent" });
  return (
    <Card withBorder padding="sm" className="figure" data-testid={testId}>
      <Text size="xs" c="dimmed" tt="uppercase">
        {t("stats.inApp.label")}
      </Text>
      <Text size="xl" fw={700} data-testid="in-app-total">
        {percent.format(all / 100)}
      </Text>
      {apps.length > 0 && (
        <Group gap={8} wrap="wrap">
          {apps.map((a) => {
            const text = `${label("in_app", a.key)} ${percent.format(a.percent / 100)}`;
            return onPick && filter.in_app === undefined ? (
              <UnstyledButton
                key={a.key}
                className="breakdown-pick"
                onClick={() => onPick("in_app", a.key)}
                title={t("stats.filter.by", { value: label("in_app", a.key) })}
                data-testid="pick-in_app"
              >
                <Text size="xs">{text}</Text>
              </UnstyledButton>
            ) : (
              <Text key={a.key} size="xs">
                {text}
              </Text>
            );
          })}
        </Group>
      )}
    </Card>
  );
}
