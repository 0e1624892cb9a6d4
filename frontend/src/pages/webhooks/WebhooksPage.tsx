// Workspace webhooks: subscribe a URL to events, the secret shown once, a test button and the
// delivery log of each webhook (Deliveries), each delivery with its request and answer and a Resend button.
import { Alert, Button, Card, Checkbox, Code, Group, Stack, Switch, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "../../api/client";
import { CopyShort } from "../../components/CopyShort";
import { UpgradeHint, useCanManage, usePlan } from "../../components/plan";
import { ConfirmButton } from "../../components/confirm";
import { Empty, ErrorState, FormError, Queried, fieldError } from "../../components/states";
import { notifyDone } from "../../components/notify";
import { useWorkspaceId } from "../../session";
import { Deliveries } from "./Deliveries";

const events = ["link.created", "link.updated", "link.deleted", "link.clicked", "link.banned", "domain.verified", "import.finished"] as const;
type Event = (typeof events)[number];

export default function WebhooksPage() {
  const { t } = useTranslation();
  const ws = useWorkspaceId();
  const client = useQueryClient();
  const canManage = useCanManage();
  const plan = usePlan();
  const allowed = plan.data?.features.webhooks;
  const [url, setUrl] = useState("");
  const [chosen, setChosen] = useState<Event[]>(["link.created", "link.updated", "link.deleted"]);
  const [problems, setProblems] = useState<{ url?: string; events?: string }>({});
  const [open, setOpen] = useState<number>();
  const hooks = useQuery({
    queryKey: [ws, "webhooks"],
    queryFn: () => unwrap(api.GET("/api/v1/workspaces/{workspace}/webhooks", { params: { path: { workspace: ws } } })),
    enabled: canManage && !!allowed,
  });
  // The list alone: an open delivery log refreshes itself.
  const refresh = () => void client.invalidateQueries({ queryKey: [ws, "webhooks"], exact: true });
  const create = useMutation({
    mutationFn: () => unwrap(api.POST("/api/v1/workspaces/{workspace}/webhooks", { params: { path: { workspace: ws } }, body: { url: url.trim(), events: chosen } })),
    onSuccess: () => {
      setUrl("");
      refresh();
      notifyDone(t("webhooks.created"));
    },
  });
  const edit = useMutation({
    mutationFn: ({ id, enabled }: { id: number; enabled: boolean }) =>
      unwrap(api.PATCH("/api/v1/workspaces/{workspace}/webhooks/{id}", { params: { path: { workspace: ws, id } }, body: { enabled } })),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: number) => unwrap(api.DELETE("/api/v1/workspaces/{workspace}/webhooks/{id}", { params: { path: { workspace: ws, id } } })),
    onSuccess: (_, id) => {
      setOpen(undefined);
      client.removeQueries({ queryKey: [ws, "webhooks", id] });
      refresh();
      notifyDone(t("webhooks.deleted"));
    },
  });
  const test = useMutation({
    mutationFn: (id: number) => unwrap(api.POST("/api/v1/workspaces/{workspace}/webhooks/{id}/test", { params: { path: { workspace: ws, id } } })),
    onSuccess: (r, id) => {
      setOpen(id);
      void client.invalidateQueries({ queryKey: [ws, "webhooks", id, "deliveries"] });
      notifyDone(r.delivery.status === "delivered" ? t("webhooks.testDelivered", { code: r.delivery.response_code }) : t("webhooks.testFailed"));
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const p = {
      url: !/^https?:\/\/\S+$/i.test(url.trim()) ? t("webhooks.urlProblem") : undefined,
      events: chosen.length === 0 ? t("webhooks.eventsProblem") : undefined,
    };
    setProblems(p);
    if (!p.url && !p.events) create.mutate();
  };
  if (!canManage) return <Alert>{t("webhooks.needManage")}</Alert>;
  return (
    <Stack maw={960}>
      <Title order={2}>{t("webhooks.title")}</Title>
      <Text size="sm" c="dimmed">{t("webhooks.intro")}</Text>
      {plan.isError && <ErrorState error={plan.error} retry={() => void plan.refetch()} />}
      {plan.data && !allowed && <UpgradeHint feature="webhooks" />}
      {allowed && (
        <>
          <Card withBorder>
            <form onSubmit={submit} noValidate>
              <Stack gap="sm">
                <TextInput
                  label={t("webhooks.url")}
                  placeholder="https://example.com/hooks/shortlink"
                  value={url}
                  onChange={(e) => setUrl(e.currentTarget.value)}
                  error={problems.url ?? fieldError(create.error, "url")}
                  data-testid="webhook-url"
                />
                <Checkbox.Group label={t("webhooks.events")} value={chosen} onChange={(v) => setChosen(v as Event[])} error={problems.events ?? fieldError(create.error, "events")}>
                  <Group mt="xs">
                    {events.map((e) => (
                      <Checkbox key={e} value={e} label={e} />
                    ))}
                  </Group>
                </Checkbox.Group>
                <FormError error={create.error} fields={["url", "events"]} />
                <Button type="submit" w="fit-content" loading={create.isPending} data-testid="create-webhook">
                  {t("webhooks.create")}
                </Button>
              </Stack>
            </form>
          </Card>
          {create.data && (
            <Alert color="teal" title={t("webhooks.secretShownOnce")} data-testid="new-webhook-secret">
              <Group gap="xs" wrap="nowrap">
                <Code className="break">{create.data.secret}</Code>
                <CopyShort url={create.data.secret} />
              </Group>
            </Alert>
          )}
          <FormError error={edit.error ?? remove.error ?? test.error} />
          <Queried query={hooks}>
            {(data) =>
              data.webhooks.length === 0 ? (
                <Empty title={t("webhooks.empty")} />
              ) : (
                <Stack>
                  {data.webhooks.map((h) => (
                    <Card withBorder key={h.id}>
                      <Stack gap="xs">
                        <Group justify="space-between" wrap="wrap">
                          <Text className="break mono" size="sm">{h.url}</Text>
                          <Switch
                            label={t("webhooks.enabled")}
                            checked={h.enabled}
                            onChange={(e) => edit.mutate({ id: h.id, enabled: e.currentTarget.checked })}
                          />
                        </Group>
                        <Text size="xs" c="dimmed">{h.events.join(", ")}</Text>
                        {!h.enabled && h.failures_in_row > 0 && (
                          <Text size="xs" c="red">{t("webhooks.disabledAfter", { count: h.failures_in_row })}</Text>
                        )}
                        <Group gap="xs">
                          <Button size="xs" variant="light" loading={test.isPending && test.variables === h.id} onClick={() => test.mutate(h.id)}>
                            {t("webhooks.test")}
                          </Button>
                          <Button size="xs" variant="subtle" onClick={() => setOpen(open === h.id ? undefined : h.id)}>
                            {open === h.id ? t("webhooks.hideDeliveries") : t("webhooks.showDeliveries")}
                          </Button>
                          <ConfirmButton size="xs" variant="subtle" color="red" question={t("webhooks.confirmDelete", { url: h.url })} onConfirm={() => remove.mutate(h.id)}>
                            {t("webhooks.delete")}
                          </ConfirmButton>
                        </Group>
                        {open === h.id && <Deliveries id={h.id} enabled={h.enabled} />}
                      </Stack>
                    </Card>
                  ))}
                </Stack>
              )
            }
          </Queried>
        </>
      )}
    </Stack>
  );
}
