// The workspace's plan, and the hint shown in place of an option the plan lacks.
import { Alert, Anchor, Button, Group, Stack, Text } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { IconLock } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { api, unwrap } from "../api/client";
import type { Feature } from "../lib/linkForm";
import { plansWith, trialOffer } from "../lib/plans";
import { useSession, useWorkspaceId } from "../session";
import { notifyDone } from "./notify";
import { FormError } from "./states";

/** Every plan with its prices, features and limits: the server's table (public). */
export function usePlans() {
  return useQuery({
    queryKey: ["plans"],
    queryFn: () => unwrap(api.GET("/api/v1/plans")),
    staleTime: 10 * 60_000,
  });
}

export function usePlan() {
  const ws = useWorkspaceId();
  return useQuery({
    queryKey: [ws, "plan"],
    queryFn: () => unwrap(api.GET("/api/v1/workspaces/{workspace}/plan", { params: { path: { workspace: ws } } })),
  });
}

export function useStartTrial() {
  const { t, i18n } = useTranslation();
  const ws = useWorkspaceId();
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.POST("/api/v1/workspaces/{workspace}/trial", { params: { path: { workspace: ws } } })),
    onSuccess: (w) => {
      // With billing on, the trial is paid for first: the answer is the payment page.
      if ("url" in w) {
        window.location.assign(w.url);
        return;
      }
      notifyDone(t("plan.trialStarted", { date: new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: "long" }).format(new Date(w.trial_ends_at)) }));
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

/** Whether the signed-in person may start the trial: with checkout on it is paid for, which is the owner's. */
export function useCanStartTrial(): boolean {
  const role = useSession().workspace.role;
  const checkout = usePlans().data?.checkout === true;
  return role === "owner" || (role === "admin" && !checkout);
}

/**
 * Says which plans unlock feature, and offers the trial where it would: a panel, or with
 * compact one line (inside a form, where the option would be). label names what is locked
 * when it is not the feature itself (requiring 2FA and the session policy come with sso: the
 * hint names them, not "Single sign-on").
 */
export function UpgradeHint({ feature, label, compact = false }: { feature: Feature; label?: string; compact?: boolean }) {
  const { t, i18n } = useTranslation();
  const plan = usePlan();
  const offers = usePlans();
  const trial = useStartTrial();
  const canStartTrial = useCanStartTrial();
  const unlocking = offers.data ? plansWith(offers.data.plans, feature) : [];
  const plans = unlocking.map((p) => t(`plan.names.${p}`));
  const offer = offers.data ? trialOffer(offers.data, i18n.resolvedLanguage) : undefined;
  const trialHelps = unlocking.includes("trial") && plan.data && !plan.data.trial_used && plan.data.plan === "free" && offer;
  const name = label ?? t(`plan.features.${feature}`);
  const text = plans.length ? t("plan.hint", { feature: name, plans: plans.join(" / ") }) : t("plan.notOnPlan", { feature: name });
  if (compact) {
    return (
      <Stack gap={4} data-testid={`upgrade-hint-${feature}`}>
        <Group gap="xs" wrap="wrap">
          <Group gap={6} wrap="nowrap" align="flex-start">
            <IconLock size={16} color="var(--mantine-color-yellow-8)" aria-hidden className="lock-icon" />
            <Text size="sm">{text}</Text>
          </Group>
          <Group gap="xs" wrap="nowrap">
            {trialHelps && canStartTrial && (
              <Button size="compact-sm" variant="light" onClick={() => trial.mutate()} loading={trial.isPending} data-testid="start-trial">
                {offer && t(offer.key, offer)}
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
          {trialHelps && canStartTrial && (
            <Button size="xs" onClick={() => trial.mutate()} loading={trial.isPending} data-testid="start-trial">
              {offer && t(offer.key, offer)}
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
