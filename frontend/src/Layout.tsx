// The frame of the signed-in pages: navigation, workspace switcher, language and account.
import { Burger, Button, Drawer, Group, Menu, Modal, NativeSelect, Stack, Text, TextInput, UnstyledButton } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { IconChevronDown, IconLink } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { NavLink, Outlet, useNavigate } from "react-router";
import type { Workspace } from "./api/client";
import { LanguagePicker } from "./components/LanguagePicker";
import { useNewWorkspace } from "./components/newWorkspace";
import { FormError } from "./components/states";
import { VerifyBanner } from "./components/VerifyBanner";
import { useLogout, useSession } from "./session";

const newWorkspace = "new";

function NavItems({ onPick }: { onPick?: () => void }) {
  const { t } = useTranslation();
  const role = useSession().user.system_role;
  const items: [string, string][] = [
    ["/links", t("nav.links")],
    ["/dashboard", t("nav.dashboard")],
    ["/bulk", t("nav.bulk")],
    ["/imports", t("nav.imports")],
    ["/members", t("nav.members")],
    ["/domains", t("nav.domains")],
    ["/tags", t("nav.tags")],
    ["/keys", t("nav.keys")],
    ["/plan", t("nav.plan")],
    ["/settings", t("nav.settings")],
  ];
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
        <Outlet />
      </main>
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
