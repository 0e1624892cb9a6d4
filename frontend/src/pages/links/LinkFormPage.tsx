// Create or edit a link with every rule of §13.1. A rule the plan lacks shows the upgrade
// hint in place of its inputs; the server refuses it anyway.
import {
  ActionIcon, Alert, Button, Checkbox, Fieldset, Group, NativeSelect, NumberInput, PasswordInput, Stack, Switch, Text, Textarea, TextInput, Title,
} from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { IconPlus, IconTrash } from "@tabler/icons-react";
import { useState, type FormEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";
import { api, unwrap, type Link, type PlanStatus } from "../../api/client";
import { UpgradeHint, usePlan } from "../../components/plan";
import { ErrorState, FormError, Loading } from "../../components/states";
import { useDomains } from "../../components/useDomains";
import { verifiedHosts } from "../../lib/domains";
import {
  createBody, emptyLinkForm, fromLink, patchBody, ruleFeature, validateLinkForm, type Feature, type GatedRule, type LinkFormErrors, type LinkFormState,
} from "../../lib/linkForm";
import { useWorkspaceId } from "../../session";

export default function LinkFormPage() {
  const { id } = useParams();
  const ws = useWorkspaceId();
  const plan = usePlan();
  const link = useQuery({
    queryKey: [ws, "link", Number(id)],
    queryFn: () => unwrap(api.GET("/api/v1/workspaces/{workspace}/links/{id}", { params: { path: { workspace: ws, id: Number(id) } } })),
    enabled: id !== undefined,
  });
  if (plan.isPending || (id !== undefined && link.isPending)) return <Loading />;
  if (plan.isError) return <ErrorState error={plan.error} retry={() => void plan.refetch()} />;
  if (link.isError) return <ErrorState error={link.error} retry={() => void link.refetch()} />;
  return <LinkForm key={link.data?.id ?? "new"} original={link.data} plan={plan.data} />;
}

function LinkForm({ original, plan }: { original?: Link; plan: PlanStatus }) {
  const { t } = useTranslation();
  const ws = useWorkspaceId();
  const navigate = useNavigate();
  const client = useQueryClient();
  const editing = !!original;
  const [s, setS] = useState<LinkFormState>(() => (original ? fromLink(original) : emptyLinkForm()));
  const [status, setStatus] = useState(original?.status === "disabled" ? "disabled" : "active");
  const [errors, setErrors] = useState<LinkFormErrors>({});
  const set = (patch: Partial<LinkFormState>) => setS((prev) => ({ ...prev, ...patch }));
  const has = (f: Feature) => plan.features[f];
  const allowed = (r: GatedRule) => has(ruleFeature[r]);
  const err = (field: string) => {
    const p = errors[field];
    return p ? t(`validation.${p.key}`, p.values) : undefined;
  };

  const save = useMutation({
    mutationFn: async () => {
      if (!original) {
        return unwrap(api.POST("/api/v1/workspaces/{workspace}/links", { params: { path: { workspace: ws } }, body: createBody(s) }));
      }
      const body = patchBody(original, s);
      if (original.status !== "banned" && status !== original.status) body.status = status as "active" | "disabled";
      return unwrap(api.PATCH("/api/v1/workspaces/{workspace}/links/{id}", { params: { path: { workspace: ws, id: original.id } }, body }));
    },
    onSuccess: (l) => {
      void client.invalidateQueries({ queryKey: [ws, "links"] });
      client.setQueryData([ws, "link", l.id], l);
      navigate(`/links/${l.id}`);
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = validateLinkForm(s, editing);
    setErrors(found);
    if (Object.keys(found).length === 0) save.mutate();
  };

  const gated = (rule: GatedRule, children: ReactNode) => (allowed(rule) ? children : <UpgradeHint feature={ruleFeature[rule]} />);
  const urlLocked = editing && !has("realtime_edit");
  const domains = useDomains(!editing && has("custom_domains"));
  const hosts = verifiedHosts(domains.data?.domains);

  return (
    <form onSubmit={submit} noValidate data-testid="link-form">
      <Stack maw={820}>
        <Title order={2}>{editing ? t("linkForm.editTitle") : t("linkForm.newTitle")}</Title>

        <Fieldset legend={t("linkForm.basics")}>
          <Stack>
            <TextInput
              label={t("linkForm.url")}
              placeholder="https://example.com/page"
              value={s.url}
              onChange={(e) => set({ url: e.currentTarget.value })}
              error={err("url")}
              disabled={urlLocked}
              required
              data-testid="link-url"
            />
            {urlLocked && <UpgradeHint feature="realtime_edit" />}
            {!editing && hosts.length > 0 && (
              <NativeSelect
                label={t("linkForm.domain")}
                description={t("linkForm.domainHelp")}
                value={s.domain}
                onChange={(e) => set({ domain: e.currentTarget.value })}
                data={[{ value: "", label: t("linkForm.defaultDomain") }, ...hosts.map((h) => ({ value: h, label: h }))]}
                error={err("domain")}
                data-testid="link-domain"
              />
            )}
            {editing && original?.domain_removed && (
              <Alert color="orange" variant="light" data-testid="domain-removed">
                {t("links.domainRemovedHelp", { domain: original.domain })}
              </Alert>
            )}
            <Group grow className="stack-phone">
              <TextInput
                label={t("linkForm.alias")}
                description={editing ? undefined : t("linkForm.aliasHelp")}
                value={s.alias}
                onChange={(e) => set({ alias: e.currentTarget.value })}
                error={err("alias")}
                disabled={editing}
                data-testid="link-alias"
              />
              <TextInput label={t("linkForm.titleField")} value={s.title} onChange={(e) => set({ title: e.currentTarget.value })} error={err("title")} />
            </Group>
            <Group grow className="stack-phone">
              <NativeSelect
                label={t("linkForm.redirectStatus")}
                value={s.redirectStatus}
                onChange={(e) => set({ redirectStatus: e.currentTarget.value as LinkFormState["redirectStatus"] })}
                data={[
                  { value: "302", label: t("linkForm.r302") },
                  { value: "301", label: t("linkForm.r301") },
                  { value: "307", label: t("linkForm.r307") },
                ]}
              />
              {editing && original?.status !== "banned" && (
                <NativeSelect
                  label={t("linkForm.status")}
                  value={status}
                  onChange={(e) => setStatus(e.currentTarget.value as "active" | "disabled")}
                  data={[
                    { value: "active", label: t("links.status.active") },
                    { value: "disabled", label: t("links.status.disabled") },
                  ]}
                />
              )}
            </Group>
            <Switch label={t("linkForm.forwardQuery")} checked={s.forwardQuery} onChange={(e) => set({ forwardQuery: e.currentTarget.checked })} />
          </Stack>
        </Fieldset>

        <Fieldset legend={t("linkForm.limits")}>
          <Group grow className="stack-phone" align="flex-start">
            <TextInput
              type="datetime-local"
              label={t("linkForm.expiresAt")}
              value={s.expiresAt}
              onChange={(e) => set({ expiresAt: e.currentTarget.value })}
              error={err("expires_at")}
            />
            <TextInput
              inputMode="numeric"
              label={t("linkForm.maxVisits")}
              description={t("linkForm.maxVisitsHelp")}
              value={s.maxVisits}
              onChange={(e) => set({ maxVisits: e.currentTarget.value })}
              error={err("max_visits")}
            />
          </Group>
        </Fieldset>

        <Fieldset legend={t("linkForm.password")} data-testid="section-password">
          {gated(
            "password",
            <Stack gap="xs">
              <PasswordInput
                label={editing && original?.has_password ? t("linkForm.newPassword") : t("linkForm.passwordField")}
                description={t("linkForm.passwordHelp")}
                autoComplete="new-password"
                value={s.password}
                onChange={(e) => set({ password: e.currentTarget.value })}
                error={err("password")}
                data-testid="link-password"
              />
              {editing && original?.has_password && (
                <Checkbox label={t("linkForm.removePassword")} checked={s.removePassword} onChange={(e) => set({ removePassword: e.currentTarget.checked })} />
              )}
            </Stack>,
          )}
        </Fieldset>

        <Fieldset legend={t("linkForm.variants")} data-testid="section-variants">
          {gated(
            "variants",
            <Stack gap="xs">
              <Text size="sm" c="dimmed">
                {t("linkForm.variantsHelp")}
              </Text>
              {s.variants.map((v, i) => (
                <Group key={i} gap="xs" align="flex-start" wrap="nowrap" data-testid="variant">
                  <TextInput
                    className="grow"
                    aria-label={t("linkForm.variantUrl", { n: i + 1 })}
                    placeholder="https://example.com/a"
                    value={v.url}
                    onChange={(e) => {
                      const url = e.currentTarget.value;
                      set({ variants: s.variants.map((x, j) => (j === i ? { ...x, url } : x)) });
                    }}
                    error={err(`variants.${i}.url`)}
                  />
                  <NumberInput
                    w={90}
                    aria-label={t("linkForm.weight", { n: i + 1 })}
                    min={1}
                    max={100}
                    value={v.weight}
                    onChange={(val) => set({ variants: s.variants.map((x, j) => (j === i ? { ...x, weight: String(val) } : x)) })}
                    error={err(`variants.${i}.weight`)}
                  />
                  <ActionIcon variant="subtle" color="red" mt={6} aria-label={t("common.remove")} onClick={() => set({ variants: s.variants.filter((_, j) => j !== i) })}>
                    <IconTrash size={16} />
                  </ActionIcon>
                </Group>
              ))}
              {err("variants") && <Text c="red" size="sm">{err("variants")}</Text>}
              <Button
                variant="light"
                size="xs"
                leftSection={<IconPlus size={14} />}
                disabled={s.variants.length >= 10}
                onClick={() => set({ variants: [...s.variants, { url: "", weight: "50" }] })}
                data-testid="add-variant"
                w="fit-content"
              >
                {t("linkForm.addVariant")}
              </Button>
            </Stack>,
          )}
        </Fieldset>

        <Fieldset legend={t("linkForm.deviceTargets")}>
          {gated(
            "device_targets",
            <Stack gap="xs">
              {(["ios", "android", "desktop"] as const).map((d) => (
                <TextInput
                  key={d}
                  label={t(`linkForm.device.${d}`)}
                  placeholder="https://"
                  value={s.devices[d]}
                  onChange={(e) => set({ devices: { ...s.devices, [d]: e.currentTarget.value } })}
                  error={err(`device_targets.${d}`)}
                />
              ))}
            </Stack>,
          )}
        </Fieldset>

        <Fieldset legend={t("linkForm.geo")}>
          {gated(
            "geo",
            <Group grow className="stack-phone" align="flex-start">
              <NativeSelect
                label={t("linkForm.geoMode")}
                value={s.geoMode}
                onChange={(e) => set({ geoMode: e.currentTarget.value as LinkFormState["geoMode"] })}
                data={[
                  { value: "off", label: t("linkForm.geoOff") },
                  { value: "allow", label: t("linkForm.geoAllow") },
                  { value: "deny", label: t("linkForm.geoDeny") },
                ]}
              />
              <TextInput
                label={t("linkForm.countries")}
                description={t("linkForm.countriesHelp")}
                placeholder="CN, US, DE"
                disabled={s.geoMode === "off"}
                value={s.geoCountries}
                onChange={(e) => set({ geoCountries: e.currentTarget.value })}
                error={err("geo")}
              />
            </Group>,
          )}
        </Fieldset>

        <Fieldset legend={t("linkForm.countryTargets")}>
          {gated(
            "country_targets",
            <Stack gap="xs">
              {s.countryTargets.map((c, i) => (
                <Group key={i} gap="xs" align="flex-start" wrap="nowrap">
                  <TextInput
                    w={80}
                    aria-label={t("linkForm.country")}
                    placeholder="DE"
                    value={c.country}
                    onChange={(e) => {
                      const country = e.currentTarget.value;
                      set({ countryTargets: s.countryTargets.map((x, j) => (j === i ? { ...x, country } : x)) });
                    }}
                    error={err(`country_targets.${i}.country`)}
                  />
                  <TextInput
                    className="grow"
                    aria-label={t("linkForm.url")}
                    placeholder="https://"
                    value={c.url}
                    onChange={(e) => {
                      const url = e.currentTarget.value;
                      set({ countryTargets: s.countryTargets.map((x, j) => (j === i ? { ...x, url } : x)) });
                    }}
                    error={err(`country_targets.${i}.url`)}
                  />
                  <ActionIcon variant="subtle" color="red" mt={6} aria-label={t("common.remove")} onClick={() => set({ countryTargets: s.countryTargets.filter((_, j) => j !== i) })}>
                    <IconTrash size={16} />
                  </ActionIcon>
                </Group>
              ))}
              <Button variant="light" size="xs" w="fit-content" leftSection={<IconPlus size={14} />} onClick={() => set({ countryTargets: [...s.countryTargets, { country: "", url: "" }] })}>
                {t("linkForm.addCountry")}
              </Button>
            </Stack>,
          )}
        </Fieldset>

        <Fieldset legend={t("linkForm.wechat")}>
          {gated(
            "wechat_guide",
            <Switch label={t("linkForm.wechatGuide")} checked={s.wechatGuide} onChange={(e) => set({ wechatGuide: e.currentTarget.checked })} />,
          )}
        </Fieldset>

        <Fieldset legend={t("linkForm.form")}>
          {gated(
            "form",
            <Stack gap="sm">
              <Text size="sm" c="dimmed">
                {t("linkForm.formHelp")}
              </Text>
              {s.formFields.map((f, i) => {
                const update = (patch: Partial<typeof f>) => set({ formFields: s.formFields.map((x, j) => (j === i ? { ...x, ...patch } : x)) });
                return (
                  <Stack key={i} gap="xs" className="subcard">
                    <Group grow className="stack-phone" align="flex-start">
                      <TextInput label={t("linkForm.fieldName")} value={f.name} onChange={(e) => update({ name: e.currentTarget.value })} error={err(`form.${i}.name`)} />
                      <TextInput label={t("linkForm.fieldLabel")} value={f.label} onChange={(e) => update({ label: e.currentTarget.value })} error={err(`form.${i}.label`)} />
                      <NativeSelect
                        label={t("linkForm.fieldType")}
                        value={f.type}
                        onChange={(e) => update({ type: e.currentTarget.value as typeof f.type })}
                        data={(["text", "phone", "email", "choice"] as const).map((v) => ({ value: v, label: t(`linkForm.types.${v}`) }))}
                      />
                    </Group>
                    {f.type === "choice" && (
                      <Textarea label={t("linkForm.options")} description={t("linkForm.optionsHelp")} autosize minRows={2} value={f.options} onChange={(e) => update({ options: e.currentTarget.value })} error={err(`form.${i}.options`)} />
                    )}
                    <Group justify="space-between">
                      <Checkbox label={t("linkForm.required")} checked={f.required} onChange={(e) => update({ required: e.currentTarget.checked })} />
                      <Button variant="subtle" color="red" size="xs" onClick={() => set({ formFields: s.formFields.filter((_, j) => j !== i) })}>
                        {t("common.remove")}
                      </Button>
                    </Group>
                  </Stack>
                );
              })}
              {err("form") && <Text c="red" size="sm">{err("form")}</Text>}
              <Button
                variant="light"
                size="xs"
                w="fit-content"
                leftSection={<IconPlus size={14} />}
                disabled={s.formFields.length >= 10}
                onClick={() => set({ formFields: [...s.formFields, { name: "", label: "", type: "text", required: false, options: "" }] })}
              >
                {t("linkForm.addField")}
              </Button>
            </Stack>,
          )}
        </Fieldset>

        <Fieldset legend={t("linkForm.og")}>
          <Stack gap="xs">
            <Text size="sm" c="dimmed">
              {t("linkForm.ogHelp")}
            </Text>
            <TextInput label={t("linkForm.ogTitle")} value={s.og.title} onChange={(e) => set({ og: { ...s.og, title: e.currentTarget.value } })} error={err("og.title")} />
            <Textarea label={t("linkForm.ogDescription")} autosize minRows={2} value={s.og.description} onChange={(e) => set({ og: { ...s.og, description: e.currentTarget.value } })} error={err("og.description")} />
            <TextInput label={t("linkForm.ogImage")} placeholder="https://" value={s.og.image} onChange={(e) => set({ og: { ...s.og, image: e.currentTarget.value } })} error={err("og.image")} />
          </Stack>
        </Fieldset>

        {Object.keys(errors).length > 0 && (
          <Alert color="red" role="alert" data-testid="form-invalid">
            {t("linkForm.fix")}
          </Alert>
        )}
        <FormError error={save.error} />
        <Group>
          <Button type="submit" loading={save.isPending} data-testid="save-link">
            {editing ? t("common.save") : t("linkForm.create")}
          </Button>
          <Button variant="default" onClick={() => navigate(original ? `/links/${original.id}` : "/links")}>
            {t("common.cancel")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
