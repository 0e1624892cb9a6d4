// The public page of a share of a link's statistics (docs/api.md#shared-statistics): no account,
// outside the signed-in frame. It shows the link's short URL, its destination's host and its
// statistics over the ranges of the owner's page, filtered as that page is, and nothing else of
// the link.
import { Container, Group, Stack, Text, Title } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { api, ApiError, unwrap } from "../../api/client";
import { Figure } from "../../components/Figure";
import { InAppFigure } from "../../components/InAppFigure";
import { LanguagePicker } from "../../components/LanguagePicker";
import { RangePicker, useStatsRange } from "../../components/RangePicker";
import { FilterChips, useStatsFilter } from "../../components/StatsFilter";
import { ErrorState, Loading } from "../../components/states";
import { timeZone } from "../../lib/format";
import { rangeQuery } from "../../lib/statsView";
import { Breakdowns } from "../links/Breakdowns";
import { StatsCharts } from "../links/StatsCharts";

export default function SharePage() {
  const { t } = useTranslation();
  const id = useParams().id ?? "";
  const [range, setRange] = useStatsRange("30d");
  const [filter, addFilter, removeFilter] = useStatsFilter();
  const query = rangeQuery(range, timeZone());
  const stats = useQuery({
    queryKey: ["share", id, query, filter],
    queryFn: () => unwrap(api.GET("/api/v1/share/{id}/stats", { params: { path: { id }, query: { ...query, ...filter } } })),
    placeholderData: keepPreviousData,
    retry: false,
  });
  let body;
  if (stats.isPending) body = <Loading />;
  else if (stats.error instanceof ApiError && stats.error.status === 404) {
    body = (
      <Text data-testid="share-missing" mt="xl">
        {t("linkTools.sharedNotFound")}
      </Text>
    );
  } else if (stats.isError) body = <ErrorState error={stats.error} retry={() => void stats.refetch()} />;
  else {
    const s = stats.data;
    body = (
      <Stack>
        <Stack gap={4}>
          <Title order={2} className="mono break" data-testid="share-short-url">
            {t("linkTools.sharedTitle", { url: s.short_url })}
          </Title>
          <Text c="dimmed" data-testid="share-destination">
            {t("linkTools.sharedDestination", { host: s.destination_host })}
          </Text>
        </Stack>
        <RangePicker value={range} onChange={setRange} />
        <FilterChips filter={filter} onRemove={removeFilter} />
        <Group gap="md" className="figures">
          <Figure label={t("stats.visits")} value={s.visits} testId="share-visits" />
          <Figure label={t("stats.unique")} value={s.unique_visitors} />
          <Figure label={t("stats.bots")} value={s.bots} />
          <InAppFigure stats={s} filter={filter} onPick={addFilter} />
        </Group>
        <StatsCharts stats={s} />
        <Breakdowns stats={s} hasVariants={false} testId="share-breakdowns" filter={filter} onPick={addFilter} />
      </Stack>
    );
  }
  return (
    <Container size="lg" py="md" id="main" tabIndex={-1}>
      <Group justify="space-between" mb="md">
        <Text size="sm" c="dimmed">
          {t("linkTools.sharedBy")}
        </Text>
        <LanguagePicker />
      </Group>
      {body}
    </Container>
  );
}
