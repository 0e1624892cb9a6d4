// The workspace's members and invitations. Owners and admins invite, change roles and
// remove, and on enterprise open a member's sessions; owners sign out everyone; anyone may
// leave. Invitations still valid take a member place of the plan, as the API counts them (an
// expired one holds none): the form says so before an invitation past the plan would be refused.
import { Alert, Anchor, Badge, Button, Card, Group, NativeSelect, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useNavigate } from "react-router";
import { api, unwrap, type Schemas } from "../../api/client";
import { DataTable } from "../../components/DataTable";
import { useCanManage, usePlan } from "../../components/plan";
import { ConfirmButton } from "../../components/confirm";
import { Empty, FormError, Queried, fieldError } from "../../components/states";
import { notifyDone } from "../../components/notify";
import { formatDateTime } from "../../lib/format";
import { invitesFull, memberLevel } from "../../lib/members";
import { InvitationExpiry } from "./InvitationExpiry";
import { ResendInvitation } from "./ResendInvitation";
import { checkEmail } from "../../lib/validate";
import { useSession, useWorkspaceId } from "../../session";

type Role = Schemas["Member"]["role"];
type InviteRole = Schemas["Invitation"]["role"];

export default function MembersPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const ws = useWorkspaceId();
  const { user, workspace } = useSession();
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
    onSuccess: (inv) => {
      setEmail("");
      refresh();
      notifyDone(t("members.invited", { email: inv.email }));
    },
  });
  const change = useMutation({
    mutationFn: ({ id, role }: { id: number; role: Role; email: string }) =>
      unwrap(api.PATCH("/api/v1/workspaces/{workspace}/members/{user}", { params: { path: { workspace: ws, user: id } }, body: { role } })),
    onSuccess: (_, v) => {
      refresh();
      notifyDone(t("members.roleChanged", { email: v.email }));
    },
  });
  const remove = useMutation({
    mutationFn: ({ id }: { id: number; email: string }) =>
      unwrap(api.DELETE("/api/v1/workspaces/{workspace}/members/{user}", { params: { path: { workspace: ws, user: id } } })),
    onSuccess: async (_, v) => {
      if (v.id === user.id) {
        // Left: the workspace is no longer this person's to show.
        notifyDone(t("members.left"));
        await client.invalidateQueries({ queryKey: ["me"] });
        navigate("/links");
        return;
      }
      refresh();
      notifyDone(t("members.removed", { email: v.email }));
    },
  });
  const cancel = useMutation({
    mutationFn: ({ id }: { id: number; email: string }) =>
      unwrap(api.DELETE("/api/v1/workspaces/{workspace}/invitations/{id}", { params: { path: { workspace: ws, id } } })),
    onSuccess: (_, v) => {
      refresh();
      notifyDone(t("members.withdrawn", { email: v.email }));
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const p = checkEmail(email);
    setProblem(p ? t(`validation.${p.key}`) : undefined);
    if (!p) invite.mutate();
  };
  // Members' sessions and signing everyone out are enterprise's (docs/security.md#session-policy).
  const isOwner = workspace.role === "owner";
  const canSeeSessions = canManage && plan.data?.features.sso === true;
  const signOutEveryone = useMutation({
    mutationFn: () => unwrap(api.POST("/api/v1/workspaces/{workspace}/sessions/revoke", { params: { path: { workspace: ws } } })),
    onSuccess: (r) => notifyDone(t("members.signedOutEveryone", { count: r.ended, people: r.people })),
  });
  const limit = plan.data?.limits.members;
  const used = plan.data?.usage.members ?? 0;
  const waiting = invitations.data?.invitations.filter((i) => !i.expired).length ?? 0;
  // Every place of the plan taken, counting invitations still valid: the next one is refused.
  const full = plan.data != null && invitations.data != null && invitesFull(used, waiting, limit);
  return (
    <Stack maw={900}>
      <Title order={2}>{t("members.title")}</Title>
      {plan.data && <MemberUsage used={used} limit={limit} />}
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
              <Button type="submit" loading={invite.isPending} disabled={full} data-testid="invite">
                {t("members.invite")}
              </Button>
            </Group>
            {full && (
              <Alert color="yellow" variant="light" mt="sm" data-testid="member-limit-warning">
                <Text size="sm">{waiting === 0 ? t("members.limitWarningNone") : t("members.limitWarning", { count: waiting })}</Text>
                <Anchor component={RouterLink} to="/plan" size="sm">
                  {t("members.seePlans")}
                </Anchor>
              </Alert>
            )}
            <FormError error={invite.error} fields={["email", "role"]} />
          </form>
        </Card>
      )}
      <FormError error={change.error ?? remove.error ?? cancel.error ?? signOutEveryone.error} />
      <Queried query={members}>
        {(data) => (
          <DataTable head={[t("members.email"), t("members.role"), t("members.twoFactor"), null]} wholeTitles>
            {data.members.map((m) => (
              <Table.Tr key={m.user_id}>
                <Table.Td className="break">{m.email}</Table.Td>
                <Table.Td className="nowrap">
                  {canManage && m.user_id !== user.id ? (
                    <NativeSelect
                      size="xs"
                      classNames={{ input: "whole" }}
                      aria-label={t("members.roleOf", { email: m.email })}
                      value={m.role}
                      onChange={(e) => change.mutate({ id: m.user_id, role: e.currentTarget.value as Role, email: m.email })}
                      data={(["owner", "admin", "member", "viewer"] as const).map((r) => ({ value: r, label: t(`members.roles.${r}`) }))}
                    />
                  ) : (
                    t(`members.roles.${m.role}`)
                  )}
                </Table.Td>
                <Table.Td data-testid="member-2fa">
                  <Badge variant="light" color={m.two_factor ? "green" : "gray"} className="whole">
                    {m.two_factor ? t("members.twoFactorOn") : t("members.twoFactorOff")}
                  </Badge>
                </Table.Td>
                <Table.Td ta="right">
                  {canSeeSessions && (m.role !== "owner" || isOwner) && (
                    <Button component={RouterLink} to={`/members/${m.user_id}/sessions`} size="xs" variant="subtle" aria-label={t("members.sessionsOf", { email: m.email })} data-testid="member-sessions">
                      {t("members.sessions")}
                    </Button>
                  )}
                  {(canManage || m.user_id === user.id) && (
                    <ConfirmButton
                      size="xs"
                      variant="subtle"
                      question={m.user_id === user.id ? t("members.confirmLeave") : t("members.confirmRemove", { email: m.email })}
                      onConfirm={() => remove.mutate({ id: m.user_id, email: m.email })}
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
      {canSeeSessions && isOwner && (
        <Group>
          <ConfirmButton
            variant="light"
            question={t("members.signOutEveryoneQuestion")}
            detail={t("members.signOutEveryoneDetail")}
            onConfirm={() => signOutEveryone.mutate()}
            loading={signOutEveryone.isPending}
            data-testid="sign-out-everyone"
          >
            {t("members.signOutEveryone")}
          </ConfirmButton>
        </Group>
      )}
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
                        <Table.Td c="dimmed">{t("members.invitedOn", { date: formatDateTime(i.created_at, i18n.resolvedLanguage, "date") })}</Table.Td>
                        <Table.Td data-testid="invitation-expiry">
                          <InvitationExpiry expiresAt={i.expires_at} expired={i.expired} />
                        </Table.Td>
                        <Table.Td ta="right">
                          <ResendInvitation id={i.id} email={i.email} />
                          <Button size="xs" variant="subtle" color="red" aria-label={t("members.withdraw", { email: i.email })} onClick={() => cancel.mutate({ id: i.id, email: i.email })}>
                            {t("members.withdrawShort")}
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

/**
 * Members against the plan's limit, said calmly: plain until the plan is nearly full, and a
 * pointer to the plans only once every place is taken.
 */
function MemberUsage({ used, limit }: { used: number; limit: number | null | undefined }) {
  const { t, i18n } = useTranslation();
  const num = new Intl.NumberFormat(i18n.resolvedLanguage);
  if (limit == null) {
    return (
      <Text size="sm" c="dimmed" data-testid="member-usage">
        {t("plan.ofUnlimited", { used: num.format(used) })}
      </Text>
    );
  }
  const level = memberLevel(used, limit);
  const atLimit = level === "full";
  const near = level !== "calm";
  return (
    <Group gap="xs" data-testid="member-usage">
      <Text size="sm" c={near ? undefined : "dimmed"} fw={near ? 500 : undefined}>
        {t("members.usage", { used: num.format(used), limit: num.format(limit) })}
      </Text>
      {atLimit && (
        <Text size="sm" c="dimmed">
          {t("members.usageFull")}{" "}
          <Anchor component={RouterLink} to="/plan" size="sm">
            {t("members.seePlans")}
          </Anchor>
        </Text>
      )}
    </Group>
  );
}
