// The workspace's members and invitations. Owners and admins invite, change roles and
// remove; anyone may leave.
import { Button, Card, Group, NativeSelect, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { api, unwrap, type Schemas } from "../../api/client";
import { DataTable } from "../../components/DataTable";
import { useCanManage, usePlan } from "../../components/plan";
import { ConfirmButton } from "../../components/confirm";
import { Empty, FormError, Queried, fieldError } from "../../components/states";
import { checkEmail } from "../../lib/validate";
import { useSession, useWorkspaceId } from "../../session";

type Role = Schemas["Member"]["role"];
type InviteRole = Schemas["Invitation"]["role"];

export default function MembersPage() {
  const { t } = useTranslation();
  const ws = useWorkspaceId();
  const { user } = useSession();
  const canManage = useCanManage();
  const client = useQueryClient();
  const plan = usePlan();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<InviteRole>("member");
  const [problem, setProblem] = useState<string>();
  const members = useQuery({
    queryKey: [ws, "members"],
    queryFn: () => unwrap(api.GET("/api/v1/workspaces/{workspace}/members", { params: { path: { workspace: ws } } })),
  });
  const invitations = useQuery({
    queryKey: [ws, "invitations"],
    queryFn: () => unwrap(api.GET("/api/v1/workspaces/{workspace}/invitations", { params: { path: { workspace: ws } } })),
    enabled: canManage,
  });
  const refresh = () => {
    void client.invalidateQueries({ queryKey: [ws, "members"] });
    void client.invalidateQueries({ queryKey: [ws, "invitations"] });
    void client.invalidateQueries({ queryKey: [ws, "plan"] });
  };
  const invite = useMutation({
    mutationFn: () => unwrap(api.POST("/api/v1/workspaces/{workspace}/invitations", { params: { path: { workspace: ws } }, body: { email: email.trim(), role } })),
    onSuccess: () => {
      setEmail("");
      refresh();
    },
  });
  const change = useMutation({
    mutationFn: ({ id, role }: { id: number; role: Role }) =>
      unwrap(api.PATCH("/api/v1/workspaces/{workspace}/members/{user}", { params: { path: { workspace: ws, user: id } }, body: { role } })),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: number) => unwrap(api.DELETE("/api/v1/workspaces/{workspace}/members/{user}", { params: { path: { workspace: ws, user: id } } })),
    onSuccess: refresh,
  });
  const cancel = useMutation({
    mutationFn: (id: number) => unwrap(api.DELETE("/api/v1/workspaces/{workspace}/invitations/{id}", { params: { path: { workspace: ws, id } } })),
    onSuccess: refresh,
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const p = checkEmail(email);
    setProblem(p ? t(`validation.${p.key}`) : undefined);
    if (!p) invite.mutate();
  };
  const limit = plan.data?.limits.members;
  return (
    <Stack maw={900}>
      <Title order={2}>{t("members.title")}</Title>
      {plan.data && (
        <Text size="sm" c="dimmed">
          {limit == null ? t("plan.ofUnlimited", { used: plan.data.usage.members }) : t("members.usage", { used: plan.data.usage.members, limit })}
        </Text>
      )}
      {canManage && (
        <Card withBorder>
          <form onSubmit={submit} noValidate>
            <Group align="flex-end" className="stack-phone">
              <TextInput className="grow" label={t("members.email")} type="email" value={email} onChange={(e) => setEmail(e.currentTarget.value)} error={problem ?? fieldError(invite.error, "email")} data-testid="invite-email" />
              <NativeSelect
                label={t("members.role")}
                value={role}
                onChange={(e) => setRole(e.currentTarget.value as InviteRole)}
                data={(["admin", "member", "viewer"] as const).map((r) => ({ value: r, label: t(`members.roles.${r}`) }))}
                error={fieldError(invite.error, "role")}
              />
              <Button type="submit" loading={invite.isPending} data-testid="invite">
                {t("members.invite")}
              </Button>
            </Group>
            <FormError error={invite.error} fields={["email", "role"]} />
          </form>
        </Card>
      )}
      <FormError error={change.error ?? remove.error ?? cancel.error} />
      <Queried query={members}>
        {(data) => (
          <DataTable head={[t("members.email"), t("members.role"), null]}>
            {data.members.map((m) => (
              <Table.Tr key={m.user_id}>
                <Table.Td className="break">{m.email}</Table.Td>
                <Table.Td>
                  {canManage && m.user_id !== user.id ? (
                    <NativeSelect
                      size="xs"
                      aria-label={t("members.roleOf", { email: m.email })}
                      value={m.role}
                      onChange={(e) => change.mutate({ id: m.user_id, role: e.currentTarget.value as Role })}
                      data={(["owner", "admin", "member", "viewer"] as const).map((r) => ({ value: r, label: t(`members.roles.${r}`) }))}
                    />
                  ) : (
                    t(`members.roles.${m.role}`)
                  )}
                </Table.Td>
                <Table.Td ta="right">
                  {(canManage || m.user_id === user.id) && (
                    <ConfirmButton
                      size="xs"
                      variant="subtle"
                      question={m.user_id === user.id ? t("members.confirmLeave") : t("members.confirmRemove", { email: m.email })}
                      onConfirm={() => remove.mutate(m.user_id)}
                    >
                      {m.user_id === user.id ? t("members.leave") : t("common.remove")}
                    </ConfirmButton>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </DataTable>
        )}
      </Queried>
      {canManage && (
        <Card withBorder>
          <Text fw={600} mb="xs">
            {t("members.invitations")}
          </Text>
          <Queried query={invitations}>
            {(data) =>
              data.invitations.length === 0 ? (
                <Empty title={t("members.noInvitations")} />
              ) : (
                <Table>
                  <Table.Tbody>
                    {data.invitations.map((i) => (
                      <Table.Tr key={i.id} data-testid="invitation">
                        <Table.Td className="break">{i.email}</Table.Td>
                        <Table.Td>{t(`members.roles.${i.role}`)}</Table.Td>
                        <Table.Td ta="right">
                          <Button size="xs" variant="subtle" color="red" onClick={() => cancel.mutate(i.id)}>
                            {t("common.cancel")}
                          </Button>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )
            }
          </Queried>
        </Card>
      )}
    </Stack>
  );
}
