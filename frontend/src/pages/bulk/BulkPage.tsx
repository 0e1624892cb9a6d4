// Batch creation (plan feature): pasted lines or a CSV file, sent 1,000 rows a call; each row
// gets its own result, a short URL or the server's error.
import { Alert, Anchor, Badge, Button, Card, FileButton, Group, Stack, Table, Text, Textarea, Title } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { api, unwrap, type LinkInput, type Schemas } from "../../api/client";
import { CopyShort } from "../../components/CopyShort";
import { DataTable } from "../../components/DataTable";
import { UpgradeHint, usePlan } from "../../components/plan";
import { ErrorState, FormError, Loading } from "../../components/states";
import { chunks, rowsFromCSV, rowsFromLines } from "../../lib/bulk";
import { checkURL } from "../../lib/validate";
import { useWorkspaceId } from "../../session";

type Result = Schemas["BatchResults"]["results"][number];

export default function BulkPage() {
  const { t } = useTranslation();
  const ws = useWorkspaceId();
  const client = useQueryClient();
  const plan = usePlan();
  const [text, setText] = useState("");
  const [file, setFile] = useState<{ name: string; rows: LinkInput[] }>();
  const [problem, setProblem] = useState<string>();
  const [results, setResults] = useState<{ input: LinkInput; result: Result }[]>();
  const create = useMutation({
    mutationFn: async (rows: LinkInput[]) => {
      const out: { input: LinkInput; result: Result }[] = [];
      for (const part of chunks(rows)) {
        const r = await unwrap(api.POST("/api/v1/workspaces/{workspace}/links/batch", { params: { path: { workspace: ws } }, body: { links: part } }));
        r.results.forEach((result, i) => out.push({ input: part[i]!, result }));
      }
      return out;
    },
    onSuccess: (out) => {
      setResults(out);
      void client.invalidateQueries({ queryKey: [ws, "links"] });
      void client.invalidateQueries({ queryKey: [ws, "plan"] });
    },
  });
  if (plan.isPending) return <Loading />;
  if (plan.isError) return <ErrorState error={plan.error} retry={() => void plan.refetch()} />;

  const submit = () => {
    const rows = file ? file.rows : rowsFromLines(text);
    if (rows.length === 0) return setProblem(t("bulk.nothing"));
    const bad = rows.findIndex((r) => checkURL(r.url));
    if (bad >= 0) return setProblem(t("bulk.badRow", { row: bad + 1, url: rows[bad]!.url }));
    setProblem(undefined);
    setResults(undefined);
    create.mutate(rows);
  };
  const onFile = async (f: File | null) => {
    if (!f) return;
    const { rows, error } = rowsFromCSV(await f.text());
    if (error) {
      setProblem(t("bulk.noUrlColumn"));
      setFile(undefined);
      return;
    }
    setProblem(undefined);
    setFile({ name: f.name, rows });
  };
  const failed = results?.filter((r) => r.result.error).length ?? 0;

  return (
    <Stack maw={960}>
      <Title order={2}>{t("bulk.title")}</Title>
      {!plan.data.features.batch ? (
        <UpgradeHint feature="batch" />
      ) : (
        <Card withBorder>
          <Stack gap="sm">
            <Textarea
              label={t("bulk.paste")}
              description={t("bulk.pasteHelp")}
              autosize
              minRows={5}
              maxRows={16}
              value={text}
              disabled={!!file}
              onChange={(e) => setText(e.currentTarget.value)}
              placeholder={"https://example.com/one\nhttps://example.com/two, spring-sale, Spring sale"}
              data-testid="bulk-text"
            />
            <Group gap="xs">
              <FileButton onChange={(f) => void onFile(f)} accept=".csv,text/csv">
                {(props) => (
                  <Button variant="default" size="xs" {...props}>
                    {t("bulk.upload")}
                  </Button>
                )}
              </FileButton>
              {file && (
                <>
                  <Text size="sm">{t("bulk.file", { name: file.name, count: file.rows.length })}</Text>
                  <Button size="xs" variant="subtle" onClick={() => setFile(undefined)}>
                    {t("common.remove")}
                  </Button>
                </>
              )}
            </Group>
            <Text size="xs" c="dimmed">
              {t("bulk.csvHelp")}
            </Text>
            {problem && <Alert color="red">{problem}</Alert>}
            <FormError error={create.error} />
            <Button w="fit-content" onClick={submit} loading={create.isPending} data-testid="bulk-create">
              {t("bulk.create")}
            </Button>
          </Stack>
        </Card>
      )}
      {results && (
        <Card withBorder data-testid="bulk-results">
          <Text fw={600} mb="xs">
            {t("bulk.results", { ok: results.length - failed, failed })}
          </Text>
          <DataTable head={["#", t("links.destination"), t("bulk.result")]}>
            {results.map(({ input, result }, i) => (
              <Table.Tr key={i} data-testid="bulk-row">
                <Table.Td>{i + 1}</Table.Td>
                <Table.Td className="break">{input.url}</Table.Td>
                <Table.Td>
                  {result.link ? (
                    <Group gap={4} wrap="nowrap">
                      <Anchor component={RouterLink} to={`/links/${result.link.id}`} className="mono">
                        {result.link.short_url.replace(/^https?:\/\//, "")}
                      </Anchor>
                      <CopyShort url={result.link.short_url} />
                    </Group>
                  ) : (
                    <Group gap={4}>
                      <Badge color="red" variant="light">
                        {result.error?.code}
                      </Badge>
                      <Text size="sm" c="red" className="break">
                        {result.error?.message}
                      </Text>
                    </Group>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </DataTable>
        </Card>
      )}
    </Stack>
  );
}
