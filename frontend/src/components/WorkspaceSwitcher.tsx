// The workspace switcher of the navigation: the workspace's whole name (it wraps, never cut)
// and its plan, opening the list of the person's workspaces and "New workspace".
import { Menu, Text, UnstyledButton } from "@mantine/core";
import { IconCheck, IconSelector } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { useSession } from "../session";

export function WorkspaceSwitcher({ onNew, onPick }: { onNew: () => void; onPick?: () => void }) {
  const { t } = useTranslation();
  const { workspaces, workspace, selectWorkspace } = useSession();
  const navigate = useNavigate();
  const planName = (plan: string) => t(`plan.names.${plan}`);
  return (
    <Menu position="bottom-start" width="target" withinPortal>
      <Menu.Target>
        <UnstyledButton
          className="switcher"
          data-testid="workspace-switcher"
          data-workspace={workspace.id}
          title={workspace.name}
          aria-label={`${t("nav.workspace")}: ${workspace.name} · ${planName(workspace.plan)}`}
        >
          <span className="switcher-text">
            <Text size="sm" fw={600} className="break" data-testid="workspace-name">
              {workspace.name}
            </Text>
            <Text size="xs" c="dimmed">
              {planName(workspace.plan)}
            </Text>
          </span>
          <IconSelector size={16} className="no-shrink" aria-hidden />
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t("nav.workspace")}</Menu.Label>
        {workspaces.map((w) => (
          <Menu.Item
            key={w.id}
            data-testid="workspace-option"
            rightSection={w.id === workspace.id ? <IconCheck size={14} aria-hidden /> : null}
            onClick={() => {
              onPick?.();
              if (w.id === workspace.id) return;
              selectWorkspace(w.id);
              navigate("/links");
            }}
          >
            <span className="break">
              {w.name} · {planName(w.plan)}
            </span>
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Item
          data-testid="workspace-new"
          onClick={() => {
            onPick?.();
            onNew();
          }}
        >
          {t("workspace.new")}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
