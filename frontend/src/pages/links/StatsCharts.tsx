// A link's hourly and daily visits.
import "@mantine/charts/styles.css";
import { AreaChart, BarChart } from "@mantine/charts";
import { Card, Group, SegmentedControl, Text } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { LinkStats } from "../../api/client";
import { pointLabel } from "../../lib/format";

// Visits are whole numbers: the axis shows no 0.25 visit.
export const countAxis = { allowDecimals: false } as const;

export function StatsCharts({ stats }: { stats: LinkStats }) {
  const { t, i18n } = useTranslation();
  const [unit, setUnit] = useState<"hour" | "day">("hour");
  const points = (unit === "hour" ? stats.series.hourly : stats.series.daily).map((p) => ({
    label: pointLabel(p.start, unit, i18n.resolvedLanguage),
    visits: p.visits,
  }));
  const series = [{ name: "visits", label: t("stats.visits"), color: "blue.6" }];
  return (
    <Card withBorder data-testid="visits-chart">
      <Group justify="space-between" mb="sm">
        <Text fw={600}>{unit === "hour" ? t("stats.hourly") : t("stats.daily")}</Text>
        <SegmentedControl
          size="xs"
          value={unit}
          onChange={(v) => setUnit(v as "hour" | "day")}
          data={[
            { value: "hour", label: t("stats.hours") },
            { value: "day", label: t("stats.days") },
          ]}
          data-testid="chart-unit"
        />
      </Group>
      {unit === "hour" ? (
        <BarChart h={220} data={points} dataKey="label" series={series} withLegend={false} tickLine="y" gridAxis="y" yAxisProps={countAxis} />
      ) : (
        <AreaChart
          h={220}
          data={points}
          dataKey="label"
          series={series}
          withLegend={false}
          tickLine="y"
          gridAxis="y"
          curveType="monotone"
          yAxisProps={countAxis}
        />
      )}
    </Card>
  );
}
