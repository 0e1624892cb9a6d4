// The workspace's session policy (docs/security.md#session-policy): how long a member's
// session reaches the workspace after signing in, and how long it may sit idle. Owners only, on
// plans with sso (a lock hint on the others); the server checks the durations and the plan.
import { Button, Card, Group, Stack, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { api, unwrap } from "../../api/client";
import { notifyDone } from "../../components/notify";
import { UpgradeHint, usePlan } from "../../components/plan";
import { fieldError, FormError } from "../../components/states";
import { useSession } from "../../session";

export function SessionPolicyCard() {
  const { t } = useTranslation();
  const { workspace } = useSession();
  const plan = usePlan();
  const client = useQueryClient();
  const [maxAge, setMaxAge] = useState(workspace.session_max_age ?? "");
  const [idle, setIdle] = useState(workspace.session_idle_timeout ?? "");
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PATCH("/api/v1/workspaces/{workspace}", {
          params: { path: { workspace: workspace.id } },
          body: { session_max_age: maxAge.trim(), session_idle_timeout: idle.trim() },
        }),
      ),
    onSuccess: async (ws) => {
      setMaxAge(ws.session_max_age ?? "");
      setIdle(ws.session_idle_timeout ?? "");
      await client.invalidateQueries({ queryKey: ["me"] });
      notifyDone(t("settings.sessionPolicySaved"));
    },
  });
  const allowed = plan.data?.features.sso ?? false;
  const set = workspace.session_max_age != null || workspace.session_idle_timeout != null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <Card withBorder component="section" aria-label={t("settings.sessionPolicyTitle")} data-testid="session-policy">
      <Stack gap="sm">
        <Title order={3} size="h4">
          {t("settings.sessionPolicyTitle")}
        </Title>
        <Text size="sm">{t("settings.sessionPolicyHelp")}</Text>
        {plan.isSuccess && !allowed && !set ? (
          <UpgradeHint feature="sso" label={t("settings.sessionPolicyTitle")} compact />
        ) : (
          <form onSubmit={submit} noValidate>
            <Group align="flex-start" className="stack-phone">
              <TextInput
                className="grow"
                label={t("settings.sessionMaxAge")}
                description={t("settings.sessionMaxAgeHint")}
                placeholder="12h"
                value={maxAge}
                onChange={(e) => setMaxAge(e.currentTarget.value)}
                error={fieldError(save.error, "session_max_age")}
                data-testid="session-max-age"
              />
              <TextInput
                className="grow"
                label={t("settings.sessionIdleTimeout")}
                description={t("settings.sessionIdleTimeoutHint")}
                placeholder="30m"
                value={idle}
                onChange={(e) => setIdle(e.currentTarget.value)}
                error={fieldError(save.error, "session_idle_timeout")}
                data-testid="session-idle-timeout"
              />
            </Group>
            <Group justify="flex-end" mt="sm">
              <Button type="submit" loading={save.isPending} disabled={!plan.isSuccess} data-testid="session-policy-save">
                {t("common.save")}
              </Button>
            </Group>
            <FormError error={save.error} fields={["session_max_age", "session_idle_timeout"]} />
          </form>
        )}
      </Stack>
    </Card>
  );
}
