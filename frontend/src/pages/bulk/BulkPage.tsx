// Batch creation (plan feature): pasted lines or a CSV file, sent 1,000 rows a call; each row
// gets its own result, a short URL or its error. Lines the app finds wrong are not sent: the
// good ones are created and the bad ones listed with what is wrong, to fix and send again.
import { Alert, Anchor, Badge, Button, Card, FileButton, Group, Stack, Table, Text, Textarea, Title } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { ApiError, api, unwrap, type Link, type LinkInput } from "../../api/client";
import { CopyShort } from "../../components/CopyShort";
import { DataTable } from "../../components/DataTable";
import { UpgradeHint, usePlan } from "../../components/plan";
import { ErrorState, FormError, Loading, errorMessage } from "../../components/states";
import { chunks, rowsFromCSV, rowsFromLines } from "../../lib/bulk";
import { checkAlias, checkURL, type Problem } from "../../lib/validate";
import { useWorkspaceId } from "../../session";

/** What became of one row: its link, or why it failed (checked here, or refused by the server). */
interface Outcome {
  input: LinkInput;
  link?: Link;
  /** The error in the reader's language. */
  error?: string;
  /** The API's error code, or "invalid" for a row the app did not send. */
  code?: string;
  /** The app found the row wrong and did not send it. */
  unsent?: boolean;
}

/** What is wrong with a row before it is sent, if anything. */
function checkRow(r: LinkInput): Problem | undefined {
  return checkURL(r.url) ?? (r.alias ? checkAlias(r.alias) : undefined);
}

export default function BulkPage() {
  const { t } = useTranslation();
  const ws = useWorkspaceId();
  const client = useQueryClient();
  const plan = usePlan();
  const [text, setText] = useState("");
  const [file, setFile] = useState<{ name: string; rows: LinkInput[] }>();
  const [problem, setProblem] = useState<string>();
  const [results, setResults] = useState<Outcome[]>();
  const create = useMutation({
    mutationFn: async (rows: LinkInput[]) => {
      const out: Outcome[] = rows.map((input) => {
        const p = checkRow(input);
        return p ? { input, error: t(`validation.${p.key}`, p.values), code: "invalid", unsent: true } : { input };
      });
      const good = out.filter((o) => !o.unsent);
      for (const part of chunks(good)) {
        const r = await unwrap(
          api.POST("/api/v1/workspaces/{workspace}/links/batch", { params: { path: { workspace: ws } }, body: { links: part.map((o) => o.input) } }),
        );
        r.results.forEach((result, i) => {
          const o = part[i]!;
          if (result.link) o.link = result.link;
          else if (result.error) {
            const e = result.error;
            o.code = e.code;
            o.error = errorMessage(new ApiError(400, e.code, e.message, undefined, e.reason, e.field), e.message);
          }
        });
      }
      return { out, sent: good.length };
    },
    onSuccess: ({ out, sent }) => {
      setResults(out);
      if (sent > 0) {
        void client.invalidateQueries({ queryKey: [ws, "links"] });
        void client.invalidateQueries({ queryKey: [ws, "plan"] });
      }
    },
  });
  if (plan.isPending) return <Loading />;
  if (plan.isError) return <ErrorState error={plan.error} retry={() => void plan.refetch()} />;

  const submit = () => {
    const rows = file ? file.rows : rowsFromLines(text);
    if (rows.length === 0) return setProblem(t("bulk.nothing"));
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
  const failed = results?.filter((r) => r.error).length ?? 0;
  const unsent = results?.filter((r) => r.unsent).length ?? 0;
  // The failed rows as lines to paste again: url, alias, title.
  const failedLines = () =>
    (results ?? [])
      .filter((r) => r.error)
      .map((r) => [r.input.url, r.input.alias, r.input.title].filter(Boolean).join(", "))
      .join("\n");

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
            <Anchor component={RouterLink} to="/imports" size="sm" w="fit-content">
              {t("bulk.bigFiles")}
            </Anchor>
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
          <Text fw={600} mb="xs" role="status">
            {t("bulk.results", { ok: results.length - failed, failed })}
          </Text>
          {unsent > 0 && (
            <Alert color="yellow" mb="xs" data-testid="bulk-unsent">
              <Stack gap="xs" align="flex-start">
                <Text size="sm">{t("bulk.badLines", { count: unsent })}</Text>
                {!file && (
                  <Button size="xs" variant="light" onClick={() => setText(failedLines())}>
                    {t("bulk.retryFailed")}
                  </Button>
                )}
              </Stack>
            </Alert>
          )}
          <DataTable head={["#", t("links.destination"), t("bulk.result")]}>
            {results.map(({ input, link, error, code }, i) => (
              <Table.Tr key={i} data-testid="bulk-row" data-failed={error ? true : undefined}>
                <Table.Td>{i + 1}</Table.Td>
                <Table.Td className="break">{input.url}</Table.Td>
                <Table.Td>
                  {link ? (
                    <Group gap={4} wrap="nowrap">
                      <Anchor component={RouterLink} to={`/links/${link.id}`} className="mono">
                        {link.short_url.replace(/^https?:\/\//, "")}
                      </Anchor>
                      <CopyShort url={link.short_url} />
                    </Group>
                  ) : (
                    <Group gap={4}>
                      <Badge color="red" variant="light" title={code}>
                        {t("bulk.failed")}
                      </Badge>
                      <Text size="sm" c="red" className="break" data-testid="bulk-error">
                        {error}
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
