// A link's destination health (docs/api.md#link-health): the "Broken" badge with its reason on list rows
// and the link page, and the link page's panel with "Check now".
import { Alert, Badge, Button, Group, Stack, Text } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { IconRefresh } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { api, unwrap, type Link, type Schemas } from "../../api/client";
import { notifyDone } from "../../components/notify";
import { FormError } from "../../components/states";
import { formatDateTime } from "../../lib/format";
import { useWorkspaceId } from "../../session";

type Health = Schemas["LinkHealth"];
type T = (key: string, o?: Record<string, unknown>) => string;

/** Why the last check failed, in the reader's language. */
export function healthReason(t: T, h: Health): string {
  const known = ["dns", "tls", "timeout", "connect", "status", "redirects", "refused"];
  const key = known.includes(h.error) ? h.error : "unknown";
  return t(`linkHealth.reasons.${key}`, { status: h.status ?? "" });
}

/** "Broken: HTTP 404" on a broken link; nothing otherwise. */
export function HealthBadge({ link }: { link: Link }) {
  const { t, i18n } = useTranslation();
  const h = link.health;
  if (!h || h.state !== "broken") return null;
  return (
    <Badge color="red" variant="filled" title={`${h.detail} · ${formatDateTime(h.checked_at, i18n.resolvedLanguage)}`} data-testid="health-badge">
      {t("linkHealth.badge", { reason: healthReason(t, h) })}
    </Badge>
  );
}

/** The link page's health: what the last checks found, and a button that checks now. */
export function LinkHealthPanel({ link }: { link: Link }) {
  const { t, i18n } = useTranslation();
  const ws = useWorkspaceId();
  const client = useQueryClient();
  const check = useMutation({
    mutationFn: () => unwrap(api.POST("/api/v1/workspaces/{workspace}/links/{id}/check", { params: { path: { workspace: ws, id: link.id } } })),
    onSuccess: (checked) => {
      client.setQueryData([ws, "link", link.id], (old: Link | undefined) => (old ? { ...old, ...checked, appeal: old.appeal } : checked));
      void client.invalidateQueries({ queryKey: [ws, "links"] });
      notifyDone(t("linkHealth.checked"));
    },
  });
  const h = link.health;
  const date = h ? formatDateTime(h.checked_at, i18n.resolvedLanguage) : "";
  const button = (
    <Button
      size="xs"
      variant="light"
      color={h?.state === "broken" ? "red" : undefined}
      leftSection={<IconRefresh size={14} aria-hidden />}
      loading={check.isPending}
      onClick={() => check.mutate()}
      w="fit-content"
      data-testid="check-now"
    >
      {t("linkHealth.checkNow")}
    </Button>
  );
  if (h?.state === "broken") {
    return (
      <Alert color="red" title={t("linkHealth.badge", { reason: healthReason(t, h) })} data-testid="health-panel">
        <Stack gap="xs">
          <Text size="sm">{t("linkHealth.brokenLine", { date })}</Text>
          {h.detail && h.error !== "status" && (
            <Text size="sm" c="dimmed" className="break">
              {h.detail}
            </Text>
          )}
          <Text size="sm">{t("linkHealth.brokenHelp")}</Text>
          {button}
          <FormError error={check.error} />
        </Stack>
      </Alert>
    );
  }
  return (
    <Stack gap={4} data-testid="health-panel">
      <Group gap="xs" wrap="wrap">
        <Text size="sm" fw={500}>
          {t("linkHealth.title")}
        </Text>
        {h && (
          <Badge color="green" variant="light" data-testid="health-ok">
            {t("linkHealth.ok")}
          </Badge>
        )}
        {button}
      </Group>
      <Text size="sm" c="dimmed">
        {!h ? t("linkHealth.notChecked") : h.error ? t("linkHealth.okButFailedOnce", { date, reason: healthReason(t, h) }) : t("linkHealth.okLine", { date })}
      </Text>
      <FormError error={check.error} />
    </Stack>
  );
}
