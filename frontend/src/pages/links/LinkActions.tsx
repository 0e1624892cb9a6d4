// A link's actions, in a menu on each row of the links list and on the link's page: duplicate,
// archive or bring back, share its statistics, and delete after a confirmation. Loaded only
// when a list or a link is shown.
import { ActionIcon, Button, Group, Menu, Modal, Text } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { IconArchive, IconArchiveOff, IconCopyPlus, IconDots, IconShare, IconTrash } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api, unwrap, type Link } from "../../api/client";
import { notifyDone, notifyFailed } from "../../components/notify";
import { errorMessage } from "../../components/states";
import { useWorkspaceId } from "../../session";
import { ShareDialog } from "./ShareDialog";

export interface LinkActionsProps {
  link: Link;
  /** Called with the new link once a duplicate is made. */
  onDuplicated?: (l: Link) => void;
  /** Called once the link is deleted. */
  onDeleted?: () => void;
  /** Called with true as the deletion is sent, false if it fails: a page reading the link's
   * figures stops reading them, or reads again. */
  onDeleting?: (deleting: boolean) => void;
}

export default function LinkActions({ link, onDuplicated, onDeleted, onDeleting }: LinkActionsProps) {
  const { t } = useTranslation();
  const ws = useWorkspaceId();
  const client = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [sharing, setSharing] = useState(false);
  const path = { workspace: ws, id: link.id };
  const refresh = () => {
    void client.invalidateQueries({ queryKey: [ws, "links"] });
    void client.invalidateQueries({ queryKey: [ws, "link", link.id] });
  };
  const failed = (e: unknown) => notifyFailed(errorMessage(e, t("common.unexpected")));
  const duplicate = useMutation({
    mutationFn: () => unwrap(api.POST("/api/v1/workspaces/{workspace}/links/{id}/duplicate", { params: { path } })),
    onSuccess: (l) => {
      notifyDone(t("linkTools.duplicated", { code: l.code }));
      refresh();
      onDuplicated?.(l);
    },
    onError: failed,
  });
  const archive = useMutation({
    mutationFn: (archived: boolean) =>
      unwrap(api.PATCH("/api/v1/workspaces/{workspace}/links/{id}", { params: { path }, body: { archived } })),
    onSuccess: (l) => {
      notifyDone(t(l.archived ? "linkTools.archived" : "linkTools.unarchived"));
      refresh();
    },
    onError: failed,
  });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE("/api/v1/workspaces/{workspace}/links/{id}", { params: { path } })),
    // The link's own reads stop before it is gone: a read of a deleted link is a 404.
    onMutate: async () => {
      onDeleting?.(true);
      await client.cancelQueries({ queryKey: [ws, "link", link.id] });
    },
    onSuccess: () => {
      notifyDone(t("linkTools.deleted"));
      void client.invalidateQueries({ queryKey: [ws, "links"] });
      onDeleted?.();
    },
    onError: (e) => {
      onDeleting?.(false);
      failed(e);
    },
  });
  const busy = duplicate.isPending || archive.isPending || remove.isPending;
  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" loading={busy} aria-label={t("linkTools.actions", { code: link.code })} data-testid="link-actions">
            <IconDots size={18} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item leftSection={<IconCopyPlus size={16} />} onClick={() => duplicate.mutate()} disabled={link.status === "banned" || link.status === "held"} data-testid="action-duplicate">
            {t("linkTools.duplicate")}
          </Menu.Item>
          <Menu.Item
            leftSection={link.archived ? <IconArchiveOff size={16} /> : <IconArchive size={16} />}
            onClick={() => archive.mutate(!link.archived)}
            data-testid={link.archived ? "action-unarchive" : "action-archive"}
          >
            {t(link.archived ? "linkTools.unarchive" : "linkTools.archive")}
          </Menu.Item>
          <Menu.Item leftSection={<IconShare size={16} />} onClick={() => setSharing(true)} data-testid="action-share">
            {t("linkTools.share")}
          </Menu.Item>
          <Menu.Divider />
          <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => setConfirming(true)} data-testid="action-delete">
            {t("linkTools.delete")}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {/* lockScroll off: react-remove-scroll would add a <style> element, which the policy refuses. */}
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t("linkTools.confirmDelete", { code: link.code })} centered lockScroll={false}>
        <Text size="sm" mb="md">
          {t("linkTools.confirmDeleteDetail")}
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => setConfirming(false)}>
            {t("common.cancel")}
          </Button>
          <Button
            color="red"
            data-autofocus
            data-testid="confirm-delete"
            onClick={() => {
              setConfirming(false);
              remove.mutate();
            }}
          >
            {t("linkTools.delete")}
          </Button>
        </Group>
      </Modal>
      {sharing && <ShareDialog link={link} onClose={() => setSharing(false)} />}
    </>
  );
}
