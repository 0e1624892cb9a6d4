// CSV imports (plan feature batch): upload a file of up to IMPORT_MAX_ROWS rows (ours, Bitly's
// or Shlink's export) by choosing or dropping it; the job runs on the server, this page follows
// its progress (made and failed rows in two colours), why each failed row failed, and the
// per-row results file once it has finished.
import { Anchor, Badge, Button, Card, FileButton, Group, Stack, Text, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { IconFileTypeCsv } from "@tabler/icons-react";
import { useEffect, useRef, useState, type DragEvent } from "react";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "../../api/client";
import { notifyDone } from "../../components/notify";
import { UpgradeHint, usePlan } from "../../components/plan";
import { Empty, ErrorState, FormError, Loading } from "../../components/states";
import { formatBytes, importActive, importFinished, type Import } from "../../lib/imports";
import { ImportBar, ImportFailures } from "./ImportFailures";
import { current, firstPage, next, pageNumber, previous } from "../../lib/pages";
import { useSession, useWorkspaceId } from "../../session";
import { saveBlob } from "../../lib/download";

const stateColor = { queued: "gray", running: "blue", done: "green", failed: "red" } as const;

export default function ImportsPage() {
  const { t, i18n } = useTranslation();
  const ws = useWorkspaceId();
  const client = useQueryClient();
  const plan = usePlan();
  const viewer = useSession().workspace.role === "viewer";
  const [pages, setPages] = useState(firstPage);
  const list = useQuery({
    queryKey: [ws, "imports", current(pages)],
    queryFn: () => unwrap(api.GET("/api/v1/workspaces/{workspace}/imports", { params: { path: { workspace: ws }, query: { cursor: current(pages) || undefined } } })),
  });
  const [file, setFile] = useState<File>();
  const [problem, setProblem] = useState<string>();
  const [over, setOver] = useState(false);
  const upload = useMutation({
    mutationFn: (f: File) => {
      const body = new FormData();
      body.append("file", f, f.name);
      return unwrap(api.POST("/api/v1/workspaces/{workspace}/imports", { params: { path: { workspace: ws } }, body: body as unknown as { file: string } }));
    },
    onSuccess: (im) => {
      setFile(undefined);
      setPages(firstPage);
      notifyDone(t("imports.started", { name: im.filename || `#${im.id}` }));
      void client.invalidateQueries({ queryKey: [ws, "imports"] });
    },
  });
  if (plan.isPending || list.isPending) return <Loading />;
  if (plan.isError) return <ErrorState error={plan.error} retry={() => void plan.refetch()} />;
  if (list.isError) return <ErrorState error={list.error} retry={() => void list.refetch()} />;
  const { max_bytes: maxBytes, max_rows: maxRows } = list.data;
  const lang = i18n.resolvedLanguage;

  const choose = (f: File | null | undefined) => {
    upload.reset();
    if (!f) return;
    if (f.size > maxBytes) {
      setFile(undefined);
      setProblem(t("imports.tooLarge", { name: f.name, max: formatBytes(maxBytes, lang) }));
      return;
    }
    if (f.size === 0) {
      setFile(undefined);
      setProblem(t("imports.empty", { name: f.name }));
      return;
    }
    setProblem(undefined);
    setFile(f);
  };
  const drop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    choose(e.dataTransfer.files[0]);
  };

  return (
    <Stack maw={960}>
      <Title order={2}>{t("imports.title")}</Title>
      {!plan.data.features.batch ? (
        <UpgradeHint feature="batch" />
      ) : viewer ? (
        <Text c="dimmed">{t("imports.viewer")}</Text>
      ) : (
        <Card withBorder component="section" aria-labelledby="import-upload">
          <Stack gap="sm">
            <Text fw={600} id="import-upload">
              {t("imports.upload")}
            </Text>
            <div
              className="dropzone"
              data-over={over || undefined}
              data-testid="import-dropzone"
              onDragOver={(e) => {
                e.preventDefault();
                setOver(true);
              }}
              onDragLeave={() => setOver(false)}
              onDrop={drop}
            >
              <Stack align="center" gap="xs">
                <IconFileTypeCsv size={32} stroke={1.4} aria-hidden />
                <Text size="sm">{t("imports.drop")}</Text>
                <FileButton onChange={choose} accept=".csv,.tsv,.txt,text/csv,text/plain">
                  {(props) => (
                    <Button variant="default" {...props}>
                      {t("imports.choose")}
                    </Button>
                  )}
                </FileButton>
                <Text size="xs" c="dimmed" data-testid="import-limit">
                  {t("imports.limit", { size: formatBytes(maxBytes, lang), rows: new Intl.NumberFormat(lang).format(maxRows) })}
                </Text>
              </Stack>
            </div>
            <Text size="xs" c="dimmed">
              {t("imports.columns")}
            </Text>
            {problem && (
              <Text size="sm" c="red" role="alert">
                {problem}
              </Text>
            )}
            {file && (
              <Group gap="sm">
                <Text size="sm" data-testid="import-file">
                  {t("imports.file", { name: file.name, size: formatBytes(file.size, lang) })}
                </Text>
                <Button onClick={() => upload.mutate(file)} loading={upload.isPending}>
                  {t("imports.start")}
                </Button>
                <Button variant="subtle" onClick={() => setFile(undefined)} disabled={upload.isPending}>
                  {t("common.remove")}
                </Button>
              </Group>
            )}
            <FormError error={upload.error} />
          </Stack>
        </Card>
      )}
      <section aria-labelledby="import-list">
        <Title order={3} size="h4" id="import-list" mb="xs">
          {t("imports.past")}
        </Title>
        {list.data.imports.length === 0 ? (
          <Empty title={t("imports.none")} />
        ) : (
          <Stack gap="sm">
            {list.data.imports.map((im) => (
              <ImportCard key={im.id} initial={im} />
            ))}
          </Stack>
        )}
        {(pageNumber(pages) > 1 || list.data.next_cursor) && (
          <Group justify="flex-end" mt="sm">
            <Button variant="default" size="xs" disabled={pageNumber(pages) === 1} onClick={() => setPages(previous(pages))}>
              {t("common.previous")}
            </Button>
            <Button variant="default" size="xs" disabled={!list.data.next_cursor} onClick={() => setPages(next(pages, list.data.next_cursor))}>
              {t("common.next")}
            </Button>
          </Group>
        )}
      </section>
    </Stack>
  );
}

/** One import: its state and progress, asked again each second while it runs. */
function ImportCard({ initial }: { initial: Import }) {
  const { t, i18n } = useTranslation();
  const ws = useWorkspaceId();
  const client = useQueryClient();
  const q = useQuery({
    queryKey: [ws, "import", initial.id],
    queryFn: () => unwrap(api.GET("/api/v1/workspaces/{workspace}/imports/{id}", { params: { path: { workspace: ws, id: initial.id } } })),
    initialData: initial,
    enabled: importActive(initial),
    refetchInterval: (query) => (query.state.data && importActive(query.state.data) ? 1000 : false),
  });
  const im = q.data;
  const name = im.filename || t("imports.unnamed", { id: im.id });
  const lang = i18n.resolvedLanguage;
  const number = new Intl.NumberFormat(lang);
  // Say when a job this page watched has finished, and refresh what it changed.
  const was = useRef(im.state);
  useEffect(() => {
    if (importActive({ state: was.current }) && importFinished(im)) {
      notifyDone(t("imports.finished", { name, created: number.format(im.created), failed: number.format(im.failed) }));
      void client.invalidateQueries({ queryKey: [ws, "imports"] });
      void client.invalidateQueries({ queryKey: [ws, "links"] });
      void client.invalidateQueries({ queryKey: [ws, "plan"] });
    }
    was.current = im.state;
  });
  const [error, setError] = useState<unknown>();
  const download = async () => {
    setError(undefined);
    try {
      const res = await api.GET("/api/v1/workspaces/{workspace}/imports/{id}/results.csv", { params: { path: { workspace: ws, id: im.id } }, parseAs: "blob" });
      if (!res.response.ok || !res.data) throw new Error(res.response.statusText);
      saveBlob(res.data as Blob, `import-${im.id}-results.csv`);
    } catch (e) {
      setError(e);
    }
  };
  const counts = t("imports.counts", { done: number.format(im.done), rows: number.format(im.rows), created: number.format(im.created), failed: number.format(im.failed) });
  return (
    <Card withBorder component="article" aria-label={name} data-testid="import" data-state={im.state}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text fw={600} className="break">
            {name}
          </Text>
          <Group gap="xs">
            <Badge variant="light" color="gray">
              {t(`imports.formats.${im.format}`)}
            </Badge>
            <Badge color={stateColor[im.state]} data-testid="import-state">
              {t(`imports.states.${im.state}`)}
            </Badge>
          </Group>
        </Group>
        <Text size="xs" c="dimmed">
          {t("imports.uploaded", { date: new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" }).format(new Date(im.created_at)), size: formatBytes(im.bytes, lang) })}
        </Text>
        <ImportBar im={im} name={name} />
        <Text size="sm" data-testid="import-counts">
          {counts}
        </Text>
        {im.failed > 0 && <ImportFailures im={im} />}
        {im.error && (
          <Text size="sm" c="red">
            {im.error}
          </Text>
        )}
        {importFinished(im) && (
          <Anchor
            href={im.results_url}
            download={`import-${im.id}-results.csv`}
            onClick={(e) => {
              e.preventDefault();
              void download();
            }}
            size="sm"
            w="fit-content"
          >
            {t("imports.download")}
          </Anchor>
        )}
        <FormError error={error} />
      </Stack>
    </Card>
  );
}
