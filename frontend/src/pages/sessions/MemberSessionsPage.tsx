// One member's signed-in sessions as the workspace's owners and admins see them
// (docs/security.md#session-policy): device, sign-in, last activity, expiry and the address's
// hash, with "Sign out" per session and for all of them. Plans without sso see which plan has it.
import { Anchor, Badge, Button, Group, Stack, Table, Text, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useParams } from "react-router";
import { api, unwrap } from "../../api/client";
import { ConfirmButton } from "../../components/confirm";
import { DataTable } from "../../components/DataTable";
import { notifyDone } from "../../components/notify";
import { UpgradeHint, usePlan } from "../../components/plan";
import { Empty, FormError, Queried } from "../../components/states";
import { useWorkspaceId } from "../../session";

export default function MemberSessionsPage() {
  const { t, i18n } = useTranslation();
  const ws = useWorkspaceId();
  const user = Number(useParams().user);
  const plan = usePlan();
  const client = useQueryClient();
  const allowed = plan.data?.features.sso ?? false;
  const path = { workspace: ws, user };
  const members = useQuery({
    queryKey: [ws, "members"],
    queryFn: () => unwrap(api.GET("/api/v1/workspaces/{workspace}/members", { params: { path: { workspace: ws } } })),
  });
  const sessions = useQuery({
    queryKey: [ws, "member-sessions", user],
    queryFn: () => unwrap(api.GET("/api/v1/workspaces/{workspace}/members/{user}/sessions", { params: { path } })),
    enabled: allowed && Number.isSafeInteger(user) && user > 0,
  });
  const refresh = () => void client.invalidateQueries({ queryKey: [ws, "member-sessions", user] });
  const end = useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE("/api/v1/workspaces/{workspace}/members/{user}/sessions/{id}", { params: { path: { ...path, id } } })),
    onSuccess: () => {
      notifyDone(t("sessions.signedOut"));
      refresh();
    },
    onError: refresh,
  });
  const endAll = useMutation({
    mutationFn: () => unwrap(api.DELETE("/api/v1/workspaces/{workspace}/members/{user}/sessions", { params: { path } })),
    onSuccess: (r) => {
      notifyDone(t("sessions.signedOutAll", { count: r.ended }));
      refresh();
    },
  });
  const email = members.data?.members.find((m) => m.user_id === user)?.email ?? "";
  const date = new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: "medium", timeStyle: "short" });
  return (
    <Stack maw={1000}>
      <Anchor component={RouterLink} to="/members" size="sm">
        {t("sessions.back")}
      </Anchor>
      <Title order={2} className="break">
        {email ? t("sessions.titleOf", { email }) : t("sessions.title")}
      </Title>
      <Text size="sm" c="dimmed">
        {t("sessions.help")}
      </Text>
      {plan.isSuccess && !allowed ? (
        <UpgradeHint feature="sso" label={t("sessions.title")} />
      ) : (
        <Queried query={sessions}>
          {(data) =>
            data.sessions.length === 0 ? (
              <Empty title={t("sessions.none")} />
            ) : (
              <>
                <DataTable head={[t("sessions.device"), t("sessions.signedIn"), t("sessions.lastActive"), t("sessions.expires"), t("sessions.address"), null]}>
                  {data.sessions.map((s) => (
                    <Table.Tr key={s.id} data-testid="member-session">
                      <Table.Td>
                        <Group gap="xs" wrap="nowrap">
                          <Text size="sm">{s.device || t("sessions.unknownDevice")}</Text>
                          {s.current && (
                            <Badge variant="light" color="teal">
                              {t("sessions.current")}
                            </Badge>
                          )}
                        </Group>
                      </Table.Td>
                      <Table.Td>{date.format(new Date(s.created_at))}</Table.Td>
                      <Table.Td>{s.last_active_at ? date.format(new Date(s.last_active_at)) : t("sessions.never")}</Table.Td>
                      <Table.Td>{date.format(new Date(s.expires_at))}</Table.Td>
                      <Table.Td>
                        <Text size="xs" ff="monospace" title={s.ip_hash}>
                          {s.ip_hash ? s.ip_hash.slice(0, 12) : "—"}
                        </Text>
                      </Table.Td>
                      <Table.Td ta="right">
                        {!s.current && (
                          <Button
                            size="xs"
                            variant="default"
                            aria-label={t("sessions.signOutLabel", { device: s.device || t("sessions.unknownDevice"), date: date.format(new Date(s.created_at)) })}
                            loading={end.isPending && end.variables === s.id}
                            onClick={() => end.mutate(s.id)}
                          >
                            {t("sessions.signOut")}
                          </Button>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </DataTable>
                <Group>
                  <ConfirmButton variant="light" question={t("sessions.signOutAllQuestion", { email })} onConfirm={() => endAll.mutate()} loading={endAll.isPending} data-testid="sign-out-member">
                    {t("sessions.signOutAll")}
                  </ConfirmButton>
                </Group>
              </>
            )
          }
        </Queried>
      )}
      <FormError error={end.error ?? endAll.error} />
    </Stack>
  );
}
