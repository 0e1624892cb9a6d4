// A webhook's delivery log: a table on wide screens, a list of stacked cards below Mantine's sm
// (48em, as the links list), and each delivery's request and answer in a dialog of its own that
// fits the screen (full-screen on a phone), not a row that scrolls with the table.
import { Badge, Button, Card, Group, Modal, Stack, Table, Text } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "../../api/client";
import { DataTable } from "../../components/DataTable";
import { notifyDone } from "../../components/notify";
import { FormError, Queried } from "../../components/states";
import i18n from "../../i18n";
import { formatDateTime } from "../../lib/format";
import { useWorkspaceId } from "../../session";
import { DeliveryExchange } from "./DeliveryExchange";

const statusColor: Record<string, string> = { delivered: "teal", pending: "yellow", failed: "red" };

/** The narrow screens that get cards instead of the table: Mantine's sm, as in app.css. */
const narrow = "(max-width: 47.99em)";

export function Deliveries({ id, enabled }: { id: number; enabled: boolean }) {
  const { t } = useTranslation();
  const ws = useWorkspaceId();
  const client = useQueryClient();
  const cards = useMediaQuery(narrow, false, { getInitialValueInEffect: false });
  const [shown, setShown] = useState<{ id: number; event: string }>();
  const log = useQuery({
    queryKey: [ws, "webhooks", id, "deliveries"],
    queryFn: () => unwrap(api.GET("/api/v1/workspaces/{workspace}/webhooks/{id}/deliveries", { params: { path: { workspace: ws, id } } })),
    refetchInterval: 5000,
  });
  const resend = useMutation({
    mutationFn: (delivery: number) =>
      unwrap(api.POST("/api/v1/workspaces/{workspace}/webhooks/{id}/deliveries/{delivery}/resend", { params: { path: { workspace: ws, id, delivery } } })),
    onSuccess: async (r) => {
      await client.invalidateQueries({ queryKey: [ws, "webhooks", id, "deliveries"], exact: true });
      notifyDone(t("webhooks.resent", { status: t(`webhooks.statuses.${r.delivery.status}`) }));
    },
  });
  return (
    <Queried query={log}>
      {(data) => {
        if (data.deliveries.length === 0) return <Text size="sm" c="dimmed">{t("webhooks.noDeliveries")}</Text>;
        type Delivery = (typeof data.deliveries)[number];
        const event = (d: Delivery) => (
          <>
            <Text size="sm" className="mono break">{d.event}</Text>
            {d.resent_from != null && <Text size="xs" c="dimmed">{t("webhooks.resentFrom", { id: d.resent_from })}</Text>}
          </>
        );
        const status = (d: Delivery) => (
          <>
            <Badge color={statusColor[d.status]} variant="light">{t(`webhooks.statuses.${d.status}`)}</Badge>
            {d.error && <Text size="xs" c="dimmed" className="break">{d.error}</Text>}
          </>
        );
        const buttons = (d: Delivery) => (
          <Group gap={4} wrap="wrap">
            <Button size="compact-xs" variant="subtle" aria-haspopup="dialog" onClick={() => setShown({ id: d.id, event: d.event })}>
              {t("webhooks.expand")}
            </Button>
            <Button
              size="compact-xs"
              variant="light"
              disabled={!enabled || d.status === "pending" || (resend.isPending && resend.variables !== d.id)}
              loading={resend.isPending && resend.variables === d.id}
              onClick={() => resend.mutate(d.id)}
            >
              {t("webhooks.resend")}
            </Button>
          </Group>
        );
        const when = (d: Delivery) => formatDateTime(d.at, i18n.resolvedLanguage);
        return (
          <>
            <FormError error={resend.error} />
            {cards ? (
              <Stack gap="xs" data-testid="webhook-deliveries">
                {data.deliveries.map((d) => (
                  <Card withBorder padding="xs" key={d.id} data-testid="delivery">
                    <Stack gap={4}>
                      <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
                        <div className="minw0">{event(d)}</div>
                        <div>{status(d)}</div>
                      </Group>
                      <Text size="xs" c="dimmed">
                        {t("webhooks.cardLine", { attempt: d.attempt, response: d.response_code ?? "—", at: when(d) })}
                      </Text>
                      {buttons(d)}
                    </Stack>
                  </Card>
                ))}
              </Stack>
            ) : (
              <DataTable testId="webhook-deliveries" head={[t("webhooks.event"), t("webhooks.status"), t("webhooks.attempt"), t("webhooks.response"), t("webhooks.at"), null]}>
                {data.deliveries.map((d) => (
                  <Table.Tr key={d.id} data-testid="delivery">
                    <Table.Td>{event(d)}</Table.Td>
                    <Table.Td>{status(d)}</Table.Td>
                    <Table.Td>{d.attempt}</Table.Td>
                    <Table.Td>{d.response_code ?? "—"}</Table.Td>
                    <Table.Td>{when(d)}</Table.Td>
                    <Table.Td>{buttons(d)}</Table.Td>
                  </Table.Tr>
                ))}
              </DataTable>
            )}
            <Modal
              opened={shown != null}
              onClose={() => setShown(undefined)}
              title={shown ? t("webhooks.exchangeTitle", { event: shown.event, id: shown.id }) : ""}
              fullScreen={cards}
              size="xl"
              centered
              lockScroll={false}
              closeButtonProps={{ "aria-label": t("webhooks.collapse") }}
            >
              {shown && <DeliveryExchange webhook={id} delivery={shown.id} />}
            </Modal>
          </>
        );
      }}
    </Queried>
  );
}
