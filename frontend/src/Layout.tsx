// The frame of the signed-in pages: navigation, workspace switcher, language and account.
import { ActionIcon, Burger, Button, Drawer, Group, Menu, Modal, Stack, Text, TextInput, UnstyledButton } from "@mantine/core";
import { useDisclosure, useMediaQuery } from "@mantine/hooks";
import { IconChevronDown, IconLayoutSidebarLeftCollapse, IconLayoutSidebarLeftExpand, IconLink, IconUserCircle } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useState, type ReactNode } from "react";
import { NavLink, Outlet, useLocation, useNavigate } from "react-router";
import { api, ApiError, unwrap, type Workspace } from "./api/client";
import { useBillingOn } from "./components/billing";
import { LanguagePicker } from "./components/LanguagePicker";
import { useNewWorkspace } from "./components/newWorkspace";
import { FormError, Loading } from "./components/states";
import { TwoFactorRequired } from "./components/TwoFactorRequired";
import { PaymentDueBanner } from "./components/PaymentDueBanner";
import { VerifyBanner } from "./components/VerifyBanner";
import { WorkspaceSwitcher } from "./components/WorkspaceSwitcher";
import { useLogout, useMe, useSession } from "./session";

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

/** The main navigation's pages for this person in this workspace, the system's last. */
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
    ["/tags", t("nav.tags")],
    ["/domains", t("nav.domains")],
    ["/members", t("nav.members")],
    ["/keys", t("nav.keys")],
    ["/webhooks", t("nav.webhooks")],
    ["/plan", t("nav.plan")],
    ["/settings", t("nav.settings")],
  ];
  if (manages && billingOn) items.splice(items.length - 1, 0, ["/billing", t("nav.billing")]);
  if (manages) items.splice(items.length - 1, 0, ["/audit", t("nav.audit")]);
  const system: [string, string][] = [];
  if (role === "moderator" || role === "operator") system.push(["/moderation", t("nav.moderation")]);
  if (role === "operator") system.push(["/admin", t("nav.admin")]);
  const links = (list: [string, string][]) =>
    list.map(([to, label]) => (
      <NavLink key={to} to={to} className="nav-link" onClick={onPick}>
        {label}
      </NavLink>
    ));
  return (
    <>
      {links(items)}
      {system.length > 0 && (
        <>
          <Text size="xs" fw={600} c="dimmed" className="nav-group" component="span">
            {t("nav.system")}
          </Text>
          {links(system)}
        </>
      )}
    </>
  );
}

const sidebarKey = "sl.sidebar";

/**
 * The frame of the signed-in pages (docs/web-app.md): on a wide screen a sidebar with the
 * workspace switcher and the navigation, which the menu button folds away; on a narrow one the
 * same in a drawer. The bar at the top keeps the language and the account.
 */
export function Layout() {
  const { t } = useTranslation();
  const { user, selectWorkspace } = useSession();
  const wideScreen = useMediaQuery("(min-width: 62em)", true);
  const [drawerOpen, drawer] = useDisclosure(false);
  const [folded, setFolded] = useState(() => localStorage.getItem(sidebarKey) === "folded");
  const [creating, creation] = useDisclosure(false);
  const navigate = useNavigate();
  const logout = useLogout();

  const toggleMenu = () => {
    if (!wideScreen) return drawer.toggle();
    localStorage.setItem(sidebarKey, folded ? "open" : "folded");
    setFolded(!folded);
  };
  const brand = (
    <NavLink to="/links" className="brand">
      <IconLink size={20} aria-hidden /> Shortlink
    </NavLink>
  );

  return (
    <div className="shell" data-folded={folded || undefined}>
      <a href="#main" className="skip-link">
        {t("nav.skip")}
      </a>
      <div className="sidebar">
        {brand}
        <WorkspaceSwitcher onNew={creation.open} />
        <nav className="nav" aria-label={t("nav.main")}>
          <NavItems />
        </nav>
      </div>
      <div className="content">
        <header className="topbar">
          <Group gap="xs" wrap="nowrap" className="minw0">
            {wideScreen ? (
              <ActionIcon variant="subtle" color="gray" size="lg" className="burger" onClick={toggleMenu} aria-label={t(folded ? "nav.showNav" : "nav.hideNav")} aria-expanded={!folded}>
                {folded ? <IconLayoutSidebarLeftExpand size={20} aria-hidden /> : <IconLayoutSidebarLeftCollapse size={20} aria-hidden />}
              </ActionIcon>
            ) : (
              <Burger opened={drawerOpen} onClick={toggleMenu} size="sm" className="burger" aria-label={t("nav.menu")} aria-expanded={drawerOpen} />
            )}
            <span className="topbar-brand">{brand}</span>
          </Group>
          <Group gap="xs" wrap="nowrap" className="no-shrink">
            <div className="desktop-only">
              <LanguagePicker />
            </div>
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <UnstyledButton className="account" data-testid="account-menu" aria-label={`${t("nav.account")}: ${user.email}`} title={user.email}>
                  <IconUserCircle size={20} aria-hidden className="no-shrink" />
                  <Text size="sm" className="account-email desktop-only">
                    {user.email}
                  </Text>
                  <IconChevronDown size={14} aria-hidden className="no-shrink" />
                </UnstyledButton>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Label>
                  <span className="break">{user.email}</span> · {t(`roles.${user.system_role}`)}
                </Menu.Label>
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
        <main className="page" id="main" tabIndex={-1}>
          <VerifyBanner />
          <PaymentDueBanner />
          <TwoFactorGate>
            <Outlet />
          </TwoFactorGate>
        </main>
      </div>
      {/* lockScroll off: the scroll lock injects a <style> element, which the CSP refuses. */}
      <Drawer
        opened={drawerOpen && !wideScreen}
        onClose={drawer.close}
        title="Shortlink"
        size="xs"
        lockScroll={false}
        closeButtonProps={{ "aria-label": t("common.close") }}
      >
        <Stack gap="sm">
          <WorkspaceSwitcher onNew={creation.open} onPick={drawer.close} />
          <LanguagePicker />
          <nav className="drawer-nav" aria-label={t("nav.main")}>
            <NavItems onPick={drawer.close} />
          </nav>
        </Stack>
      </Drawer>
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
