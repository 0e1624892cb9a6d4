// Create or edit a link with every rule of docs/api.md's links, kept short: the main fields (destination,
// domain, alias, title), then folded sections for the rules. A section whose plan feature is
// missing says so in one line, with the plans that have it and the trial; the server refuses the
// rule anyway. The primary action stays in a bar at the bottom of the screen.
import {
  Accordion, ActionIcon, Alert, Badge, Button, Checkbox, Group, NativeSelect, NumberInput, Paper, PasswordInput, Stack, Switch, TagsInput, Text, Textarea, TextInput, Title,
} from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { IconLock, IconPlus, IconTrash } from "@tabler/icons-react";
import { useEffect, useRef, useState, type FocusEvent, type FormEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";
import { api, ApiError, unwrap, type Link, type PlanStatus } from "../../api/client";
import { UpgradeHint, usePlan, usePlans } from "../../components/plan";
import { notifyDone } from "../../components/notify";
import { plansWith } from "../../lib/plans";
import { ErrorState, FormError, Loading, fieldError } from "../../components/states";
import { useDomains } from "../../components/useDomains";
import { useTags } from "../../components/useTags";
import { verifiedHosts } from "../../lib/domains";
import {
  createBody, emptyLinkForm, fromLink, patchBody, sectionOf, sections, sectionsInUse, validateLinkForm,
  type Feature, type LinkFormErrors, type LinkFormState, type SectionId,
} from "../../lib/linkForm";
import { withScheme } from "../../lib/url";
import { UTMSection } from "./UTMSection";
import { useWorkspaceId } from "../../session";
import { LinkPreview } from "./LinkPreview";
import { tagSuggestions } from "../../components/tagSuggestions";

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
  const [open, setOpen] = useState<string[]>([]);
  const formRef = useRef<HTMLFormElement>(null);
  const refused = useRef(false);
  const set = (patch: Partial<LinkFormState>) => setS((prev) => ({ ...prev, ...patch }));
  const has = (f: Feature) => plan.features[f];
  const offers = usePlans();
  const unfold = (ids: (SectionId | undefined)[]) =>
    setOpen((o) => [...o, ...ids.filter((id): id is SectionId => !!id && !o.includes(id))]);

  const save = useMutation({
    mutationFn: async () => {
      if (!original) {
        return unwrap(api.POST("/api/v1/workspaces/{workspace}/links", { params: { path: { workspace: ws } }, body: createBody(s) }));
      }
      const body = patchBody(original, s);
      if (original.status !== "banned" && original.status !== "held" && status !== original.status) body.status = status as "active" | "disabled";
      return unwrap(api.PATCH("/api/v1/workspaces/{workspace}/links/{id}", { params: { path: { workspace: ws, id: original.id } }, body }));
    },
    onSuccess: (l) => {
      void client.invalidateQueries({ queryKey: [ws, "links"] });
      client.setQueryData([ws, "link", l.id], l);
      notifyDone(original ? t("toasts.linkSaved") : t("toasts.linkCreated", { url: l.short_url }));
      navigate(`/links/${l.id}`);
    },
    onError: (e) => {
      refused.current = true;
      if (e instanceof ApiError && e.field) unfold([sectionOf(e.field)]);
    },
  });

  // The inputs name their fields as they render: the server's error about one of them is shown
  // beside it, any other at the bottom.
  const placed = new Set<string>();
  const err = (field: string) => {
    placed.add(field);
    const p = errors[field];
    return p ? t(`validation.${p.key}`, p.values) : fieldError(save.error, field);
  };
  const serverField = save.error instanceof ApiError ? save.error.field : undefined;
  // A main field's message goes once it is changed: it was about the value before.
  const edited = (field: string) => {
    if (errors[field]) setErrors(({ [field]: _, ...rest }) => rest);
    if (serverField === field) save.reset();
  };

  // After a refusal (the form's checks or the server's), the first field in error comes into
  // view with the focus, so its message is read out and, on a phone, seen; not while typing.
  useEffect(() => {
    if (!refused.current) return;
    refused.current = false;
    const bad = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (!bad) return;
    bad.focus({ preventScroll: true });
    bad.scrollIntoView({ block: "center", behavior: "smooth" });
  }, [errors, save.error]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = validateLinkForm(s, editing);
    setErrors(found);
    refused.current = Object.keys(found).length > 0;
    unfold(Object.keys(found).map(sectionOf));
    if (Object.keys(found).length === 0) save.mutate();
  };

  // A URL typed without a scheme shows the https:// it will have once the field is left.
  const schemed = (update: (url: string) => void) => (e: FocusEvent<HTMLInputElement>) => {
    const v = e.currentTarget.value;
    if (v.trim() && withScheme(v) !== v) update(withScheme(v));
  };

  const urlLocked = editing && !has("realtime_edit");
  const domains = useDomains(!editing && has("custom_domains"));
  const tags = useTags();
  const hosts = verifiedHosts(domains.data?.domains);
  const inUse = sectionsInUse(s, original?.has_password);
  const titles: Record<SectionId, string> = {
    limits: t("linkForm.limits"),
    password: t("linkForm.password"),
    ab: t("linkForm.abSection"),
    geo: t("linkForm.geoSection"),
    wechat: t("linkForm.wechat"),
    form: t("linkForm.form"),
    og: t("linkForm.og"),
    utm: t("utm.section"),
    redirect: t("linkForm.redirectSection"),
  };

  const inputs: Record<SectionId, () => ReactNode> = {
    limits: () => (
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
    ),
    password: () => (
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
      </Stack>
    ),
    ab: () => (
      <Stack gap="xs">
        <Text size="sm" fw={500}>
          {t("linkForm.variants")}
        </Text>
        <Text size="sm" c="dimmed">
          {t("linkForm.variantsHelp")}
        </Text>
        {s.variants.map((v, i) => {
          const update = (url: string) => set({ variants: s.variants.map((x, j) => (j === i ? { ...x, url } : x)) });
          return (
            <Group key={i} gap="xs" align="flex-start" wrap="nowrap" data-testid="variant">
              <TextInput
                className="grow"
                aria-label={t("linkForm.variantUrl", { n: i + 1 })}
                placeholder="https://example.com/a"
                value={v.url}
                onChange={(e) => update(e.currentTarget.value)}
                onBlur={schemed(update)}
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
          );
        })}
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
        <Text size="sm" fw={500} mt="sm">
          {t("linkForm.deviceTargets")}
        </Text>
        {(["ios", "android", "desktop"] as const).map((d) => {
          const update = (url: string) => set({ devices: { ...s.devices, [d]: url } });
          return (
            <TextInput
              key={d}
              label={t(`linkForm.device.${d}`)}
              placeholder="https://"
              value={s.devices[d]}
              onChange={(e) => update(e.currentTarget.value)}
              onBlur={schemed(update)}
              error={err(`device_targets.${d}`)}
            />
          );
        })}
        {err("device_targets") && <Text c="red" size="sm">{err("device_targets")}</Text>}
      </Stack>
    ),
    geo: () => (
      <Stack gap="xs">
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
        </Group>
        <Text size="sm" fw={500} mt="sm">
          {t("linkForm.countryTargets")}
        </Text>
        {s.countryTargets.map((c, i) => {
          const update = (url: string) => set({ countryTargets: s.countryTargets.map((x, j) => (j === i ? { ...x, url } : x)) });
          return (
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
                onChange={(e) => update(e.currentTarget.value)}
                onBlur={schemed(update)}
                error={err(`country_targets.${i}.url`)}
              />
              <ActionIcon variant="subtle" color="red" mt={6} aria-label={t("common.remove")} onClick={() => set({ countryTargets: s.countryTargets.filter((_, j) => j !== i) })}>
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          );
        })}
        {err("country_targets") && <Text c="red" size="sm">{err("country_targets")}</Text>}
        <Button variant="light" size="xs" w="fit-content" leftSection={<IconPlus size={14} />} onClick={() => set({ countryTargets: [...s.countryTargets, { country: "", url: "" }] })}>
          {t("linkForm.addCountry")}
        </Button>
      </Stack>
    ),
    wechat: () => (
      <Switch
        label={t("linkForm.wechatGuide")}
        checked={s.wechatGuide}
        onChange={(e) => set({ wechatGuide: e.currentTarget.checked })}
        error={err("wechat_guide")}
      />
    ),
    form: () => (
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
      </Stack>
    ),
    og: () => (
      <Stack gap="xs">
        <Text size="sm" c="dimmed">
          {t("linkForm.ogHelp")}
        </Text>
        <TextInput label={t("linkForm.ogTitle")} value={s.og.title} onChange={(e) => set({ og: { ...s.og, title: e.currentTarget.value } })} error={err("og.title")} />
        <Textarea label={t("linkForm.ogDescription")} autosize minRows={2} value={s.og.description} onChange={(e) => set({ og: { ...s.og, description: e.currentTarget.value } })} error={err("og.description")} />
        <TextInput
          label={t("linkForm.ogImage")}
          placeholder="https://"
          value={s.og.image}
          onChange={(e) => set({ og: { ...s.og, image: e.currentTarget.value } })}
          onBlur={schemed((image) => set({ og: { ...s.og, image } }))}
          error={err("og.image")}
        />
        {err("og") && <Text c="red" size="sm">{err("og")}</Text>}
      </Stack>
    ),
    utm: () => <UTMSection url={s.url} utm={s.utm} onChange={(utm) => set({ utm })} err={err} />,
    redirect: () => (
      <Stack gap="sm">
        <NativeSelect
          label={t("linkForm.redirectStatus")}
          value={s.redirectStatus}
          onChange={(e) => set({ redirectStatus: e.currentTarget.value as LinkFormState["redirectStatus"] })}
          data={[
            { value: "302", label: t("linkForm.r302") },
            { value: "301", label: t("linkForm.r301") },
            { value: "307", label: t("linkForm.r307") },
          ]}
          error={err("redirect_status")}
        />
        <Switch label={t("linkForm.forwardQuery")} checked={s.forwardQuery} onChange={(e) => set({ forwardQuery: e.currentTarget.checked })} />
      </Stack>
    ),
  };

  const main = (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm">
        <TextInput
          label={t("linkForm.url")}
          placeholder="https://example.com/page"
          value={s.url}
          onChange={(e) => {
            set({ url: e.currentTarget.value });
            edited("url");
          }}
          onBlur={schemed((url) => set({ url }))}
          error={err("url")}
          disabled={urlLocked}
          required
          autoFocus={!editing}
          inputMode="url"
          data-testid="link-url"
        />
        {urlLocked && <UpgradeHint feature="realtime_edit" compact />}
        {editing && original?.domain_removed && (
          <Alert color="orange" variant="light" data-testid="domain-removed">
            {t("links.domainRemovedHelp", { domain: original.domain })}
          </Alert>
        )}
        <Group grow className="stack-phone" align="flex-start">
          {!editing && hosts.length > 0 && (
            <NativeSelect
              label={t("linkForm.domain")}
              description={t("linkForm.domainHelp")}
              value={s.domain}
              onChange={(e) => {
                set({ domain: e.currentTarget.value });
                edited("domain");
              }}
              data={[{ value: "", label: t("linkForm.defaultDomain") }, ...hosts.map((h) => ({ value: h, label: h }))]}
              error={err("domain")}
              data-testid="link-domain"
            />
          )}
          {editing ? (
            // The code (or alias) of a link cannot change: shown, not offered.
            <TextInput
              label={original?.is_alias ? t("linkForm.alias") : t("linkForm.code")}
              description={t("linkForm.aliasFixed")}
              value={original?.code ?? ""}
              readOnly
              className="mono"
              data-testid="link-alias"
            />
          ) : (
            <TextInput
              label={t("linkForm.alias")}
              description={t("linkForm.aliasHelp")}
              value={s.alias}
              onChange={(e) => {
                set({ alias: e.currentTarget.value });
                edited("alias");
              }}
              error={err("alias")}
              autoCapitalize="off"
              autoCorrect="off"
              spellCheck={false}
              data-testid="link-alias"
            />
          )}
        </Group>
        <Group grow className="stack-phone" align="flex-start">
          <TextInput
            label={t("linkForm.titleField")}
            value={s.title}
            onChange={(e) => {
              set({ title: e.currentTarget.value });
              edited("title");
            }}
            error={err("title")}
          />
          {editing && original?.status !== "banned" && original?.status !== "held" && (
            <NativeSelect
              label={t("linkForm.status")}
              value={status}
              onChange={(e) => setStatus(e.currentTarget.value as "active" | "disabled")}
              data={[
                { value: "active", label: t("links.status.active") },
                { value: "disabled", label: t("links.status.disabled") },
              ]}
              error={err("status")}
            />
          )}
        </Group>
        <TagsInput
          label={t("linkForm.tags")}
          description={t("linkForm.tagsHelp")}
          value={s.tags}
          onChange={(tags) => {
            set({ tags });
            edited("tags");
          }}
          data={(tags.data?.tags ?? []).map((tg) => tg.name)}
          {...tagSuggestions}
          maxTags={20}
          splitChars={[",", ";"]}
          clearable
          error={err("tags")}
          data-testid="link-tags"
        />
      </Stack>
    </Paper>
  );

  const folded = (
    <Accordion multiple variant="contained" radius="md" value={open} onChange={setOpen} className="form-sections" chevronPosition="right">
      {sections.map(({ id, feature }) => {
        const locked = feature !== undefined && !has(feature);
        const cheapest = feature && offers.data ? plansWith(offers.data.plans, feature).find((p) => p !== "trial") : undefined;
        return (
          <Accordion.Item key={id} value={id} data-testid={`section-${id}`}>
            <Accordion.Control>
              <Group gap="xs" wrap="nowrap">
                <Text size="sm" fw={500}>
                  {titles[id]}
                </Text>
                {locked && cheapest && (
                  <Badge size="sm" variant="light" color="yellow" leftSection={<IconLock size={11} aria-hidden />}>
                    {t(`plan.names.${cheapest}`)}
                  </Badge>
                )}
                {!locked && inUse.includes(id) && (
                  <Badge size="sm" variant="light" data-testid="section-set">
                    {t("linkForm.set")}
                  </Badge>
                )}
              </Group>
            </Accordion.Control>
            <Accordion.Panel>{locked ? <UpgradeHint feature={feature} compact /> : inputs[id]()}</Accordion.Panel>
          </Accordion.Item>
        );
      })}
    </Accordion>
  );

  return (
    <form ref={formRef} onSubmit={submit} noValidate data-testid="link-form">
      <Stack maw={760} gap="md">
        <Title order={2}>{editing ? t("linkForm.editTitle") : t("linkForm.newTitle")}</Title>
        {main}
        {folded}
        <LinkPreview form={s} existing={original?.short_url} />
        {Object.keys(errors).length > 0 && (
          <Alert color="red" role="alert" data-testid="form-invalid">
            {t("linkForm.fix")}
          </Alert>
        )}
        {(!serverField || !placed.has(serverField)) && <FormError error={save.error} />}
        <div className="form-actions">
          <Button type="submit" loading={save.isPending} data-testid="save-link">
            {editing ? t("common.save") : t("linkForm.create")}
          </Button>
          <Button variant="default" onClick={() => navigate(original ? `/links/${original.id}` : "/links")}>
            {t("common.cancel")}
          </Button>
        </div>
      </Stack>
    </form>
  );
}
