// The domains whose new links are stopped (docs/moderation.md#moderation-at-scale): banned by a
// moderator (who, when, the private note) or held by their record of phishing bans (the review
// whose ban holds them), each with its links, and "Clear" to lift it, a page at a time.
import { Badge, Button, Card, Group, Stack, Table, Text, VisuallyHidden } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api, unwrap, type Schemas } from "../../api/client";
import { ConfirmButton } from "../../components/confirm";
import { notifyDone } from "../../components/notify";
import { Empty, FormError, Queried } from "../../components/states";
import { formatDateTime, formatNumber } from "../../lib/format";
import { current, firstPage, next, pageNumber, previous } from "../../lib/pages";

type Entry = Schemas["DomainEntry"];

export function DomainList() {
  const { t, i18n } = useTranslation();
  const lang = i18n.resolvedLanguage;
  const client = useQueryClient();
  const [pages, setPages] = useState(firstPage);
  const list = useQuery({
    queryKey: ["moderation", "domains", current(pages)],
    queryFn: () => unwrap(api.GET("/api/v1/moderation/domains", { params: { query: { limit: 20, cursor: current(pages) || undefined } } })),
  });
  const clear = useMutation({
    mutationFn: (domain: string) => unwrap(api.POST("/api/v1/moderation/domains/{domain}/clear", { params: { path: { domain } }, body: {} })),
    onSuccess: (out) => {
      notifyDone(t("moderation.domain.cleared", { domain: out.domain }));
      setPages(firstPage);
      void client.invalidateQueries({ queryKey: ["moderation"] });
    },
  });
  const why = (e: Entry) =>
    e.state === "held"
      ? [e.review ? t(`moderation.reasons.${e.review.category}`, { defaultValue: e.review.category }) : "", t("linkModeration.codes.domain_record")].filter(Boolean).join(" — ")
      : [e.category ? t(`moderation.reasons.${e.category}`, { defaultValue: e.category }) : "", e.note].filter(Boolean).join(" — ");
  return (
    <Card withBorder component="section" aria-labelledby="domain-list-title" data-testid="domain-list">
      <Stack gap="xs">
        <Text fw={600} id="domain-list-title">
          {t("moderation.domains.title")}
        </Text>
        <Text size="xs" c="dimmed">
          {t("moderation.domains.linksHint")}
        </Text>
        <Queried query={list}>
          {(data) =>
            data.items.length === 0 ? (
              <Empty title={t("moderation.domains.none")} />
            ) : (
              <div className="table-wrap" role="region" aria-labelledby="domain-list-title" tabIndex={0}>
                <Table verticalSpacing={4}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t("moderation.domain.label")}</Table.Th>
                      <Table.Th>{t("moderation.domains.state")}</Table.Th>
                      <Table.Th>{t("admin.by")}</Table.Th>
                      <Table.Th>{t("detail.when")}</Table.Th>
                      <Table.Th>{t("moderation.domains.why")}</Table.Th>
                      <Table.Th>{t("moderation.domains.links")}</Table.Th>
                      <Table.Th>
                        <VisuallyHidden>{t("moderation.domain.clear")}</VisuallyHidden>
                      </Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.items.map((e) => (
                      <Table.Tr key={e.domain} data-testid="domain-row">
                        <Table.Td className="break mono">{e.domain}</Table.Td>
                        <Table.Td>
                          <Badge color={e.state === "banned" ? "red" : e.state === "held" ? "orange" : "gray"} variant="light">
                            {t(`moderation.domains.states.${e.state}`)}
                          </Badge>
                        </Table.Td>
                        <Table.Td className="break">{e.actor?.email ?? t("moderation.worker")}</Table.Td>
                        <Table.Td>{formatDateTime(e.updated_at, lang)}</Table.Td>
                        <Table.Td className="break" data-testid="domain-why">
                          {why(e)}
                        </Table.Td>
                        <Table.Td data-testid="domain-links">{formatNumber(e.links, lang)}</Table.Td>
                        <Table.Td>
                          {e.state !== "cleared" && (
                            <ConfirmButton
                              size="xs"
                              variant="light"
                              question={t("moderation.domains.clearQuestion", { domain: e.domain })}
                              detail={t("moderation.domains.clearDetail")}
                              onConfirm={() => clear.mutate(e.domain)}
                              loading={clear.isPending && clear.variables === e.domain}
                              aria-label={t("moderation.domains.clearOf", { domain: e.domain })}
                            >
                              {t("moderation.domain.clear")}
                            </ConfirmButton>
                          )}
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </div>
            )
          }
        </Queried>
        <FormError error={clear.error} />
        {(pageNumber(pages) > 1 || list.data?.next_cursor) && (
          <Group justify="flex-end">
            <Button variant="default" size="xs" disabled={pageNumber(pages) === 1} onClick={() => setPages(previous(pages))}>
              {t("common.previous")}
            </Button>
            <Button variant="default" size="xs" disabled={!list.data?.next_cursor} onClick={() => setPages(next(pages, list.data?.next_cursor ?? ""))}>
              {t("common.next")}
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}
