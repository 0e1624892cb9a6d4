// One link: its short URL and rules, QR code downloads, visits by hour and day, breakdowns,
// form responses, and its moderation state with the appeal.
import { Anchor, Badge, Button, Card, Group, Image, Progress, Stack, Table, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { IconDownload, IconPencil } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useParams } from "react-router";
import { api, unwrap, type Link, type LinkStats } from "../../api/client";
import { DomainRemovedBadge, ModerationBadge, StatusBadge } from "../../components/badges";
import { shortLabel } from "../../lib/domains";
import { CopyShort } from "../../components/CopyShort";
import { DataTable } from "../../components/DataTable";
import { Figure } from "../../components/Figure";
import { Empty, ErrorState, FormError, Loading, Queried } from "../../components/states";
import i18n from "../../i18n";
import { formatDateTime, qrFileName, ranked, timeZone } from "../../lib/format";
import { useWorkspaceId } from "../../session";
import { ModerationState } from "./ModerationState";
import { StatsCharts } from "./StatsCharts";

export default function LinkDetailPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const ws = useWorkspaceId();
  const link = useQuery({
    queryKey: [ws, "link", id],
    queryFn: () => unwrap(api.GET("/api/v1/workspaces/{workspace}/links/{id}", { params: { path: { workspace: ws, id } } })),
  });
  const stats = useQuery({
    queryKey: [ws, "link", id, "stats"],
    queryFn: () =>
      unwrap(api.GET("/api/v1/workspaces/{workspace}/links/{id}/stats", { params: { path: { workspace: ws, id }, query: { tz: timeZone() } } })),
    enabled: link.isSuccess,
    // Visits show within seconds; the page follows them while it is open.
    refetchInterval: 2000,
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
              {shortLabel(l)}
            </Title>
            {l.short_url && <CopyShort url={l.short_url} />}
          </Group>
          {l.title && <Text fw={500}>{l.title}</Text>}
          <Anchor href={l.url} target="_blank" rel="noreferrer noopener" size="sm" className="break">
            {l.url}
          </Anchor>
          <Group gap={6}>
            <StatusBadge link={l} />
            <ModerationBadge link={l} />
            <DomainRemovedBadge link={l} />
            {l.has_password && <Badge variant="outline">{t("detail.password")}</Badge>}
            {l.variants && <Badge variant="outline">{t("detail.variants", { count: l.variants.length })}</Badge>}
            {l.max_visits != null && <Badge variant="outline">{t("detail.maxVisits", { count: l.max_visits })}</Badge>}
            {l.expires_at && <Badge variant="outline">{t("detail.expires", { date: formatDateTime(l.expires_at, i18n.resolvedLanguage) })}</Badge>}
          </Group>
        </Stack>
        {l.status !== "banned" && (
          <Button component={RouterLink} to={`/links/${l.id}/edit`} variant="light" leftSection={<IconPencil size={16} />} data-testid="edit-link">
            {t("common.edit")}
          </Button>
        )}
      </Group>

      <ModerationState link={l} />

      <div className="two-cols">
        <Stack>
          <Queried query={stats}>
            {(data) => (
              <>
                <Group gap="md" className="figures">
                  <Figure label={t("stats.visits")} value={data.visits} testId="visits-total" />
                  <Figure label={t("stats.unique")} value={data.unique_visitors} />
                  <Figure label={t("stats.bots")} value={data.bots} />
                </Group>
                <StatsCharts stats={data} />
              </>
            )}
          </Queried>
        </Stack>
        <QRCard link={l} />
      </div>
      {stats.data && <Breakdowns stats={stats.data} />}
      {l.form && <Responses link={l} />}
    </Stack>
  );
}

function QRCard({ link }: { link: Link }) {
  const { t } = useTranslation();
  const ws = useWorkspaceId();
  const [error, setError] = useState<unknown>();
  const src = `/api/v1/workspaces/${ws}/links/${link.id}/qr?format=svg&size=240`;
  const download = async (format: "png" | "svg") => {
    setError(undefined);
    try {
      const res = await api.GET("/api/v1/workspaces/{workspace}/links/{id}/qr", {
        params: { path: { workspace: ws, id: link.id }, query: { format, size: 1024 } },
        parseAs: "blob",
      });
      if (!res.response.ok || !res.data) throw new Error(res.response.statusText);
      const url = URL.createObjectURL(res.data as Blob);
      const a = document.createElement("a");
      a.href = url;
      a.download = qrFileName(link.code, format);
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (e) {
      setError(e);
    }
  };
  return (
    <Card withBorder className="qr-card">
      <Stack align="center" gap="sm">
        <Text fw={600}>{t("detail.qr")}</Text>
        <Image src={src} alt={t("detail.qrAlt", { url: link.short_url })} w={180} h={180} data-testid="qr-image" />
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

const breakdownNames = ["country", "device", "os", "browser", "referrer", "variant"] as const;

function Breakdowns({ stats }: { stats: LinkStats }) {
  const { t } = useTranslation();
  return (
    <div className="cards-grid" data-testid="breakdowns">
      {breakdownNames.map((name) => {
        const rows = ranked(stats.breakdowns[name]);
        return (
          <Card withBorder key={name} padding="sm">
            <Text fw={600} mb="xs">
              {t(`stats.by.${name}`)}
            </Text>
            {rows.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t("stats.none")}
              </Text>
            ) : (
              <Table verticalSpacing={4}>
                <Table.Tbody>
                  {rows.map((r) => (
                    <Table.Tr key={r.key}>
                      <Table.Td className="break">
                        <Text size="sm">{name === "device" ? t(`stats.devices.${r.key}`, { defaultValue: r.key }) : r.key || t("stats.direct")}</Text>
                        <Progress value={r.percent} size="xs" mt={2} aria-hidden />
                      </Table.Td>
                      <Table.Td ta="right" w={60}>
                        <Text size="sm">{r.visits}</Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </Card>
        );
      })}
    </div>
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
