// What a signed-in person without any workspace sees, whatever page they open (they deleted or
// left their last one, or the one they joined through an invitation is gone): the invitations
// waiting for them, a way to make a workspace, or to log out.
import { Button, Group, Stack, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { api, unwrap, type User } from "../../api/client";
import { AuthFrame } from "../../components/AuthFrame";
import { notifyDone } from "../../components/notify";
import { useNewWorkspace } from "../../components/newWorkspace";
import { FormError } from "../../components/states";
import { useLogout } from "../../session";

export default function NoWorkspacePage({ user }: { user: User }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const navigate = useNavigate();
  const { name, setName, nameError, create, submit } = useNewWorkspace((ws) => {
    localStorage.setItem("sl.workspace", String(ws.id));
    navigate("/links");
  });
  const invitations = useQuery({
    queryKey: ["me", "invitations"],
    queryFn: () => unwrap(api.GET("/api/v1/me/invitations")),
    enabled: user.email_verified,
  });
  const accept = useMutation({
    mutationFn: (id: number) => unwrap(api.POST("/api/v1/me/invitations/{id}/accept", { params: { path: { id } } })),
    onSuccess: async (ws) => {
      localStorage.setItem("sl.workspace", String(ws.id));
      notifyDone(t("invitations.accepted", { name: ws.name }));
      await client.invalidateQueries({ queryKey: ["me"] });
      navigate("/links");
    },
  });
  const logout = useLogout();
  return (
    <AuthFrame>
      <form onSubmit={submit} noValidate>
        <Stack>
          <Title order={2}>{t("workspace.noneTitle")}</Title>
          <Text size="sm">{t("workspace.noneText", { email: user.email })}</Text>
          {invitations.data?.invitations.map((inv) => (
            <Group key={inv.id} justify="space-between" gap="xs" data-testid="my-invitation">
              <Text size="sm" className="break">
                {inv.workspace_name} · {t(`members.roles.${inv.role}`)}
              </Text>
              <Button size="xs" loading={accept.isPending && accept.variables === inv.id} onClick={() => accept.mutate(inv.id)}>
                {t("invitations.accept")}
              </Button>
            </Group>
          ))}
          <FormError error={accept.error} />
          <TextInput label={t("workspace.name")} value={name} onChange={(e) => setName(e.currentTarget.value)} error={nameError} />
          <FormError error={create.error} fields={["name"]} />
          <Group justify="space-between">
            <Button variant="default" onClick={() => logout.mutate()} loading={logout.isPending}>
              {t("nav.logout")}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t("workspace.create")}
            </Button>
          </Group>
        </Stack>
      </form>
    </AuthFrame>
  );
}
