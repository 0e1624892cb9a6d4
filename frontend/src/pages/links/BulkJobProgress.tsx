// A bulk job's progress on the links list: asked again every second while it runs, a bar of
// the links handled, and a toast and a fresh list once it has ended (docs/api.md#bulk-jobs).
import { Alert, Button, Group, Progress, Stack, Text } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "../../api/client";
import { notifyDone } from "../../components/notify";
import { FormError } from "../../components/states";
import { jobActive, jobPercent, jobPoll } from "../../lib/bulkJobs";
import { formatNumber } from "../../lib/format";
import { useWorkspaceId } from "../../session";

export function BulkJobProgress({ id, onClose }: { id: number; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const ws = useWorkspaceId();
  const client = useQueryClient();
  const job = useQuery({
    queryKey: [ws, "bulk-jobs", id],
    queryFn: () => unwrap(api.GET("/api/v1/workspaces/{workspace}/links/bulk-jobs/{id}", { params: { path: { workspace: ws, id } } })),
    refetchInterval: (query) => (!query.state.data || jobActive(query.state.data) ? jobPoll : false),
  });
  const cancel = useMutation({
    mutationFn: () => unwrap(api.POST("/api/v1/workspaces/{workspace}/links/bulk-jobs/{id}/cancel", { params: { path: { workspace: ws, id } } })),
    onSettled: () => void client.invalidateQueries({ queryKey: [ws, "bulk-jobs", id] }),
  });
  const j = job.data;
  const ended = j !== undefined && !jobActive(j);
  useEffect(() => {
    if (!ended || !j) return;
    if (j.state === "done") notifyDone(t("bulkJobs.finished", { count: j.changed, n: formatNumber(j.changed, i18n.resolvedLanguage) }));
    void client.invalidateQueries({ queryKey: [ws, "links"] });
    void client.invalidateQueries({ queryKey: [ws, "tags"] });
  }, [ended]); // eslint-disable-line react-hooks/exhaustive-deps -- once, when the job ends
  if (!j) return <FormError error={job.error} />;
  const n = (v: number) => formatNumber(v, i18n.resolvedLanguage);
  return (
    <Alert color={j.state === "failed" ? "red" : j.state === "done" ? "teal" : "blue"} data-testid="bulk-job" withCloseButton={ended} closeButtonLabel={t("common.closeNotice")} onClose={onClose}>
      <Stack gap={6}>
        <Group justify="space-between">
          <Text size="sm" data-testid="bulk-job-state">
            {t(`bulkJobs.state.${j.state}`)} · {j.state === "queued" ? t("bulkJobs.counting") : t("bulkJobs.progress", { done: n(j.done), total: n(j.total) })}
            {j.failed > 0 && ` · ${t("bulkJobs.failed", { count: j.failed, n: n(j.failed) })}`}
          </Text>
          {!ended && (
            <Button size="compact-xs" variant="subtle" onClick={() => cancel.mutate()} loading={cancel.isPending} disabled={j.cancel_requested} data-testid="bulk-job-cancel">
              {t("bulkJobs.cancel")}
            </Button>
          )}
        </Group>
        <Progress value={jobPercent(j)} animated={!ended} aria-label={t("bulkJobs.progressLabel")} data-testid="bulk-job-bar" />
        {j.error && <Text size="sm">{j.error}</Text>}
        <FormError error={cancel.error} />
      </Stack>
    </Alert>
  );
}
