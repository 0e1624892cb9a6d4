// One link: its short URL and a badge per rule, QR code downloads, visits by hour and day over
// a range (kept in the URL), breakdowns and the world map (a value clicked filters them all, the
// filters kept in the URL as chips), the CSV export, form responses, and
// its moderation state with the appeal, and its destination's health with "Check now".
import { Anchor, Badge, Button, Card, Group, Stack, Table, Text, Title } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { IconPencil } from "@tabler/icons-react";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useNavigate, useParams } from "react-router";
import { api, unwrap, type Link } from "../../api/client";
import { DomainRemovedBadge, ModerationBadge, RuleBadges, StatusBadge } from "../../components/badges";
import { ExportButton } from "../../components/ExportButton";
import { InAppFigure } from "../../components/InAppFigure";
import { RangePicker, useStatsRange } from "../../components/RangePicker";
import { FilterChips, useStatsFilter } from "../../components/StatsFilter";
import { CopyShort } from "../../components/CopyShort";
import { DataTable } from "../../components/DataTable";
import { Figure } from "../../components/Figure";
import { Empty, ErrorState, Loading, Queried } from "../../components/states";
import i18n from "../../i18n";
import { formatDateTime, timeZone } from "../../lib/format";
import { filterEntries } from "../../lib/statsFilter";
import { rangeQuery } from "../../lib/statsView";
import { useWorkspaceId } from "../../session";
import { HealthBadge, LinkHealthPanel } from "./LinkHealth";
import { Breakdowns } from "./Breakdowns";
import { LinkDestination } from "./LinkDestination";
import { ShortLabel } from "../../components/ShortLabel";
import { shortLines } from "../../lib/domains";
import { StatsCharts } from "./StatsCharts";
import { QRCard } from "./QRCard";

// The map and its shapes load only once a link's statistics are shown.
const CountryMap = lazy(() => import("../../components/CountryMap"));
// The moderation's account and the link's actions (duplicate, archive, share, delete) load
// after the page.
const ModerationState = lazy(() => import("./ModerationState").then((m) => ({ default: m.ModerationState })));
const LinkActions = lazy(() => import("./LinkActions"));

export default function LinkDetailPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const ws = useWorkspaceId();
  const [range, setRange] = useStatsRange("30d");
  const [filter, addFilter, removeFilter] = useStatsFilter();
  const query = rangeQuery(range, timeZone());
  // Set while the link is being deleted: its page reads nothing more of it.
  const [deleting, setDeleting] = useState(false);
  const link = useQuery({
    queryKey: [ws, "link", id],
    queryFn: ({ signal }) => unwrap(api.GET("/api/v1/workspaces/{workspace}/links/{id}", { params: { path: { workspace: ws, id } }, signal })),
    enabled: !deleting,
  });
  const stats = useQuery({
    queryKey: [ws, "link", id, "stats", query, filter],
    queryFn: ({ signal }) =>
      unwrap(api.GET("/api/v1/workspaces/{workspace}/links/{id}/stats", { params: { path: { workspace: ws, id }, query: { ...query, ...filter } }, signal })),
    enabled: link.isSuccess && !deleting,
    placeholderData: keepPreviousData,
    // Visits show within seconds; the page follows them while it is open. A filtered answer
    // reads the single visits, which costs the server far more: it is read again less often.
    refetchInterval: filterEntries(filter).length > 0 ? 30_000 : 2000,
  });
  if (link.isPending) return <Loading />;
  if (link.isError) return <ErrorState error={link.error} retry={() => void link.refetch()} />;
  const l = link.data;
  return (
    <Stack>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4} className="minw0">
          <Group gap="xs">
            <Title order={2} className="mono break detail-short" style={{ "--chars": shortLines(l) }} data-testid="detail-short-url">
              <ShortLabel link={l} />
            </Title>
            {l.short_url && <CopyShort url={l.short_url} />}
          </Group>
          {l.title && <Text fw={500}>{l.title}</Text>}
          <Anchor href={l.url} target="_blank" rel="noreferrer noopener" size="sm" className="break">
            {l.url}
          </Anchor>
          <LinkDestination link={l} />
          <Group gap={6}>
            <StatusBadge link={l} />
            <ModerationBadge link={l} />
            <DomainRemovedBadge link={l} />
            <HealthBadge link={l} />
            {l.archived && (
              <Badge size="sm" variant="light" color="gray" data-testid="archived-badge">
                {t("linkTools.archivedBadge")}
              </Badge>
            )}
          </Group>
          <RuleBadges link={l} />
        </Stack>
        <Group gap="xs">
          {l.status !== "banned" && (
            <Button component={RouterLink} to={`/links/${l.id}/edit`} variant="light" leftSection={<IconPencil size={16} />} data-testid="edit-link">
              {t("common.edit")}
            </Button>
          )}
          <Suspense fallback={null}>
            <LinkActions link={l} onDuplicated={(d) => void navigate(`/links/${d.id}`)} onDeleted={() => void navigate("/links")} onDeleting={setDeleting} />
          </Suspense>
        </Group>
      </Group>

      <Suspense fallback={null}>
        <ModerationState link={l} />
      </Suspense>
      <LinkHealthPanel link={l} />

      <Group justify="space-between" align="flex-end" gap="xs">
        <RangePicker value={range} onChange={setRange} />
        <ExportButton range={query} link={l.id} filter={filter} />
      </Group>
      <FilterChips filter={filter} onRemove={removeFilter} />
      <div className="two-cols">
        <Stack>
          <Queried query={stats}>
            {(data) => (
              <>
                <Group gap="md" className="figures">
                  <Figure label={t("stats.visits")} value={data.visits} testId="visits-total" />
                  <Figure label={t("stats.unique")} value={data.unique_visitors} />
                  <Figure label={t("stats.bots")} value={data.bots} />
                  <InAppFigure stats={data} filter={filter} onPick={addFilter} />
                </Group>
                <StatsCharts stats={data} />
              </>
            )}
          </Queried>
        </Stack>
        <QRCard key={l.id} link={l} />
      </div>
      {stats.data && (
        <Suspense fallback={<Loading />}>
          <CountryMap counts={stats.data.breakdowns.country} selected={filter.country} onPick={(c) => addFilter("country", c)} />
        </Suspense>
      )}
      {stats.data && <Breakdowns stats={stats.data} hasVariants={!!l.variants?.length} filter={filter} onPick={addFilter} />}
      {l.form && <Responses link={l} />}
    </Stack>
  );
}

function Responses({ link }: { link: Link }) {
  const { t } = useTranslation();
  const ws = useWorkspaceId();
  const responses = useQuery({
    queryKey: [ws, "link", link.id, "responses"],
    queryFn: () => unwrap(api.GET("/api/v1/workspaces/{workspace}/links/{id}/responses", { params: { path: { workspace: ws, id: link.id } } })),
  });
  const fields = link.form?.fields ?? [];
  return (
    <Card withBorder>
      <Text fw={600} mb="xs">
        {t("detail.responses")}
      </Text>
      <Queried query={responses}>
        {(data) =>
          data.responses.length === 0 ? (
            <Empty title={t("detail.noResponses")} />
          ) : (
            <DataTable head={[...fields.map((f) => f.label), t("detail.when")]}>
              {data.responses.map((r, i) => (
                <Table.Tr key={i}>
                  {fields.map((f) => (
                    <Table.Td key={f.name}>{r.answers[f.name] ?? ""}</Table.Td>
                  ))}
                  <Table.Td>{formatDateTime(r.created_at, i18n.resolvedLanguage)}</Table.Td>
                </Table.Tr>
              ))}
            </DataTable>
          )
        }
      </Queried>
    </Card>
  );
}
