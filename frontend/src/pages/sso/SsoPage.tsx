// Single sign-on for the workspace's owners (plans with sso): the OpenID provider's issuer,
// client ID and secret (write-only), or the SAML provider's metadata (SamlFields), the email
// domain and the TXT record that proves it, the redirect URI or service provider to register,
// and "enforce" once the domain is proven.
import { Alert, Badge, Button, Card, Group, PasswordInput, SegmentedControl, Stack, Switch, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { api, ApiError, unwrap } from "../../api/client";
import type { components } from "../../api/schema";
import { ConfirmButton } from "../../components/confirm";
import { notifyDone } from "../../components/notify";
import { RecordLine } from "../../components/RecordLine";
import { UpgradeHint, usePlan } from "../../components/plan";
import { ErrorState, FormError, Loading, fieldError } from "../../components/states";
import { useSession } from "../../session";
import { SamlFields, SamlServiceProvider } from "./SamlFields";

type Settings = components["schemas"]["SSOSettings"];

export default function SsoPage() {
  const { t } = useTranslation();
  const { workspace } = useSession();
  const plan = usePlan();
  const owner = workspace.role === "owner";
  return (
    <Stack maw={820}>
      <Title order={2}>{t("sso.title")}</Title>
      <Text size="sm" c="dimmed">
        {t("sso.intro")}
      </Text>
      {!owner ? (
        <Alert>{t("sso.ownerOnly")}</Alert>
      ) : plan.isError ? (
        <ErrorState error={plan.error} retry={() => void plan.refetch()} />
      ) : !plan.data ? (
        <Loading />
      ) : !plan.data.features.sso ? (
        <UpgradeHint feature="sso" />
      ) : (
        <SsoSettings key={workspace.id} />
      )}
    </Stack>
  );
}

function SsoSettings() {
  const { t } = useTranslation();
  const { workspace } = useSession();
  const ws = workspace.id;
  const client = useQueryClient();
  const current = useQuery({
    queryKey: [ws, "sso"],
    queryFn: async () => {
      try {
        return await unwrap(api.GET("/api/v1/workspaces/{workspace}/sso", { params: { path: { workspace: ws } } }));
      } catch (e) {
        if (e instanceof ApiError && e.status === 404) return null; // not set up yet
        throw e;
      }
    },
  });
  const [form, setForm] = useState({ issuer: "", client_id: "", client_secret: "", email_domain: "", enforce: false });
  const [protocol, setProtocol] = useState<"oidc" | "saml">("oidc");
  const [metadataURL, setMetadataURL] = useState("");
  const [metadataFile, setMetadataFile] = useState<File | null>(null);
  const s = current.data;
  useEffect(() => {
    if (!s) return;
    const saml = s.protocol === "saml";
    setProtocol(saml ? "saml" : "oidc");
    setMetadataURL(s.idp_metadata_url);
    setMetadataFile(null);
    setForm({ issuer: saml ? "" : s.issuer, client_id: s.client_id, client_secret: "", email_domain: s.email_domain, enforce: s.enforce });
  }, [s]);
  const fresh = (next: Settings | null) => client.setQueryData([ws, "sso"], next);
  const save = useMutation({
    mutationFn: async () =>
      unwrap(
        api.PUT("/api/v1/workspaces/{workspace}/sso", {
          params: { path: { workspace: ws } },
          body:
            protocol === "saml"
              ? {
                  protocol,
                  email_domain: form.email_domain.trim(),
                  enforce: form.enforce,
                  ...(metadataFile ? { idp_metadata_xml: await metadataFile.text() } : metadataURL.trim() ? { idp_metadata_url: metadataURL.trim() } : {}),
                }
              : { ...form, protocol, issuer: form.issuer.trim(), client_id: form.client_id.trim(), email_domain: form.email_domain.trim() },
        }),
      ),
    onSuccess: (next) => {
      fresh(next);
      notifyDone(t("sso.saved"));
    },
  });
  const verify = useMutation({
    mutationFn: () => unwrap(api.POST("/api/v1/workspaces/{workspace}/sso/verify", { params: { path: { workspace: ws } } })),
    onSuccess: (next) => {
      fresh(next);
      if (next.verified) notifyDone(t("sso.verifiedNow", { domain: next.email_domain }));
    },
  });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE("/api/v1/workspaces/{workspace}/sso", { params: { path: { workspace: ws } } })),
    onSuccess: () => {
      fresh(null);
      setForm({ issuer: "", client_id: "", client_secret: "", email_domain: "", enforce: false });
      notifyDone(t("sso.removed"));
    },
  });
  if (current.isPending) return <Loading />;
  if (current.isError) return <ErrorState error={current.error} retry={() => void current.refetch()} />;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  const sameDomain = !!s && s.email_domain === form.email_domain.trim().toLowerCase().replace(/\.$/, "");
  const canEnforce = !!s?.verified && sameDomain;
  const set = (k: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) => {
    const v = k === "enforce" ? e.currentTarget.checked : e.currentTarget.value;
    setForm((f) => ({ ...f, [k]: v }));
  };
  return (
    <Stack>
      <Card withBorder>
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <SegmentedControl
              value={protocol}
              onChange={(v) => setProtocol(v === "saml" ? "saml" : "oidc")}
              data={[
                { value: "oidc", label: t("sso.protocolOidc") },
                { value: "saml", label: t("sso.protocolSaml") },
              ]}
              aria-label={t("sso.protocol")}
              data-testid="sso-protocol"
            />
            {protocol === "saml" ? (
              <>
                <SamlServiceProvider ws={ws} settings={s} />
                <SamlFields url={metadataURL} onUrl={setMetadataURL} file={metadataFile} onFile={setMetadataFile} settings={s} error={save.error} />
              </>
            ) : (
              <>
                <TextInput
                  label={t("sso.issuer")}
                  description={t("sso.issuerHelp")}
                  placeholder="https://login.example.com"
                  value={form.issuer}
                  onChange={set("issuer")}
                  error={fieldError(save.error, "issuer")}
                  autoCapitalize="none"
                  spellCheck={false}
                  required
                />
                <TextInput label={t("sso.clientId")} value={form.client_id} onChange={set("client_id")} error={fieldError(save.error, "client_id")} autoCapitalize="none" spellCheck={false} required />
                <PasswordInput
                  label={t("sso.clientSecret")}
                  description={s?.client_secret_set ? t("sso.secretKept") : t("sso.secretHelp")}
                  value={form.client_secret}
                  onChange={set("client_secret")}
                  error={fieldError(save.error, "client_secret")}
                  autoComplete="off"
                  required={!s?.client_secret_set}
                />
              </>
            )}
            <TextInput
              label={t("sso.emailDomain")}
              description={t("sso.emailDomainHelp")}
              placeholder="example.com"
              value={form.email_domain}
              onChange={set("email_domain")}
              error={fieldError(save.error, "email_domain")}
              autoCapitalize="none"
              spellCheck={false}
              required
            />
            <Switch
              label={t("sso.enforce")}
              description={canEnforce ? t("sso.enforceHelp") : t("sso.enforceNeedsProof")}
              checked={form.enforce}
              onChange={set("enforce")}
              disabled={!canEnforce && !form.enforce}
              error={fieldError(save.error, "enforce")}
            />
            <FormError error={save.error} fields={["issuer", "client_id", "client_secret", "email_domain", "enforce", "idp_metadata_url", "idp_metadata_xml"]} />
            <Group>
              <Button type="submit" loading={save.isPending}>
                {t("sso.save")}
              </Button>
            </Group>
          </Stack>
        </form>
      </Card>
      {s && (
        <Card withBorder data-testid="sso-domain">
          <Stack gap="sm">
            <Group gap="xs">
              <Title order={3} size="h4" className="mono break">
                {s.email_domain}
              </Title>
              <Badge color={s.verified ? "green" : "orange"} variant="light" data-testid="sso-state">
                {s.verified ? t("sso.proven") : t("sso.pending")}
              </Badge>
              {s.enforce && (
                <Badge color="blue" variant="light">
                  {t("sso.enforced")}
                </Badge>
              )}
            </Group>
            {!s.verified && (
              <>
                <Text size="sm">{t("sso.instructions")}</Text>
                <div className="subcard">
                  <Stack gap={6}>
                    <RecordLine labelWidth={72} label={t("domains.type")} value={s.verification.type} />
                    <RecordLine labelWidth={72} label={t("domains.name")} value={s.verification.name} copy testid="sso-txt-name" />
                    <RecordLine labelWidth={72} label={t("domains.value")} value={s.verification.value} copy testid="sso-txt-value" />
                  </Stack>
                </div>
                {s.verification.problem && (
                  <Text size="sm" fw={500} data-testid="sso-problem">
                    {s.verification.problem_reason === "dns_lookup_failed" ? t("domains.problemLookup") : t("domains.problemRecord", { name: s.verification.name })}
                  </Text>
                )}
                <Group>
                  <Button size="xs" onClick={() => verify.mutate()} loading={verify.isPending}>
                    {t("sso.verify")}
                  </Button>
                </Group>
                <FormError error={verify.error} />
              </>
            )}
            {s.protocol !== "saml" && (
              <>
                <Text size="sm">{t("sso.callbackHelp")}</Text>
                <div className="subcard">
                  <RecordLine labelWidth={72} label={t("sso.callback")} value={s.callback_url} copy testid="sso-callback" />
                </div>
              </>
            )}
            <Group>
              <ConfirmButton size="xs" variant="subtle" loading={remove.isPending} question={t("sso.confirmRemove", { domain: s.email_domain })} detail={t("sso.removeDetail")} onConfirm={() => remove.mutate()}>
                {t("sso.remove")}
              </ConfirmButton>
            </Group>
            <FormError error={remove.error} />
          </Stack>
        </Card>
      )}
    </Stack>
  );
}

