// The workspace's settings: its name (owners and admins), and, for its owners, requiring
// two-factor sign-in of its members, the session policy, handing it to another member and
// deleting it.
import { Alert, Button, Card, Group, Modal, NativeSelect, Stack, Switch, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useNavigate } from "react-router";
import { api, unwrap } from "../../api/client";
import { ConfirmButton } from "../../components/confirm";
import { notifyDone } from "../../components/notify";
import { UpgradeHint, useCanManage, usePlan } from "../../components/plan";
import { fieldError, FormError, Loading } from "../../components/states";
import { checkWorkspaceName } from "../../lib/validate";
import { useMe, useSession } from "../../session";
import { SessionPolicyCard } from "./SessionPolicyCard";

export default function SettingsPage() {
  const { t } = useTranslation();
  const { workspace } = useSession();
  const canManage = useCanManage();
  const owner = workspace.role === "owner";
  return (
    <Stack maw={720}>
      <Title order={2}>{t("settings.title")}</Title>
      {/* Keyed by workspace: switching shows the other one's name, not a stale edit. */}
      {canManage ? <RenameCard key={workspace.id} /> : <Alert>{t("settings.readOnly")}</Alert>}
      {canManage && <LogoCard key={`logo-${workspace.id}`} />}
      {owner ? (
        <>
          <RequireTwoFactorCard key={`2fa-${workspace.id}`} />
          <SessionPolicyCard key={`sessions-${workspace.id}`} />
          <SsoCard />
          <TransferCard key={`transfer-${workspace.id}`} />
          <DeleteCard key={`delete-${workspace.id}`} />
        </>
      ) : (
        canManage && <Text size="sm" c="dimmed">{t("settings.ownerOnly")}</Text>
      )}
    </Stack>
  );
}

/** Where owners set up single sign-on and SCIM provisioning (pages of their own), or, on a plan
 * without them, which plans have them: as the cards beside it say, not a button to a page that
 * only says so. */
function SsoCard() {
  const { t } = useTranslation();
  const plan = usePlan();
  const allowed = plan.data?.features.sso ?? false;
  const part = (title: string, help: string, to: string, open: string, testid?: string) => (
    <Group justify="space-between" className="stack-phone">
      <Stack gap={4}>
        <Title order={3} size="h4">
          {title}
        </Title>
        <Text size="sm">{help}</Text>
        {plan.data && !allowed && <UpgradeHint feature="sso" label={title} compact />}
      </Stack>
      {allowed && (
        <Button component={Link} to={to} variant="light" data-testid={testid}>
          {open}
        </Button>
      )}
    </Group>
  );
  return (
    <Card withBorder data-testid="sso-card">
      <Stack gap="md">
        {part(t("sso.title"), t("sso.settingsHelp"), "/sso", t("sso.open"), "open-sso")}
        {part(t("scim.title"), t("scim.settingsHelp"), "/scim", t("scim.open"), "open-scim")}
      </Stack>
    </Card>
  );
}

/** A file's contents as a data: address. */
function dataURL(b: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result));
    r.onerror = () => reject(r.error ?? new Error("read failed"));
    r.readAsDataURL(b);
  });
}

/** The workspace's QR-code logo: a PNG of at most 100 kB (owners and admins). A link's QR card
 * without the logo it asks for sends here (/settings#qr-logo), which brings the card into view. */
function LogoCard() {
  const { t } = useTranslation();
  const { workspace } = useSession();
  const client = useQueryClient();
  const [version, setVersion] = useState(0);
  const card = useRef<HTMLElement>(null);
  const { hash } = useLocation();
  useEffect(() => {
    if (hash === "#qr-logo") card.current?.scrollIntoView({ block: "start" });
  }, [hash]);
  // The QR cards' question whether there is a logo is asked again.
  const changed = () => {
    setVersion((v) => v + 1);
    void client.invalidateQueries({ queryKey: [workspace.id, "logo"] });
  };
  const logo = useQuery({
    queryKey: [workspace.id, "logo", version],
    queryFn: async () => {
      const res = await api.GET("/api/v1/workspaces/{workspace}/logo", { params: { path: { workspace: workspace.id } }, parseAs: "blob" });
      // A data: address: the page's policy allows images from the app itself and data:, never blob:.
      return res.response.status === 200 && res.data ? dataURL(res.data as Blob) : null;
    },
  });
  const upload = useMutation({
    mutationFn: (file: File) =>
      unwrap(
        api.PUT("/api/v1/workspaces/{workspace}/logo", {
          params: { path: { workspace: workspace.id } },
          body: file as unknown as string,
          bodySerializer: (b: unknown) => b as Blob,
          headers: { "Content-Type": "image/png" },
        }),
      ),
    onSuccess: () => {
      changed();
      notifyDone(t("qrStyle.logoSaved"));
    },
  });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE("/api/v1/workspaces/{workspace}/logo", { params: { path: { workspace: workspace.id } } })),
    onSuccess: () => {
      changed();
      notifyDone(t("qrStyle.logoRemoved"));
    },
  });
  return (
    <Card withBorder component="section" aria-label={t("qrStyle.logoTitle")} id="qr-logo" ref={card}>
      <Stack gap="sm">
        <Title order={3} size="h4">
          {t("qrStyle.logoTitle")}
        </Title>
        <Text size="sm">{t("qrStyle.logoHelp")}</Text>
        {logo.data && <img src={logo.data} alt={t("qrStyle.logoTitle")} style={{ maxWidth: 96, maxHeight: 96 }} data-testid="logo-image" />}
        <Group className="stack-phone">
          <Button component="label" variant="default" loading={upload.isPending}>
            {t("qrStyle.logoUpload")}
            <input
              type="file"
              accept="image/png"
              hidden
              onChange={(e) => {
                const f = e.currentTarget.files?.[0];
                if (f) upload.mutate(f);
                e.currentTarget.value = "";
              }}
            />
          </Button>
          {logo.data && (
            <Button variant="subtle" color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
              {t("qrStyle.logoRemove")}
            </Button>
          )}
        </Group>
        <FormError error={upload.error ?? remove.error} />
      </Stack>
    </Card>
  );
}

function RenameCard() {
  const { t } = useTranslation();
  const { workspace } = useSession();
  const client = useQueryClient();
  const [name, setName] = useState(workspace.name);
  const [problem, setProblem] = useState<string>();
  const rename = useMutation({
    mutationFn: (n: string) => unwrap(api.PATCH("/api/v1/workspaces/{workspace}", { params: { path: { workspace: workspace.id } }, body: { name: n } })),
    onSuccess: async (ws) => {
      await client.invalidateQueries({ queryKey: ["me"] });
      setName(ws.name);
      notifyDone(t("settings.renamed", { name: ws.name }));
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const p = checkWorkspaceName(name);
    setProblem(p ? t(`validation.${p.key}`, p.values) : undefined);
    if (!p) rename.mutate(name.trim());
  };
  return (
    <Card withBorder>
      <form onSubmit={submit} noValidate>
        <Group align="flex-end" className="stack-phone">
          <TextInput
            className="grow"
            label={t("settings.name")}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={problem ?? fieldError(rename.error, "name")}
          />
          <Button type="submit" loading={rename.isPending} disabled={name.trim() === workspace.name}>
            {t("settings.saveName")}
          </Button>
        </Group>
        <FormError error={rename.error} fields={["name"]} />
      </form>
    </Card>
  );
}

/**
 * The workspace's demand for two-factor sign-in of its members: owners only, on plans with sso
 * (a lock hint on the others); turning it on needs the owner's own 2FA, which the server checks.
 */
function RequireTwoFactorCard() {
  const { t } = useTranslation();
  const { workspace } = useSession();
  const me = useMe();
  const plan = usePlan();
  const client = useQueryClient();
  const set = useMutation({
    mutationFn: (on: boolean) =>
      unwrap(api.PATCH("/api/v1/workspaces/{workspace}", { params: { path: { workspace: workspace.id } }, body: { require_2fa: on } })),
    onSuccess: async (ws) => {
      await client.invalidateQueries({ queryKey: ["me"] });
      notifyDone(ws.require_2fa ? t("settings.requireTwoFactorOn") : t("settings.requireTwoFactorOff"));
    },
  });
  const on = !!workspace.require_2fa;
  const allowed = plan.data?.features.sso ?? false;
  // Turning it on is asked first, with how many members it locks out.
  const [asking, setAsking] = useState(false);
  const members = useQuery({
    queryKey: [workspace.id, "members"],
    queryFn: () => unwrap(api.GET("/api/v1/workspaces/{workspace}/members", { params: { path: { workspace: workspace.id } } })),
    enabled: asking,
  });
  const lockedOut = members.data?.members.filter((m) => !m.two_factor).length;
  return (
    <Card withBorder component="section" aria-label={t("settings.requireTwoFactorTitle")}>
      <Stack gap="sm">
        <Title order={3} size="h4">
          {t("settings.requireTwoFactorTitle")}
        </Title>
        <Text size="sm">{t("settings.requireTwoFactorHelp")}</Text>
        {plan.isSuccess && !allowed && !on ? (
          <UpgradeHint feature="sso" label={t("settings.requireTwoFactorTitle")} compact />
        ) : (
          <>
            <Switch
              label={t("settings.requireTwoFactorSwitch")}
              checked={on}
              disabled={set.isPending || !plan.isSuccess}
              onChange={(e) => (e.currentTarget.checked ? setAsking(true) : set.mutate(false))}
              data-testid="require-2fa"
            />
            {/* lockScroll off: the scroll lock injects a <style> element, which the CSP refuses. */}
            <Modal opened={asking} onClose={() => setAsking(false)} title={t("settings.requireTwoFactorConfirm")} centered lockScroll={false}>
              <Stack gap="md">
                {lockedOut === undefined ? (
                  members.isPending ? <Loading /> : <FormError error={members.error} />
                ) : (
                  <Text size="sm" data-testid="require-2fa-lockout">
                    {lockedOut > 0 ? t("settings.requireTwoFactorLockout", { count: lockedOut }) : t("settings.requireTwoFactorNoLockout")}
                  </Text>
                )}
                <Group justify="flex-end" gap="sm">
                  <Button variant="default" onClick={() => setAsking(false)}>
                    {t("common.cancel")}
                  </Button>
                  <Button
                    data-autofocus
                    disabled={lockedOut === undefined}
                    data-testid="require-2fa-confirm"
                    onClick={() => {
                      setAsking(false);
                      set.mutate(true);
                    }}
                  >
                    {t("settings.requireTwoFactorYes")}
                  </Button>
                </Group>
              </Stack>
            </Modal>
            {!on && me.data?.two_factor === false && (
              <Text size="sm" c="dimmed">
                {t("settings.requireTwoFactorOwn")}
              </Text>
            )}
          </>
        )}
        <FormError error={set.error} />
      </Stack>
    </Card>
  );
}

function TransferCard() {
  const { t } = useTranslation();
  const { workspace, user } = useSession();
  const client = useQueryClient();
  const [to, setTo] = useState("");
  const members = useQuery({
    queryKey: [workspace.id, "members"],
    queryFn: () => unwrap(api.GET("/api/v1/workspaces/{workspace}/members", { params: { path: { workspace: workspace.id } } })),
  });
  const others = (members.data?.members ?? []).filter((m) => m.user_id !== user.id);
  const chosen = others.find((m) => String(m.user_id) === to);
  const transfer = useMutation({
    mutationFn: (id: number) =>
      unwrap(api.POST("/api/v1/workspaces/{workspace}/transfer", { params: { path: { workspace: workspace.id } }, body: { user_id: id } })),
    onSuccess: async (m) => {
      setTo("");
      await client.invalidateQueries({ queryKey: ["me"] });
      void client.invalidateQueries({ queryKey: [workspace.id, "members"] });
      notifyDone(t("settings.transferred", { email: m.email }));
    },
  });
  return (
    <Card withBorder>
      <Stack gap="sm">
        <Title order={3} size="h4">
          {t("settings.transferTitle")}
        </Title>
        <Text size="sm">{t("settings.transferHelp")}</Text>
        {members.isSuccess && others.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t("settings.noOtherMembers")}
          </Text>
        ) : (
          <Group align="flex-end" className="stack-phone">
            <NativeSelect
              className="grow"
              label={t("settings.newOwner")}
              value={to}
              onChange={(e) => setTo(e.currentTarget.value)}
              data={[{ value: "", label: t("settings.chooseMember") }, ...others.map((m) => ({ value: String(m.user_id), label: `${m.email} · ${t(`members.roles.${m.role}`)}` }))]}
            />
            <ConfirmButton
              color="orange"
              disabled={!chosen}
              loading={transfer.isPending}
              question={t("settings.confirmTransfer", { email: chosen?.email ?? "", name: workspace.name })}
              detail={t("settings.transferDetail")}
              onConfirm={() => chosen && transfer.mutate(chosen.user_id)}
            >
              {t("settings.transfer")}
            </ConfirmButton>
          </Group>
        )}
        <FormError error={members.error ?? transfer.error} />
      </Stack>
    </Card>
  );
}

function DeleteCard() {
  const { t } = useTranslation();
  const { workspace } = useSession();
  const client = useQueryClient();
  const navigate = useNavigate();
  const [typed, setTyped] = useState("");
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE("/api/v1/workspaces/{workspace}", { params: { path: { workspace: workspace.id } } })),
    onSuccess: async () => {
      notifyDone(t("settings.deleted", { name: workspace.name }));
      client.removeQueries({ queryKey: [workspace.id] });
      await client.invalidateQueries({ queryKey: ["me"] });
      navigate("/links");
    },
  });
  return (
    <Card withBorder className="danger-card">
      <Stack gap="sm">
        <Title order={3} size="h4">
          {t("settings.deleteTitle")}
        </Title>
        <Text size="sm">{t("settings.deleteHelp")}</Text>
        <TextInput label={t("settings.typeName", { name: workspace.name })} value={typed} onChange={(e) => setTyped(e.currentTarget.value)} autoComplete="off" />
        <ConfirmButton
          w="fit-content"
          disabled={typed.trim() !== workspace.name}
          loading={remove.isPending}
          question={t("settings.confirmDelete", { name: workspace.name })}
          detail={t("settings.deleteHelp")}
          onConfirm={() => remove.mutate()}
        >
          {t("settings.delete")}
        </ConfirmButton>
        <FormError error={remove.error} />
      </Stack>
    </Card>
  );
}
