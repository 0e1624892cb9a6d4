// Downloads the visits of a range as CSV (the plan's export feature), or says which plans have it.
import { Button, Tooltip } from "@mantine/core";
import { IconDownload, IconLock } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { api } from "../api/client";
import { plansWith } from "../lib/plans";
import type { RangeQuery } from "../lib/statsView";
import { useWorkspaceId } from "../session";
import { notifyDone, notifyFailed } from "./notify";
import { usePlan, usePlans } from "./plan";
import { errorMessage } from "./states";
import { saveBlob } from "../lib/download";

/** The file name a Content-Disposition header gives, fallback without one. */
function fileName(disposition: string | null, fallback: string): string {
  const m = disposition?.match(/filename="?([^";]+)"?/);
  return m?.[1] ?? fallback;
}

export function ExportButton({ range, link, tag }: { range: RangeQuery; link?: number; tag?: string }) {
  const { t } = useTranslation();
  const ws = useWorkspaceId();
  const plan = usePlan();
  const offers = usePlans();
  const [busy, setBusy] = useState(false);
  if (!plan.data) return null;
  if (!plan.data.features.export) {
    const plans = plansWith(offers.data?.plans ?? [], "export").map((p) => t(`plan.names.${p}`));
    return (
      <Tooltip label={t("plan.hint", { feature: t("plan.features.export"), plans: plans.join(" / ") })} withArrow multiline w={260}>
        <Button component={RouterLink} to="/plan" size="xs" variant="subtle" color="gray" leftSection={<IconLock size={14} />} data-testid="export-locked">
          {t("stats.exportLocked")}
        </Button>
      </Tooltip>
    );
  }
  const download = async () => {
    setBusy(true);
    try {
      const res = await api.GET("/api/v1/workspaces/{workspace}/visits/export.csv", {
        params: { path: { workspace: ws }, query: { ...range, link, tag: tag || undefined } },
        parseAs: "blob",
      });
      if (!res.response.ok || !res.data) throw res.error ?? new Error(res.response.statusText);
      saveBlob(res.data as Blob, fileName(res.response.headers.get("Content-Disposition"), "visits.csv"));
      notifyDone(t("stats.exported"));
    } catch (e) {
      notifyFailed(errorMessage(e, t("stats.exportFailed")));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button size="xs" variant="light" leftSection={<IconDownload size={14} />} onClick={() => void download()} loading={busy} data-testid="export-csv">
      {t("stats.export")}
    </Button>
  );
}
