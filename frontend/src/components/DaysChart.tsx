// Links made and visits by day, for the dashboards.
import "@mantine/charts/styles.css";
import { BarChart } from "@mantine/charts";
import { Card, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import type { Schemas } from "../api/client";

export function DaysChart({ days }: { days: Schemas["DashboardDay"][] }) {
  const { t } = useTranslation();
  const data = days.map((d) => ({ day: d.date.slice(5), links: d.links, visits: d.visits }));
  return (
    <Card withBorder data-testid="days-chart">
      <Text fw={600} mb="sm">
        {t("dashboard.days")}
      </Text>
      <BarChart
        h={240}
        data={data}
        dataKey="day"
        withLegend
        series={[
          { name: "visits", label: t("stats.visits"), color: "blue.6" },
          { name: "links", label: t("dashboard.links"), color: "teal.5" },
        ]}
        tickLine="y"
        gridAxis="y"
        yAxisProps={{ allowDecimals: false }}
      />
    </Card>
  );
}
