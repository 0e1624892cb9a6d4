// A waiting invitation's "Resend": the mail again, with a new link (the old one stops working).
import { Button } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "../../api/client";
import { notifyDone, notifyFailed } from "../../components/notify";
import { errorMessage } from "../../components/states";
import { useWorkspaceId } from "../../session";

export function ResendInvitation({ id, email }: { id: number; email: string }) {
  const { t } = useTranslation();
  const workspace = useWorkspaceId();
  const client = useQueryClient();
  const resend = useMutation({
    mutationFn: () => unwrap(api.POST("/api/v1/workspaces/{workspace}/invitations/{id}/resend", { params: { path: { workspace, id } } })),
    onSuccess: () => {
      notifyDone(t("members.resent", { email }));
      void client.invalidateQueries({ queryKey: [workspace, "invitations"] });
    },
    onError: (e) => notifyFailed(errorMessage(e, t("common.unexpected"))),
  });
  return (
    <Button size="xs" variant="subtle" aria-label={t("members.resend", { email })} loading={resend.isPending} onClick={() => resend.mutate()} data-testid="invitation-resend">
      {t("members.resendShort")}
    </Button>
  );
}
