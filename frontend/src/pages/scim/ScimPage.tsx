// SCIM provisioning for the workspace's owners (plans with sso): the base URL and the tokens to
// paste into Okta or Microsoft Entra ID (each shown once), revoking them, and which of the
// provider's groups give which role.
import { Alert, Button, Card, Code, Group, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "../../api/client";
import { CopyShort } from "../../components/CopyShort";
import { DataTable } from "../../components/DataTable";
import { ConfirmButton } from "../../components/confirm";
import { notifyDone } from "../../components/notify";
import { UpgradeHint, usePlan } from "../../components/plan";
import { Empty, ErrorState, FormError, Loading, Queried, fieldError } from "../../components/states";
import i18n from "../../i18n";
import { formatDateTime } from "../../lib/format";
import { useSession } from "../../session";

export default function ScimPage() {
  const { t } = useTranslation();
  const { workspace } = useSession();
  const plan = usePlan();
  const owner = workspace.role === "owner";
  return (
    <Stack maw={900}>
      <Title order={2}>{t("scim.title")}</Title>
      <Text size="sm" c="dimmed">
        {t("scim.intro")}
      </Text>
      {!owner ? (
        <Alert>{t("scim.ownerOnly")}</Alert>
      ) : plan.isError ? (
        <ErrorState error={plan.error} retry={() => void plan.refetch()} />
      ) : !plan.data ? (
        <Loading />
      ) : !plan.data.features.sso ? (
        <UpgradeHint feature="sso" label={t("scim.title")} />
      ) : (
        <>
          <ScimTokens key={workspace.id} />
          <ScimRoles key={`roles-${workspace.id}`} />
        </>
      )}
    </Stack>
  );
}

function ScimTokens() {
  const { t } = useTranslation();
  const { workspace } = useSession();
  const ws = workspace.id;
  const client = useQueryClient();
  const [name, setName] = useState("");
  const tokens = useQuery({
    queryKey: [ws, "scim-tokens"],
    queryFn: () => unwrap(api.GET("/api/v1/workspaces/{workspace}/scim-tokens", { params: { path: { workspace: ws } } })),
  });
  const create = useMutation({
    mutationFn: () =>
      unwrap(api.POST("/api/v1/workspaces/{workspace}/scim-tokens", { params: { path: { workspace: ws } }, body: { name: name.trim() || undefined } })),
    onSuccess: (tok) => {
      setName("");
      void client.invalidateQueries({ queryKey: [ws, "scim-tokens"] });
      notifyDone(t("scim.created", { name: tok.name }));
    },
  });
  const revoke = useMutation({
    mutationFn: ({ id }: { id: number; name: string }) =>
      unwrap(api.DELETE("/api/v1/workspaces/{workspace}/scim-tokens/{id}", { params: { path: { workspace: ws, id } } })),
    onSuccess: (_, v) => {
      void client.invalidateQueries({ queryKey: [ws, "scim-tokens"] });
      notifyDone(t("scim.revoked", { name: v.name }));
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <Stack>
      <Queried query={tokens}>
        {(data) => (
          <Card withBorder>
            <Stack gap={4}>
              <Text fw={500}>{t("scim.url")}</Text>
              <Text size="sm" c="dimmed">
                {t("scim.urlHelp")}
              </Text>
              <Group gap="xs" wrap="nowrap">
                <Code className="break" data-testid="scim-url">
                  {data.url}
                </Code>
                <CopyShort url={data.url} />
              </Group>
            </Stack>
          </Card>
        )}
      </Queried>
      <Card withBorder>
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <TextInput
              label={t("scim.name")}
              description={t("scim.nameHelp")}
              placeholder="Okta"
              value={name}
              maxLength={100}
              onChange={(e) => setName(e.currentTarget.value)}
              error={fieldError(create.error, "name")}
              data-testid="scim-token-name"
            />
            <FormError error={create.error} fields={["name"]} />
            <Button type="submit" w="fit-content" loading={create.isPending} data-testid="create-scim-token">
              {t("scim.create")}
            </Button>
          </Stack>
        </form>
      </Card>
      {create.data && (
        <Alert color="teal" title={t("scim.shownOnce")} data-testid="new-scim-token">
          <Group gap="xs" wrap="nowrap">
            <Code className="break">{create.data.token}</Code>
            <CopyShort url={create.data.token} />
          </Group>
        </Alert>
      )}
      <FormError error={revoke.error} />
      <Queried query={tokens}>
        {(data) =>
          data.scim_tokens.length === 0 ? (
            <Empty title={t("scim.empty")} />
          ) : (
            <DataTable head={[t("scim.name"), t("scim.createdAt"), t("scim.lastUsed"), null]} wholeTitles>
              {data.scim_tokens.map((k) => (
                <Table.Tr key={k.id}>
                  <Table.Td>
                    <Text size="sm">{k.name}</Text>
                    <Text size="xs" c="dimmed" className="mono">
                      {k.prefix}…
                    </Text>
                  </Table.Td>
                  <Table.Td className="keep-words" data-testid="scim-token-created">
                    {formatDateTime(k.created_at, i18n.resolvedLanguage)}
                  </Table.Td>
                  <Table.Td className="keep-words">{k.last_used_at ? formatDateTime(k.last_used_at, i18n.resolvedLanguage) : t("scim.never")}</Table.Td>
                  <Table.Td>
                    <ConfirmButton size="xs" variant="subtle" question={t("scim.confirmRevoke", { name: k.name })} onConfirm={() => revoke.mutate({ id: k.id, name: k.name })}>
                      {t("scim.revoke")}
                    </ConfirmButton>
                  </Table.Td>
                </Table.Tr>
              ))}
            </DataTable>
          )
        }
      </Queried>
    </Stack>
  );
}

/** The provider's groups that give a role: the owner's mapping (set through the API), or the
 * rule that holds without one, so that the page never claims the names admin, member and viewer
 * decide when a mapping does. */
function ScimRoles() {
  const { t } = useTranslation();
  const { workspace } = useSession();
  const ws = workspace.id;
  const roles = useQuery({
    queryKey: [ws, "scim-roles"],
    queryFn: () => unwrap(api.GET("/api/v1/workspaces/{workspace}/scim-roles", { params: { path: { workspace: ws } } })),
  });
  return (
    <Card withBorder data-testid="scim-roles">
      <Stack gap="xs">
        <Title order={3} size="h4">
          {t("scim.roles.title")}
        </Title>
        <Queried query={roles}>
          {(data) => {
            const groups = Object.entries(data.mappings).sort(([a], [b]) => a.localeCompare(b));
            return groups.length === 0 ? (
              <Text size="sm">{t("scim.roles.default")}</Text>
            ) : (
              <>
                <Text size="sm">{t("scim.roles.mapped")}</Text>
                <DataTable head={[t("scim.roles.group"), t("scim.roles.role")]} wholeTitles>
                  {groups.map(([group, role]) => (
                    <Table.Tr key={group} data-testid="scim-role">
                      <Table.Td className="break">{group}</Table.Td>
                      <Table.Td className="nowrap">{t(`members.roles.${role}`)}</Table.Td>
                    </Table.Tr>
                  ))}
                </DataTable>
              </>
            );
          }}
        </Queried>
      </Stack>
    </Card>
  );
}
