// An import's progress in two colours (the links made, the rows failed) and why each failed row
// failed, in the reader's language, a page at a time (docs/domains-and-imports.md#csv-imports).
import { Button, Progress, Stack, Table, Text } from "@mantine/core";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "../../api/client";
import { ErrorState, reasonMessage } from "../../components/states";
import { formatNumber } from "../../lib/format";
import type { Import } from "../../lib/imports";
import { useWorkspaceId } from "../../session";

const share = (n: number, rows: number) => (rows > 0 ? Math.min(100, (n / rows) * 100) : 0);

/** The job's progress: the links made in the success colour, the failed rows in red beside them;
 * a job that could not go on is red whole. */
export function ImportBar({ im, name }: { im: Import; name: string }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.resolvedLanguage;
  if (im.state === "failed" && im.done === 0) {
    return <Progress value={100} color="red" aria-label={t("imports.progressOf", { name })} data-testid="import-bar" />;
  }
  return (
    <Progress.Root role="group" aria-label={t("imports.progressOf", { name })} data-testid="import-bar">
      <Progress.Section value={share(im.created, im.rows)} color="green" aria-label={t("imports.madeOf", { n: formatNumber(im.created, lang) })} data-testid="import-bar-made" />
      <Progress.Section value={share(im.failed, im.rows)} color="red" aria-label={t("imports.failedOf", { n: formatNumber(im.failed, lang) })} data-testid="import-bar-failed" />
    </Progress.Root>
  );
}

/** The failed rows so far: row number, the URL as given and the reason. */
export function ImportFailures({ im }: { im: Import }) {
  const { t, i18n } = useTranslation();
  const ws = useWorkspaceId();
  const lang = i18n.resolvedLanguage;
  const pages = useInfiniteQuery({
    queryKey: [ws, "import-failures", im.id, im.failed],
    queryFn: ({ pageParam }) =>
      unwrap(api.GET("/api/v1/workspaces/{workspace}/imports/{id}/failures", { params: { path: { workspace: ws, id: im.id }, query: { limit: 20, cursor: pageParam || undefined } } })),
    initialPageParam: "",
    getNextPageParam: (last) => last.next_cursor || undefined,
  });
  if (pages.isError) return <ErrorState error={pages.error} retry={() => void pages.refetch()} />;
  const items = pages.data?.pages.flatMap((p) => p.items) ?? [];
  const titleId = `import-failures-${im.id}`;
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600} id={titleId}>
        {t("imports.failures", { n: formatNumber(im.failed, lang) })}
      </Text>
      <div className="table-wrap" role="region" aria-labelledby={titleId} tabIndex={0}>
        <Table verticalSpacing={2} fz="sm" data-testid="import-failures">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t("imports.row")}</Table.Th>
              <Table.Th>{t("imports.input")}</Table.Th>
              <Table.Th>{t("imports.why")}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((f) => (
              <Table.Tr key={f.row} data-testid="import-failure">
                <Table.Td>{formatNumber(f.row, lang)}</Table.Td>
                <Table.Td className="break mono">{f.url}</Table.Td>
                <Table.Td className="break">{reasonMessage(f.error_reason, f.error_code, f.error)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </div>
      {pages.hasNextPage && (
        <Button variant="default" size="xs" w="fit-content" onClick={() => void pages.fetchNextPage()} loading={pages.isFetchingNextPage}>
          {t("imports.moreFailures")}
        </Button>
      )}
    </Stack>
  );
}
