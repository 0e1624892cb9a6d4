// What a delivery's last attempt sent and got back: the request's headers and JSON body, the
// receiver's status, content type and the first 4 KiB of its answer (docs/api.md, "Webhooks").
import { Code, Stack, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "../../api/client";
import { Queried } from "../../components/states";
import { useWorkspaceId } from "../../session";

/** pretty indents a JSON text; a text that is not JSON is shown as it is. */
export function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export function DeliveryExchange({ webhook, delivery }: { webhook: number; delivery: number }) {
  const { t } = useTranslation();
  const ws = useWorkspaceId();
  const detail = useQuery({
    queryKey: [ws, "webhooks", webhook, "deliveries", delivery],
    queryFn: () =>
      unwrap(api.GET("/api/v1/workspaces/{workspace}/webhooks/{id}/deliveries/{delivery}", { params: { path: { workspace: ws, id: webhook, delivery } } })),
  });
  return (
    <Queried query={detail}>
      {(d) =>
        d.attempt === 0 ? (
          <Text size="sm" c="dimmed">{t("webhooks.notSentYet")}</Text>
        ) : (
          <div className="delivery-exchange" data-testid="delivery-exchange">
            <Stack gap={4}>
              <Text size="sm" fw={600}>{t("webhooks.request")}</Text>
              <Code block>
                {Object.entries(d.request_headers).map(([name, value]) => `${name}: ${value}`).join("\n")}
              </Code>
              <Text size="xs" c="dimmed">{t("webhooks.requestBody")}</Text>
              <Code block data-testid="delivery-request-body">{pretty(d.request_body)}</Code>
            </Stack>
            <Stack gap={4}>
              <Text size="sm" fw={600}>{t("webhooks.answer")}</Text>
              {d.response_code == null ? (
                <Text size="sm" c="dimmed">{t("webhooks.noAnswer")}</Text>
              ) : (
                <>
                  <Text size="sm">
                    {t("webhooks.answerStatus", { code: d.response_code })}
                    {d.response_content_type && <Text span c="dimmed" className="mono">{` · ${d.response_content_type}`}</Text>}
                  </Text>
                  {d.response_body === "" ? (
                    <Text size="sm" c="dimmed">{t("webhooks.emptyAnswer")}</Text>
                  ) : (
                    <Code block data-testid="delivery-response-body">{pretty(d.response_body)}</Code>
                  )}
                  {d.response_truncated && <Text size="xs" c="orange">{t("webhooks.truncated")}</Text>}
                </>
              )}
            </Stack>
          </div>
        )
      }
    </Queried>
  );
}
