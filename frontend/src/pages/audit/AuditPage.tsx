// The workspace's audit log (owners and admins, plans with audit_log): who changed what and
// when, newest first, a page at a time, and the whole log as CSV.
import { Anchor, Button, Group, Stack, Table, Text, Title } from "@mantine/core";
import { IconDownload } from "@tabler/icons-react";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { api, unwrap, type Schemas } from "../../api/client";
import { DataTable } from "../../components/DataTable";
import { notifyDone, notifyFailed } from "../../components/notify";
import { UpgradeHint, usePlan } from "../../components/plan";
import { Empty, ErrorState, errorMessage, Loading } from "../../components/states";
import { actorText, detailLines, targetHref, targetText } from "../../lib/audit";
import { saveBlob } from "../../lib/download";
import { formatDateTime } from "../../lib/format";
import { useWorkspaceId } from "../../session";

type AuditEvent = Schemas["AuditEvent"];

/** Events a page. */
const pageSize = 50;

export default function AuditPage() {
  const { t } = useTranslation();
  const plan = usePlan();
  if (plan.isPending) return <Loading />;
  if (plan.isError) return <ErrorState error={plan.error} retry={() => void plan.refetch()} />;
  return (
    <Stack maw={1200}>
      <Title order={2}>{t("audit.title")}</Title>
      <Text size="sm" c="dimmed">
        {t("audit.intro")}
      </Text>
      {plan.data.features.audit_log ? <Log /> : <UpgradeHint feature="audit_log" />}
    </Stack>
  );
}

function Log() {
  const { t, i18n } = useTranslation();
  const ws = useWorkspaceId();
  const [exporting, setExporting] = useState(false);
  const log = useInfiniteQuery({
    queryKey: [ws, "audit"],
    queryFn: ({ pageParam }) =>
      unwrap(api.GET("/api/v1/workspaces/{workspace}/audit", { params: { path: { workspace: ws }, query: { cursor: pageParam || undefined, limit: pageSize } } })),
    initialPageParam: "",
    getNextPageParam: (last) => last.next_cursor || undefined,
  });
  const download = async () => {
    setExporting(true);
    try {
      const res = await api.GET("/api/v1/workspaces/{workspace}/audit.csv", { params: { path: { workspace: ws } }, parseAs: "blob" });
      if (!res.response.ok || !res.data) throw res.error ?? new Error(res.response.statusText);
      saveBlob(res.data as Blob, `audit-${ws}.csv`);
      notifyDone(t("audit.exported"));
    } catch (e) {
      notifyFailed(errorMessage(e, t("audit.exportFailed")));
    } finally {
      setExporting(false);
    }
  };
  if (log.isPending) return <Loading />;
  if (log.isError) return <ErrorState error={log.error} retry={() => void log.refetch()} />;
  const events = log.data.pages.flatMap((p) => p.events);
  return (
    <Stack>
      <Group justify="flex-end">
        <Button size="xs" variant="light" leftSection={<IconDownload size={14} />} onClick={() => void download()} loading={exporting} data-testid="audit-export">
          {t("audit.export")}
        </Button>
      </Group>
      {events.length === 0 ? (
        <Empty title={t("audit.empty")} />
      ) : (
        <DataTable head={[t("audit.at"), t("audit.actor"), t("audit.action"), t("audit.target"), t("audit.details")]} testId="audit-events" wholeTitles minWidth={900} label={t("audit.title")}>
          {/* Events never change and pages only add to the end: the position is a stable key. */}
          {events.map((e, i) => (
            <Row key={i} e={e} lang={i18n.resolvedLanguage} />
          ))}
        </DataTable>
      )}
      {log.hasNextPage && (
        <Group justify="center">
          <Button variant="default" onClick={() => void log.fetchNextPage()} loading={log.isFetchingNextPage} data-testid="audit-more">
            {t("audit.more")}
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function Row({ e, lang }: { e: AuditEvent; lang: string | undefined }) {
  const { t } = useTranslation();
  const action = `audit.actions.${e.action}`;
  const target = targetText(t, e.target, e.target_name);
  const href = targetHref(e.target_name);
  return (
    <Table.Tr data-testid="audit-event">
      <Table.Td className="nowrap">{formatDateTime(e.at, lang)}</Table.Td>
      <Table.Td className="break">{actorText(t, e.actor)}</Table.Td>
      <Table.Td>{t(action, { defaultValue: e.action })}</Table.Td>
      <Table.Td className="break" data-testid="audit-target">
        {href ? (
          <Anchor component={RouterLink} to={href} size="sm">
            {target}
          </Anchor>
        ) : (
          target
        )}
      </Table.Td>
      <Table.Td className="break">
        {detailLines(e.details, lang, t).map((line) => (
          <Text key={line} size="xs">
            {line}
          </Text>
        ))}
      </Table.Td>
    </Table.Tr>
  );
}
