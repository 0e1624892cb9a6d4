// The frame of the signed-in pages: navigation, workspace switcher, language and account.
import { Burger, Button, Drawer, Group, Menu, Modal, NativeSelect, Stack, Text, TextInput, UnstyledButton } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { IconChevronDown, IconLink } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense, type ReactNode } from "react";
import { NavLink, Outlet, useLocation, useNavigate } from "react-router";
import { api, ApiError, unwrap, type Workspace } from "./api/client";
import { useBillingOn } from "./components/billing";
import { LanguagePicker } from "./components/LanguagePicker";
import { useNewWorkspace } from "./components/newWorkspace";
import { FormError, Loading } from "./components/states";
import { TwoFactorRequired } from "./components/TwoFactorRequired";
import { PaymentDueBanner } from "./components/PaymentDueBanner";
import { VerifyBanner } from "./components/VerifyBanner";
import { useLogout, useMe, useSession } from "./session";

const newWorkspace = "new";

// The keyboard's shortcuts and their command palette load after the page.
const Shortcuts = lazy(() => import("./components/Shortcuts"));

/** The pages that are the person's own, not the workspace's: a workspace's 2FA demand spares them. */
const ownPages = /^\/(account|invitations|admin|moderation)(\/|$)/;

/**
 * Shows why a workspace that requires two-factor sign-in is closed to a person without it, in
 * place of its pages. Asked only when the workspace and the person make it likely; the server's
 * answer (2fa_required) decides, so a plan that no longer has sso opens the workspace again.
 */
function TwoFactorGate({ children }: { children: ReactNode }) {
  const { workspace } = useSession();
  const me = useMe();
  const { pathname } = useLocation();
  const suspect = !!workspace.require_2fa && me.data?.two_factor === false && !ownPages.test(pathname);
  const access = useQuery({
    queryKey: ["workspace-access", workspace.id],
    queryFn: () => unwrap(api.GET("/api/v1/workspaces/{workspace}", { params: { path: { workspace: workspace.id } } })),
    enabled: suspect,
    retry: false,
  });
  if (!suspect) return children;
  if (access.isPending) return <Loading />;
  if (access.error instanceof ApiError && access.error.reason === "2fa_required") return <TwoFactorRequired />;
  return children;
}

function NavItems({ onPick }: { onPick?: () => void }) {
  const { t } = useTranslation();
  const { user, workspace } = useSession();
  const role = user.system_role;
  const manages = workspace.role === "owner" || workspace.role === "admin";
  const billingOn = useBillingOn();
  const items: [string, string][] = [
    ["/links", t("nav.links")],
    ["/dashboard", t("nav.dashboard")],
    ["/bulk", t("nav.bulk")],
    ["/imports", t("nav.imports")],
    ["/members", t("nav.members")],
    ["/domains", t("nav.domains")],
    ["/tags", t("nav.tags")],
    ["/keys", t("nav.keys")],
    ["/webhooks", t("nav.webhooks")],
    ["/plan", t("nav.plan")],
    ["/settings", t("nav.settings")],
  ];
  if (manages && billingOn) items.splice(items.length - 1, 0, ["/billing", t("nav.billing")]);
  if (manages) items.splice(items.length - 1, 0, ["/audit", t("nav.audit")]);
  if (role === "moderator" || role === "operator") items.push(["/moderation", t("nav.moderation")]);
  if (role === "operator") items.push(["/admin", t("nav.admin")]);
  return (
    <>
      {items.map(([to, label]) => (
        <NavLink key={to} to={to} className="nav-link" onClick={onPick}>
          {label}
        </NavLink>
      ))}
    </>
  );
}

export function Layout() {
  const { t } = useTranslation();
  const { user, workspaces, workspace, selectWorkspace } = useSession();
  const [menuOpen, menu] = useDisclosure(false);
  const [creating, creation] = useDisclosure(false);
  const navigate = useNavigate();
  const logout = useLogout();

  const switcher = (
    <NativeSelect
      aria-label={t("nav.workspace")}
      size="xs"
      data-testid="workspace-switcher"
      value={String(workspace.id)}
      onChange={(e) => {
        const v = e.currentTarget.value;
        if (v === newWorkspace) creation.open();
        else {
          selectWorkspace(Number(v));
          navigate("/links");
        }
      }}
      data={[
        ...workspaces.map((w) => ({ value: String(w.id), label: `${w.name} · ${t(`plan.names.${w.plan}`)}` })),
        { value: newWorkspace, label: t("workspace.new") },
      ]}
    />
  );

  return (
    <div className="shell">
      <a href="#main" className="skip-link">
        {t("nav.skip")}
      </a>
      <header className="topbar">
        <Group gap="xs" wrap="nowrap">
          <Burger opened={menuOpen} onClick={menu.toggle} size="sm" className="burger" aria-label={t("nav.menu")} />
          <NavLink to="/links" className="brand">
            <IconLink size={20} /> Shortlink
          </NavLink>
          <nav className="nav" aria-label={t("nav.main")}>
            <NavItems />
          </nav>
        </Group>
        <Group gap="xs" wrap="nowrap">
          <div className="desktop-only">{switcher}</div>
          <div className="desktop-only">
            <LanguagePicker />
          </div>
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <UnstyledButton className="account" data-testid="account-menu" aria-label={t("nav.account")}>
                <Text size="sm" truncate="end" maw={180}>
                  {user.email}
                </Text>
                <IconChevronDown size={14} />
              </UnstyledButton>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Label>{t(`roles.${user.system_role}`)}</Menu.Label>
              <Menu.Item onClick={() => navigate("/account")}>{t("account.menu")}</Menu.Item>
              <Menu.Item onClick={() => navigate("/invitations")} data-testid="my-invitations">
                {t("nav.invitations")}
              </Menu.Item>
              <Menu.Item onClick={() => logout.mutate()} data-testid="logout">
                {t("nav.logout")}
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
      </header>
      {/* lockScroll off: the scroll lock injects a <style> element, which the CSP refuses. */}
      <Drawer opened={menuOpen} onClose={menu.close} title="Shortlink" size="xs" lockScroll={false}>
        <Stack gap="sm">
          {switcher}
          <LanguagePicker />
          <nav className="drawer-nav" aria-label={t("nav.main")}>
            <NavItems onPick={menu.close} />
          </nav>
        </Stack>
      </Drawer>
      <main className="page" id="main" tabIndex={-1}>
        <VerifyBanner />
        <PaymentDueBanner />
        <TwoFactorGate>
          <Outlet />
        </TwoFactorGate>
      </main>
      <Suspense fallback={null}>
        <Shortcuts />
      </Suspense>
      <NewWorkspaceModal
        opened={creating}
        onClose={creation.close}
        onCreated={(ws) => {
          selectWorkspace(ws.id);
          creation.close();
          navigate("/links");
        }}
      />
    </div>
  );
}

function NewWorkspaceModal({ opened, onClose, onCreated }: { opened: boolean; onClose: () => void; onCreated: (ws: Workspace) => void }) {
  const { t } = useTranslation();
  const { name, setName, nameError, create, submit } = useNewWorkspace(onCreated);
  return (
    <Modal opened={opened} onClose={onClose} title={t("workspace.new")} lockScroll={false}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label={t("workspace.name")} value={name} onChange={(e) => setName(e.currentTarget.value)} error={nameError} data-autofocus data-testid="workspace-name" />
          <FormError error={create.error} fields={["name"]} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t("common.cancel")}
            </Button>
            <Button type="submit" loading={create.isPending} data-testid="workspace-create">
              {t("workspace.create")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
