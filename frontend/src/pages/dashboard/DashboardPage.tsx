// The workspace's dashboard over a range (kept in the URL): the last day, every day, and the
// top links (plan feature), with the visits' CSV export (another plan feature).
import { Anchor, Card, Group, NativeSelect, Stack, Table, Text, Title } from "@mantine/core";
import { useState } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { api, unwrap } from "../../api/client";
import { DaysChart } from "../../components/DaysChart";
import { ExportButton } from "../../components/ExportButton";
import { RangePicker, useStatsRange } from "../../components/RangePicker";
import { Figure } from "../../components/Figure";
import { UpgradeHint, usePlan } from "../../components/plan";
import { useTags } from "../../components/useTags";
import { Empty, ErrorState, Loading } from "../../components/states";
import i18n from "../../i18n";
import { formatNumber, timeZone } from "../../lib/format";
import { localDate, rangeQuery } from "../../lib/statsView";
import { useWorkspaceId } from "../../session";

export default function DashboardPage() {
  const { t } = useTranslation();
  const ws = useWorkspaceId();
  const plan = usePlan();
  const allowed = plan.data?.features.dashboard === true;
  const [range, setRange] = useStatsRange("30d");
  const query = rangeQuery(range, timeZone());
  // Narrowed to the links of one tag, when the workspace has tags and one is picked.
  const [tag, setTag] = useState("");
  const tags = useTags(allowed);
  const stats = useQuery({
    queryKey: [ws, "dashboard", query, tag],
    queryFn: () =>
      unwrap(api.GET("/api/v1/workspaces/{workspace}/stats", { params: { path: { workspace: ws }, query: { ...query, tag: tag || undefined } } })),
    enabled: allowed,
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });
  if (plan.isPending) return <Loading />;
  if (plan.isError) return <ErrorState error={plan.error} retry={() => void plan.refetch()} />;
  return (
    <Stack>
      <Title order={2}>{t("dashboard.title")}</Title>
      {allowed && (
        <Group justify="space-between" align="flex-end" gap="xs">
          <Group gap="xs" align="flex-end">
            <RangePicker value={range} onChange={setRange} />
            {(tags.data?.tags.length ?? 0) > 0 && (
              <NativeSelect
                aria-label={t("links.tagFilter")}
                value={tag}
                onChange={(e) => setTag(e.currentTarget.value)}
                data={[{ value: "", label: t("links.anyTag") }, ...(tags.data?.tags ?? []).map((tg) => ({ value: tg.name, label: tg.name }))]}
                data-testid="dashboard-tag"
              />
            )}
          </Group>
          <ExportButton range={query} tag={tag} />
        </Group>
      )}
      {!allowed ? (
        <UpgradeHint feature="dashboard" />
      ) : stats.isPending ? (
        <Loading />
      ) : stats.isError ? (
        <ErrorState error={stats.error} retry={() => void stats.refetch()} />
      ) : (
        <>
          <Group className="figures">
            {stats.data.today.date === localDate(new Date()) && (
              <>
                <Figure label={t("dashboard.linksToday")} value={stats.data.today.links} />
                <Figure label={t("dashboard.visitsToday")} value={stats.data.today.visits} testId="visits-today" />
              </>
            )}
            <Figure label={t("dashboard.linksInRange")} value={stats.data.days.reduce((n, d) => n + d.links, 0)} />
            <Figure label={t("dashboard.visitsInRange")} value={stats.data.days.reduce((n, d) => n + d.visits, 0)} testId="visits-range" />
          </Group>
          <DaysChart days={stats.data.days} />
          <Card withBorder>
            <Text fw={600} mb="xs">
              {t("dashboard.top")}
            </Text>
            {stats.data.top_links.length === 0 ? (
              <Empty title={t("stats.none")} />
            ) : (
              <Table>
                <Table.Tbody>
                  {stats.data.top_links.map((l) => (
                    <Table.Tr key={l.id}>
                      <Table.Td>
                        <Anchor component={RouterLink} to={`/links/${l.id}`} className="mono">
                          {l.short_url.replace(/^https?:\/\//, "")}
                        </Anchor>
                      </Table.Td>
                      <Table.Td ta="right">{formatNumber(l.visits, i18n.resolvedLanguage)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </Card>
        </>
      )}
    </Stack>
  );
}
