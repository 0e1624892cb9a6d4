// Workspace API keys: created with scopes, shown once, revocable.
import { Alert, Button, Card, Checkbox, Code, Group, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "../../api/client";
import { CopyShort } from "../../components/CopyShort";
import { DataTable } from "../../components/DataTable";
import { useCanManage } from "../../components/plan";
import { ConfirmButton } from "../../components/confirm";
import { Empty, FormError, Queried, fieldError } from "../../components/states";
import i18n from "../../i18n";
import { formatDateTime } from "../../lib/format";
import { notifyDone } from "../../components/notify";
import { useWorkspaceId } from "../../session";

const scopes = ["links:read", "links:write", "stats:read"] as const;
type Scope = (typeof scopes)[number];

export default function ApiKeysPage() {
  const { t } = useTranslation();
  const ws = useWorkspaceId();
  const client = useQueryClient();
  const canManage = useCanManage();
  const [name, setName] = useState("");
  const [chosen, setChosen] = useState<Scope[]>(["links:read", "links:write", "stats:read"]);
  const [problems, setProblems] = useState<{ name?: string; scopes?: string }>({});
  const keys = useQuery({
    queryKey: [ws, "api-keys"],
    queryFn: () => unwrap(api.GET("/api/v1/workspaces/{workspace}/api-keys", { params: { path: { workspace: ws } } })),
    enabled: canManage,
  });
  const create = useMutation({
    mutationFn: () => unwrap(api.POST("/api/v1/workspaces/{workspace}/api-keys", { params: { path: { workspace: ws } }, body: { name: name.trim(), scopes: chosen } })),
    onSuccess: (k) => {
      setName("");
      void client.invalidateQueries({ queryKey: [ws, "api-keys"] });
      notifyDone(t("keys.created", { name: k.name }));
    },
  });
  const revoke = useMutation({
    mutationFn: ({ id }: { id: number; name: string }) =>
      unwrap(api.DELETE("/api/v1/workspaces/{workspace}/api-keys/{id}", { params: { path: { workspace: ws, id } } })),
    onSuccess: (_, v) => {
      void client.invalidateQueries({ queryKey: [ws, "api-keys"] });
      notifyDone(t("keys.revoked", { name: v.name }));
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const p = {
      name: !name.trim() || name.trim().length > 100 ? t("validation.keyName") : undefined,
      scopes: chosen.length === 0 ? t("validation.scopes") : undefined,
    };
    setProblems(p);
    if (!p.name && !p.scopes) create.mutate();
  };
  if (!canManage) return <Alert>{t("keys.needManage")}</Alert>;
  return (
    <Stack maw={900}>
      <Title order={2}>{t("keys.title")}</Title>
      <Card withBorder>
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <TextInput
              label={t("keys.name")}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={problems.name ?? fieldError(create.error, "name")}
              data-testid="key-name"
            />
            <Checkbox.Group label={t("keys.scopes")} value={chosen} onChange={(v) => setChosen(v as Scope[])} error={problems.scopes ?? fieldError(create.error, "scopes")}>
              <Group mt="xs">
                {scopes.map((s) => (
                  <Checkbox key={s} value={s} label={s} />
                ))}
              </Group>
            </Checkbox.Group>
            <FormError error={create.error} fields={["name", "scopes"]} />
            <Button type="submit" w="fit-content" loading={create.isPending} data-testid="create-key">
              {t("keys.create")}
            </Button>
          </Stack>
        </form>
      </Card>
      {create.data && (
        <Alert color="teal" title={t("keys.shownOnce")} data-testid="new-key">
          <Group gap="xs" wrap="nowrap">
            <Code className="break">{create.data.key}</Code>
            <CopyShort url={create.data.key} />
          </Group>
        </Alert>
      )}
      <FormError error={revoke.error} />
      <Queried query={keys}>
        {(data) =>
          data.api_keys.length === 0 ? (
            <Empty title={t("keys.empty")} />
          ) : (
            <DataTable head={[t("keys.name"), t("keys.scopes"), t("keys.lastUsed"), null]}>
              {data.api_keys.map((k) => (
                <Table.Tr key={k.id}>
                  <Table.Td>
                    <Text size="sm">{k.name}</Text>
                    <Text size="xs" c="dimmed" className="mono">{k.prefix}…</Text>
                  </Table.Td>
                  <Table.Td>{k.scopes.join(", ")}</Table.Td>
                  <Table.Td>{k.last_used_at ? formatDateTime(k.last_used_at, i18n.resolvedLanguage) : t("keys.never")}</Table.Td>
                  <Table.Td>
                    <ConfirmButton size="xs" variant="subtle" question={t("keys.confirmRevoke", { name: k.name })} onConfirm={() => revoke.mutate({ id: k.id, name: k.name })}>
                      {t("keys.revoke")}
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
