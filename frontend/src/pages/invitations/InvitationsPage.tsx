// The invitations the signed-in person has received (/app/invitations, or
// /app/invitations/{id} for one of them first). Someone not signed in goes through the login
// or sign-up page and comes back here; accepting lands in the workspace joined.
import { Alert, Anchor, Button, Card, Group, Stack, Text, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useNavigate, useParams } from "react-router";
import { api, unwrap, type Schemas } from "../../api/client";
import { ConfirmButton } from "../../components/confirm";
import { notifyDone } from "../../components/notify";
import { Empty, ErrorState, FormError, Loading } from "../../components/states";
import { formatDateTime } from "../../lib/format";
import { useSession } from "../../session";

type Invitation = Schemas["Invitation"];

export default function InvitationsPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const { user } = useSession();
  const invitations = useQuery({
    queryKey: ["me", "invitations"],
    queryFn: () => unwrap(api.GET("/api/v1/me/invitations")),
    enabled: user.email_verified,
  });
  const chosen = Number(id);
  const list = [...(invitations.data?.invitations ?? [])].sort((a, b) => Number(b.id === chosen) - Number(a.id === chosen));

  return (
    <Stack maw={720}>
      <Title order={2}>{t("invitations.title")}</Title>
      {!user.email_verified ? (
        <Alert color="yellow" data-testid="invitations-unverified">
          {t("invitations.unverified")}
        </Alert>
      ) : invitations.isPending ? (
        <Loading />
      ) : invitations.isError ? (
        <ErrorState error={invitations.error} retry={() => void invitations.refetch()} />
      ) : list.length === 0 ? (
        <Empty title={t("invitations.empty", { email: user.email })}>
          <Text size="sm" c="dimmed" ta="center">
            {t("invitations.emptyHelp")}
          </Text>
          <Anchor component={RouterLink} to="/links">
            {t("invitations.toLinks")}
          </Anchor>
        </Empty>
      ) : (
        <>
          <Text size="sm" c="dimmed">
            {t("invitations.intro", { email: user.email })}
          </Text>
          {list.map((inv) => (
            <InvitationCard key={inv.id} invitation={inv} highlighted={inv.id === chosen} />
          ))}
        </>
      )}
    </Stack>
  );
}

function InvitationCard({ invitation: inv, highlighted }: { invitation: Invitation; highlighted: boolean }) {
  const { t, i18n } = useTranslation();
  const until = formatDateTime(inv.expires_at, i18n.resolvedLanguage, "date");
  const client = useQueryClient();
  const navigate = useNavigate();
  const { selectWorkspace } = useSession();
  const accept = useMutation({
    mutationFn: () => unwrap(api.POST("/api/v1/me/invitations/{id}/accept", { params: { path: { id: inv.id } } })),
    onSuccess: async (ws) => {
      await client.invalidateQueries({ queryKey: ["me"] });
      selectWorkspace(ws.id);
      notifyDone(t("invitations.accepted", { name: ws.name }));
      navigate("/links");
    },
  });
  const decline = useMutation({
    mutationFn: () => unwrap(api.DELETE("/api/v1/me/invitations/{id}", { params: { path: { id: inv.id } } })),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ["me", "invitations"] });
      notifyDone(t("invitations.declined", { name: inv.workspace_name }));
    },
  });
  return (
    <Card withBorder className={highlighted ? "chosen-card" : undefined} data-testid="my-invitation">
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <div className="minw0">
            <Text fw={600} className="break">
              {inv.workspace_name}
            </Text>
            <Text size="sm" c="dimmed">
              {t("invitations.role", { role: t(`members.roles.${inv.role}`) })}
            </Text>
            {!inv.expired && (
              <Text size="xs" c="dimmed" data-testid="invitation-expires">
                {t("invitations.expires", { date: until })}
              </Text>
            )}
          </div>
          <Group gap="xs">
            <ConfirmButton
              variant="default"
              color="gray"
              size="xs"
              loading={decline.isPending}
              question={t("invitations.confirmDecline", { name: inv.workspace_name })}
              onConfirm={() => decline.mutate()}
            >
              {t("invitations.decline")}
            </ConfirmButton>
            {!inv.expired && (
              <Button size="xs" loading={accept.isPending} onClick={() => accept.mutate()} data-testid="accept-invitation">
                {t("invitations.accept")}
              </Button>
            )}
          </Group>
        </Group>
        {inv.expired && (
          <Alert color="yellow" data-testid="invitation-expired">
            {inv.invited_by
              ? t("invitations.expired", { date: until, inviter: inv.invited_by })
              : t("invitations.expiredNoInviter", { date: until, name: inv.workspace_name })}
          </Alert>
        )}
        <FormError error={accept.error ?? decline.error} />
      </Stack>
    </Card>
  );
}
