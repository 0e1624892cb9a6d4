// The shares of a link's statistics: public read-only pages anyone holding the address may
// open (docs/api.md#shared-statistics). Make one, copy its address, revoke it.
import { ActionIcon, Button, CopyButton, Group, Modal, Stack, Text, TextInput, Tooltip } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { IconCheck, IconCopy } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { api, unwrap, type Link } from "../../api/client";
import { notifyDone } from "../../components/notify";
import { FormError, Queried } from "../../components/states";
import { useWorkspaceId } from "../../session";

export function ShareDialog({ link, onClose }: { link: Link; onClose: () => void }) {
  const { t } = useTranslation();
  const ws = useWorkspaceId();
  const client = useQueryClient();
  const path = { workspace: ws, id: link.id };
  const key = [ws, "link", link.id, "shares"];
  const shares = useQuery({
    queryKey: key,
    queryFn: () => unwrap(api.GET("/api/v1/workspaces/{workspace}/links/{id}/share", { params: { path } })),
  });
  const create = useMutation({
    mutationFn: () => unwrap(api.POST("/api/v1/workspaces/{workspace}/links/{id}/share", { params: { path } })),
    onSuccess: () => void client.invalidateQueries({ queryKey: key }),
  });
  const revoke = useMutation({
    mutationFn: (share: string) =>
      unwrap(api.DELETE("/api/v1/workspaces/{workspace}/links/{id}/share/{share_id}", { params: { path: { ...path, share_id: share } } })),
    onSuccess: () => {
      notifyDone(t("linkTools.shareRevoked"));
      void client.invalidateQueries({ queryKey: key });
    },
  });
  return (
    // lockScroll off: react-remove-scroll would add a <style> element, which the policy refuses.
    <Modal opened onClose={onClose} title={t("linkTools.shareTitle")} centered lockScroll={false} size="lg">
      <Stack>
        <Text size="sm" c="dimmed">
          {t("linkTools.shareHelp")}
        </Text>
        <Queried query={shares}>
          {(data) =>
            data.shares.length === 0 ? (
              <Text size="sm">{t("linkTools.shareNone")}</Text>
            ) : (
              <Stack gap="xs" data-testid="share-list">
                {data.shares.map((s) => (
                  <Group key={s.id} gap="xs" wrap="nowrap" data-testid="share-row">
                    <TextInput className="grow mono" readOnly value={s.url} aria-label={t("linkTools.share")} data-testid="share-url" />
                    <CopyButton value={s.url} timeout={1500}>
                      {({ copied, copy }) => (
                        <Tooltip label={copied ? t("linkTools.shareCopied") : t("linkTools.shareCopy")} withArrow>
                          <ActionIcon variant="subtle" color={copied ? "teal" : "gray"} onClick={copy} aria-label={t("linkTools.shareCopy")}>
                            {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                          </ActionIcon>
                        </Tooltip>
                      )}
                    </CopyButton>
                    <Button size="xs" variant="light" color="red" loading={revoke.isPending} onClick={() => revoke.mutate(s.id)} data-testid="share-revoke">
                      {t("linkTools.shareRevoke")}
                    </Button>
                  </Group>
                ))}
              </Stack>
            )
          }
        </Queried>
        <FormError error={create.error ?? revoke.error} />
        <Group justify="flex-end">
          <Button onClick={() => create.mutate()} loading={create.isPending} data-testid="share-create">
            {t("linkTools.shareCreate")}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
