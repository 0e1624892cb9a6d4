// The workspace's plan, and the hint shown in place of an option the plan lacks.
import { Alert, Anchor, Button, Group, Stack, Text } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { IconLock } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { api, unwrap } from "../api/client";
import { plansWith, type Feature } from "../lib/linkForm";
import { useSession, useWorkspaceId } from "../session";
import { FormError } from "./states";

export function usePlan() {
  const ws = useWorkspaceId();
  return useQuery({
    queryKey: [ws, "plan"],
    queryFn: () => unwrap(api.GET("/api/v1/workspaces/{workspace}/plan", { params: { path: { workspace: ws } } })),
  });
}

export function useStartTrial() {
  const ws = useWorkspaceId();
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.POST("/api/v1/workspaces/{workspace}/trial", { params: { path: { workspace: ws } } })),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: [ws, "plan"] });
      void client.invalidateQueries({ queryKey: ["me"] });
    },
  });
}

/** Whether the signed-in person may change the workspace's plan and settings. */
export function useCanManage(): boolean {
  const role = useSession().workspace.role;
  return role === "owner" || role === "admin";
}

/**
 * Says which plans unlock feature, and offers the trial where it would: a panel, or with
 * compact one line (inside a form, where the option would be).
 */
export function UpgradeHint({ feature, compact = false }: { feature: Feature; compact?: boolean }) {
  const { t } = useTranslation();
  const plan = usePlan();
  const trial = useStartTrial();
  const canManage = useCanManage();
  const plans = plansWith(feature).map((p) => t(`plan.names.${p}`));
  const trialHelps = plansWith(feature).includes("trial") && plan.data && !plan.data.trial_used && plan.data.plan === "free";
  const text = t("plan.hint", { feature: t(`plan.features.${feature}`), plans: plans.join(" / ") });
  if (compact) {
    return (
      <Stack gap={4} data-testid={`upgrade-hint-${feature}`}>
        <Group gap="xs" wrap="wrap">
          <Group gap={6} wrap="nowrap" align="flex-start">
            <IconLock size={16} color="var(--mantine-color-yellow-8)" aria-hidden className="lock-icon" />
            <Text size="sm">{text}</Text>
          </Group>
          <Group gap="xs" wrap="nowrap">
            {trialHelps && canManage && (
              <Button size="compact-sm" variant="light" onClick={() => trial.mutate()} loading={trial.isPending} data-testid="start-trial">
                {t("plan.startTrial")}
              </Button>
            )}
            <Anchor component={RouterLink} to="/plan" size="sm">
              {t("plan.seePlans")}
            </Anchor>
          </Group>
        </Group>
        {trial.error && <FormError error={trial.error} />}
      </Stack>
    );
  }
  return (
    <Alert color="yellow" variant="light" icon={<IconLock size={18} />} data-testid={`upgrade-hint-${feature}`} p="sm">
      <Group justify="space-between" gap="xs">
        <Text size="sm">{text}</Text>
        <Group gap="xs">
          {trialHelps && canManage && (
            <Button size="xs" onClick={() => trial.mutate()} loading={trial.isPending} data-testid="start-trial">
              {t("plan.startTrial")}
            </Button>
          )}
          <Button size="xs" variant="subtle" component={RouterLink} to="/plan">
            {t("plan.seePlans")}
          </Button>
        </Group>
      </Group>
      {trial.error && <FormError error={trial.error} />}
    </Alert>
  );
}
