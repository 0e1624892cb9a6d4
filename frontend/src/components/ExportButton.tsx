// Downloads CSV exports (the plan's export feature), or says which plans have it: a range's
// visits (with a link's statistics filters on its page) and the links list as filtered.
import { Button, Tooltip } from "@mantine/core";
import { IconDownload, IconLock } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { api } from "../api/client";
import { plansWith } from "../lib/plans";
import type { StatsFilter } from "../lib/statsFilter";
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

/** An export's answer as openapi-fetch gives it with parseAs "blob". */
type FileAnswer = { data?: unknown; error?: unknown; response: Response };

/** "Export CSV" downloading what fetchFile answers or, without the feature, the same words with a
 * lock leading to the plans that have it (the tooltip names them): one label for one action. */
function CSVExport({ fetchFile, fallbackName, done, testId }: { fetchFile: () => Promise<FileAnswer>; fallbackName: string; done: string; testId: string }) {
  const { t } = useTranslation();
  const plan = usePlan();
  const offers = usePlans();
  const [busy, setBusy] = useState(false);
  if (!plan.data) return null;
  if (!plan.data.features.export) {
    const plans = plansWith(offers.data?.plans ?? [], "export").map((p) => t(`plan.names.${p}`));
    return (
      <Tooltip label={t("plan.hint", { feature: t("plan.features.export"), plans: plans.join(" / ") })} withArrow multiline w={260}>
        <Button component={RouterLink} to="/plan" size="xs" variant="subtle" color="gray" leftSection={<IconLock size={14} />} data-testid="export-locked">
          {t("stats.export")}
        </Button>
      </Tooltip>
    );
  }
  const download = async () => {
    setBusy(true);
    try {
      const res = await fetchFile();
      if (!res.response.ok || !res.data) throw res.error ?? new Error(res.response.statusText);
      saveBlob(res.data as Blob, fileName(res.response.headers.get("Content-Disposition"), fallbackName));
      notifyDone(done);
    } catch (e) {
      notifyFailed(errorMessage(e, t("stats.exportFailed")));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button size="xs" variant="light" leftSection={<IconDownload size={14} />} onClick={() => void download()} loading={busy} data-testid={testId}>
      {t("stats.export")}
    </Button>
  );
}

/** The visits of a range, of one link (narrowed by its statistics' filters) or of a tag's links. */
export function ExportButton({ range, link, tag, filter }: { range: RangeQuery; link?: number; tag?: string; filter?: StatsFilter }) {
  const { t } = useTranslation();
  const ws = useWorkspaceId();
  return (
    <CSVExport
      fetchFile={() =>
        api.GET("/api/v1/workspaces/{workspace}/visits/export.csv", {
          params: { path: { workspace: ws }, query: { ...range, link, tag: tag || undefined, ...(link ? filter : {}) } },
          parseAs: "blob",
        })
      }
      fallbackName="visits.csv"
      done={t("stats.exported")}
      testId="export-csv"
    />
  );
}

/** The list's filters as the links export takes them (GET …/links/export.csv). */
export interface LinksExportFilter {
  q?: string;
  status?: "active" | "disabled" | "banned" | "held" | "expired";
  domain?: string;
  tag?: string[];
  health?: "ok" | "broken";
  archived: "false" | "true" | "all";
}

/** The links the list shows with its filters, with their totals. */
export function LinksExportButton({ filter }: { filter: LinksExportFilter }) {
  const { t } = useTranslation();
  const ws = useWorkspaceId();
  return (
    <CSVExport
      fetchFile={() =>
        api.GET("/api/v1/workspaces/{workspace}/links/export.csv", { params: { path: { workspace: ws }, query: filter }, parseAs: "blob" })
      }
      fallbackName="links.csv"
      done={t("stats.exportedLinks")}
      testId="links-export-csv"
    />
  );
}
