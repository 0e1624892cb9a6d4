// The workspace's custom domains (docs/domains-and-imports.md): add a host name, prove it with the TXT record shown,
// verify now, set where the root sends visitors, remove. Needs the plan's custom_domains.
import { Badge, Button, Card, Group, Stack, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "../../api/client";
import { UpgradeHint, useCanManage, usePlan } from "../../components/plan";
import { ConfirmButton } from "../../components/confirm";
import { notifyDone } from "../../components/notify";
import { RecordLine } from "../../components/RecordLine";
import { Empty, ErrorState, FormError, Loading, fieldError } from "../../components/states";
import { useDomains } from "../../components/useDomains";
import { checkHostname, domainState, type Domain } from "../../lib/domains";
import { formatDateTime } from "../../lib/format";
import { checkURL } from "../../lib/validate";
import { useWorkspaceId } from "../../session";
import { AppLinks } from "./AppLinks";

const stateColor = { verified: "green", pending: "orange", unchecked: "gray" } as const;

export default function DomainsPage() {
  const { t } = useTranslation();
  const ws = useWorkspaceId();
  const client = useQueryClient();
  const plan = usePlan();
  const canManage = useCanManage();
  const domains = useDomains();
  const [hostname, setHostname] = useState("");
  const [problem, setProblem] = useState<string>();
  const add = useMutation({
    mutationFn: (h: string) => unwrap(api.POST("/api/v1/workspaces/{workspace}/domains", { params: { path: { workspace: ws } }, body: { hostname: h } })),
    onSuccess: (d) => {
      setHostname("");
      notifyDone(t("toasts.domainAdded", { hostname: d.hostname }));
      void client.invalidateQueries({ queryKey: [ws, "domains"] });
      void client.invalidateQueries({ queryKey: [ws, "plan"] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const p = checkHostname(hostname);
    setProblem(p ? t(`validation.${p.key}`) : undefined);
    if (!p) add.mutate(hostname.trim());
  };
  const allowed = plan.data?.features.custom_domains;
  const limit = plan.data?.limits.custom_domains;
  const list = domains.data?.domains ?? [];

  return (
    <Stack maw={900}>
      <Title order={2}>{t("domains.title")}</Title>
      <Text size="sm" c="dimmed">
        {t("domains.intro")}
      </Text>
      {plan.isError && <ErrorState error={plan.error} retry={() => void plan.refetch()} />}
      {plan.data && !allowed && <UpgradeHint feature="custom_domains" />}
      {allowed && canManage && (
        <Card withBorder>
          <form onSubmit={submit} noValidate>
            <Stack gap="xs">
              <Group align="flex-end" className="stack-phone">
                <TextInput
                  className="grow"
                  label={t("domains.hostname")}
                  description={t("domains.hostnameHelp")}
                  placeholder="go.example.com"
                  value={hostname}
                  onChange={(e) => setHostname(e.currentTarget.value)}
                  error={problem ?? fieldError(add.error, "hostname")}
                  autoCapitalize="none"
                  spellCheck={false}
                  data-testid="domain-hostname"
                />
                <Button type="submit" loading={add.isPending} data-testid="domain-add">
                  {t("domains.add")}
                </Button>
              </Group>
              {limit != null && plan.data && (
                <Text size="xs" c="dimmed">
                  {t("domains.usage", { used: list.length, limit })}
                </Text>
              )}
              <FormError error={add.error} fields={["hostname"]} />
            </Stack>
          </form>
        </Card>
      )}
      {allowed && !canManage && <Text size="sm">{t("plan.askOwner")}</Text>}
      {domains.isPending ? (
        <Loading />
      ) : domains.isError ? (
        <ErrorState error={domains.error} retry={() => void domains.refetch()} />
      ) : list.length === 0 ? (
        <Empty title={t("domains.empty")} />
      ) : (
        <Stack gap="sm" data-testid="domains-list">
          {list.map((d) => (
            <DomainCard key={d.id} domain={d} canManage={canManage} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

function DomainCard({ domain: d, canManage }: { domain: Domain; canManage: boolean }) {
  const { t, i18n } = useTranslation();
  const ws = useWorkspaceId();
  const client = useQueryClient();
  const state = domainState(d);
  const path = { workspace: ws, id: d.id };
  const [root, setRoot] = useState(d.root_url ?? "");
  const [rootProblem, setRootProblem] = useState<string>();
  const settle = (fresh?: Domain) => {
    if (fresh) client.setQueryData([ws, "domains"], (old: { domains: Domain[] } | undefined) => old && { domains: old.domains.map((x) => (x.id === fresh.id ? fresh : x)) });
    void client.invalidateQueries({ queryKey: [ws, "domains"] });
  };
  const verify = useMutation({
    mutationFn: () => unwrap(api.POST("/api/v1/workspaces/{workspace}/domains/{id}/verify", { params: { path } })),
    onSuccess: settle,
  });
  const patch = useMutation({
    mutationFn: (root_url: string | null) => unwrap(api.PATCH("/api/v1/workspaces/{workspace}/domains/{id}", { params: { path }, body: { root_url } })),
    onSuccess: (fresh) => {
      setRoot(fresh.root_url ?? "");
      notifyDone(t("toasts.saved"));
      settle(fresh);
    },
  });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE("/api/v1/workspaces/{workspace}/domains/{id}", { params: { path } })),
    onSuccess: () => {
      notifyDone(t("toasts.domainRemoved", { hostname: d.hostname }));
      void client.invalidateQueries({ queryKey: [ws, "domains"] });
      void client.invalidateQueries({ queryKey: [ws, "links"] });
      void client.invalidateQueries({ queryKey: [ws, "plan"] });
    },
  });
  const saveRoot = (e: FormEvent) => {
    e.preventDefault();
    const v = root.trim();
    const p = v ? checkURL(v) : undefined;
    setRootProblem(p ? t(`validation.${p.key}`, p.values) : undefined);
    if (!p) patch.mutate(v || null);
  };
  const when = (iso: string | null) => formatDateTime(iso, i18n.resolvedLanguage);

  return (
    <Card withBorder data-testid="domain" data-hostname={d.hostname}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs" className="minw0">
            <Text fw={600} className="mono break">
              {d.hostname}
            </Text>
            <Badge color={stateColor[state]} variant="light" data-testid="domain-state">
              {t(`domains.state.${state}`)}
            </Badge>
          </Group>
          {canManage && (
            <ConfirmButton
              size="xs"
              variant="subtle"
              loading={remove.isPending}
              question={t("domains.confirmRemove", { hostname: d.hostname })}
              onConfirm={() => remove.mutate()}
              data-testid="domain-remove"
            >
              {t("common.remove")}
            </ConfirmButton>
          )}
        </Group>
        {d.verified ? (
          <Text size="sm" c="dimmed">
            {t("domains.verifiedAt", { date: when(d.verified_at) })}
          </Text>
        ) : (
          <Stack gap="xs" data-testid="domain-pending">
            <Text size="sm">{t("domains.instructions")}</Text>
            <div className="subcard">
              <Stack gap={6}>
                <RecordLine label={t("domains.type")} value={d.verification.type} />
                <RecordLine label={t("domains.name")} value={d.verification.name} copy testid="txt-name" />
                <RecordLine label={t("domains.value")} value={d.verification.value} copy testid="txt-value" />
              </Stack>
            </div>
            {d.verification.checked_at && (
              <Text size="xs" c="dimmed">
                {t("domains.checkedAt", { date: when(d.verification.checked_at) })}
              </Text>
            )}
            {d.verification.problem && (
              <Text size="sm" c="orange.8" data-testid="domain-problem">
                {d.verification.problem_reason === "dns_lookup_failed"
                  ? t("domains.problemLookup")
                  : d.verification.problem_reason === "txt_record_missing"
                    ? t("domains.problemRecord", { name: d.verification.name })
                    : d.verification.problem}
              </Text>
            )}
            {canManage && (
              <Group>
                <Button size="xs" onClick={() => verify.mutate()} loading={verify.isPending} data-testid="domain-verify">
                  {t("domains.verify")}
                </Button>
              </Group>
            )}
            <FormError error={verify.error} />
          </Stack>
        )}
        {d.routing.length > 0 && (
          <Stack gap="xs" data-testid="domain-routing">
            <Text size="sm">{t("domains.routing", { count: d.routing.length })}</Text>
            {d.routing.map((r) => (
              <div className="subcard" key={r.type + r.value}>
                <Stack gap={6}>
                  <RecordLine label={t("domains.type")} value={r.type} />
                  <RecordLine label={t("domains.name")} value={r.name} copy testid={`routing-${r.type}-name`} />
                  <RecordLine label={t("domains.value")} value={r.value} copy testid={`routing-${r.type}`} />
                </Stack>
              </div>
            ))}
          </Stack>
        )}
        {canManage ? (
          <form onSubmit={saveRoot} noValidate>
            <Group align="flex-end" className="stack-phone" gap="xs">
              <TextInput
                className="grow"
                size="xs"
                label={t("domains.rootUrl")}
                description={t("domains.rootUrlHelp")}
                placeholder="https://example.com/"
                value={root}
                onChange={(e) => setRoot(e.currentTarget.value)}
                error={rootProblem ?? fieldError(patch.error, "root_url")}
                data-testid="domain-root"
              />
              <Button size="xs" type="submit" variant="light" loading={patch.isPending && patch.variables !== null} data-testid="domain-root-save">
                {t("common.save")}
              </Button>
              {d.root_url && (
                <Button size="xs" variant="default" loading={patch.isPending && patch.variables === null} onClick={() => patch.mutate(null)} data-testid="domain-root-clear">
                  {t("domains.clearRoot")}
                </Button>
              )}
            </Group>
            <FormError error={patch.error} fields={["root_url"]} />
          </form>
        ) : (
          d.root_url && (
            <Text size="sm" className="break">
              {t("domains.rootUrl")}: {d.root_url}
            </Text>
          )
        )}
        {canManage && d.verified && <AppLinks ws={ws} id={d.id} />}
        <FormError error={remove.error} />
      </Stack>
    </Card>
  );
}

