// One link: its short URL and a badge per rule, QR code downloads, visits by hour and day over
// a range (kept in the URL), breakdowns and the world map (a value clicked filters them all, the
// filters kept in the URL as chips), the CSV export, form responses, and
// its moderation state with the appeal, and its destination's health with "Check now".
import { Anchor, Badge, Button, Card, Group, Image, NativeSelect, Stack, Switch, Table, Text, TextInput, Title } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { IconDownload, IconPencil } from "@tabler/icons-react";
import { lazy, Suspense, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useNavigate, useParams } from "react-router";
import { api, unwrap, type Link } from "../../api/client";
import { DomainRemovedBadge, ModerationBadge, RuleBadges, StatusBadge } from "../../components/badges";
import { ExportButton } from "../../components/ExportButton";
import { InAppFigure } from "../../components/InAppFigure";
import { loadQRStyle, saveQRStyle, type QRLevel } from "../../lib/qrStyle";
import { RangePicker, useStatsRange } from "../../components/RangePicker";
import { FilterChips, useStatsFilter } from "../../components/StatsFilter";
import { CopyShort } from "../../components/CopyShort";
import { DataTable } from "../../components/DataTable";
import { Figure } from "../../components/Figure";
import { Empty, ErrorState, FormError, Loading, Queried } from "../../components/states";
import i18n from "../../i18n";
import { formatDateTime, qrFileName, timeZone } from "../../lib/format";
import { filterEntries } from "../../lib/statsFilter";
import { rangeQuery } from "../../lib/statsView";
import { useWorkspaceId } from "../../session";
import { HealthBadge, LinkHealthPanel } from "./LinkHealth";
import { Breakdowns } from "./Breakdowns";
import { LinkDestination } from "./LinkDestination";
import { ShortLabel } from "../../components/ShortLabel";
import { StatsCharts } from "./StatsCharts";
import { saveBlob } from "../../lib/download";

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
  const link = useQuery({
    queryKey: [ws, "link", id],
    queryFn: () => unwrap(api.GET("/api/v1/workspaces/{workspace}/links/{id}", { params: { path: { workspace: ws, id } } })),
  });
  const stats = useQuery({
    queryKey: [ws, "link", id, "stats", query, filter],
    queryFn: () =>
      unwrap(api.GET("/api/v1/workspaces/{workspace}/links/{id}/stats", { params: { path: { workspace: ws, id }, query: { ...query, ...filter } } })),
    enabled: link.isSuccess,
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
            <Title order={2} className="mono break" data-testid="detail-short-url">
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
            <LinkActions link={l} onDuplicated={(d) => void navigate(`/links/${d.id}`)} onDeleted={() => void navigate("/links")} />
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
        <QRCard link={l} />
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

function QRCard({ link }: { link: Link }) {
  const { t } = useTranslation();
  const ws = useWorkspaceId();
  const [error, setError] = useState<unknown>();
  // The colours, level and logo switch this link's page last drew (lib/qrStyle), kept on change.
  const [kept] = useState(() => loadQRStyle(ws, link.id));
  const [fg, setFg] = useState(kept.fg);
  const [bg, setBg] = useState(kept.bg);
  const [ec, setEc] = useState<QRLevel>(kept.ec);
  const [logo, setLogo] = useState(kept.logo);
  const [broken, setBroken] = useState(false);
  useEffect(() => saveQRStyle(ws, link.id, { fg, bg, ec, logo }), [ws, link.id, fg, bg, ec, logo]);
  // A logo always draws at level H (the server's rule): the level chosen is kept for without it.
  const style = { fg: fg.slice(1), bg: bg.slice(1), ...(ec && !logo ? { ec } : {}), ...(logo ? { logo: "1" as const } : {}) };
  const src = `/api/v1/workspaces/${ws}/links/${link.id}/qr?${new URLSearchParams({ format: "svg", size: "240", ...style })}`;
  const download = async (format: "png" | "svg") => {
    setError(undefined);
    try {
      const res = await api.GET("/api/v1/workspaces/{workspace}/links/{id}/qr", {
        params: { path: { workspace: ws, id: link.id }, query: { format, size: 1024, ...style } },
        parseAs: "blob",
      });
      if (!res.response.ok || !res.data) {
        const body = (await (res.error as Blob | undefined)?.text?.().catch(() => "")) ?? "";
        let reason = "";
        try {
          reason = (JSON.parse(body) as { error?: { reason?: string } }).error?.reason ?? "";
        } catch {
          /* not JSON */
        }
        throw new Error(reason && i18n.exists(`errors.${reason}`) ? t(`errors.${reason}`) : res.response.statusText);
      }
      saveBlob(res.data as Blob, qrFileName(link.code, format));
    } catch (e) {
      setError(e);
    }
  };
  return (
    <Card withBorder className="qr-card">
      <Stack align="center" gap="sm">
        <Text fw={600}>{t("detail.qr")}</Text>
        {broken ? (
          <Text size="sm" c="red" w={180} data-testid="qr-broken">
            {t("qrStyle.cannotDraw")}
          </Text>
        ) : (
          <Image src={src} alt={t("detail.qrAlt", { url: link.short_url })} w={180} h={180} data-testid="qr-image" onError={() => setBroken(true)} />
        )}
        <Group gap="xs" wrap="nowrap">
          <TextInput type="color" size="xs" w={70} label={t("qrStyle.fg")} value={fg} onChange={(e) => { setFg(e.currentTarget.value); setBroken(false); }} />
          <TextInput type="color" size="xs" w={70} label={t("qrStyle.bg")} value={bg} onChange={(e) => { setBg(e.currentTarget.value); setBroken(false); }} />
          <NativeSelect
            size="xs"
            label={t("qrStyle.ec")}
            value={logo ? "H" : ec}
            disabled={logo}
            onChange={(e) => { setEc(e.currentTarget.value as typeof ec); setBroken(false); }}
            data={[{ value: "", label: t("qrStyle.ecAuto") }, "L", "M", "Q", "H"]}
          />
        </Group>
        <Switch size="xs" label={t("qrStyle.logo")} checked={logo} onChange={(e) => { setLogo(e.currentTarget.checked); setBroken(false); }} />
        {logo && (
          <Text size="xs" c="dimmed" maw={240} ta="center" data-testid="qr-logo-level">
            {t("qrStyle.logoLevel")}
          </Text>
        )}
        <Group gap="xs">
          <Button size="xs" variant="light" leftSection={<IconDownload size={14} />} onClick={() => void download("png")} data-testid="qr-png">
            PNG
          </Button>
          <Button size="xs" variant="light" leftSection={<IconDownload size={14} />} onClick={() => void download("svg")} data-testid="qr-svg">
            SVG
          </Button>
        </Group>
        <FormError error={error} />
      </Stack>
    </Card>
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
