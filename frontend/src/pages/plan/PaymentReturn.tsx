// What the plan page says when Stripe's Checkout sends the owner back (?checkout= or ?trial=
// success|canceled): the payment is taken, but the plan changes only when Stripe's event
// arrives, so the plan is read again until it does; then the banner goes away by itself and
// every place that names the plan (the switcher too, from /me) shows the new one.
import { Alert, CloseButton, Group, Text } from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { useWorkspaceId } from "../../session";

/** How often and at most how many times the plan is read again after a payment. */
const pollEvery = 2000;
const pollTimes = 30;

/** Whether the plan changed since the owner came back: the payment's event has landed. */
export function planArrived(before: string | undefined, now: string | undefined): boolean {
  return before !== undefined && now !== undefined && before !== now;
}

export function PaymentReturn({ plan }: { plan?: string }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const client = useQueryClient();
  const ws = useWorkspaceId();
  const kind = params.has("checkout") ? "checkout" : params.has("trial") ? "trial" : null;
  const outcome = kind ? params.get(kind) : null;
  const before = useRef(plan);
  const arrived = outcome === "success" && planArrived(before.current, plan);

  useEffect(() => {
    if (outcome !== "success" || arrived) return;
    let n = 0;
    const refresh = () => {
      void client.invalidateQueries({ queryKey: [ws, "plan"] });
      void client.invalidateQueries({ queryKey: [ws, "billing"] });
      void client.invalidateQueries({ queryKey: ["me"] });
    };
    const timer = window.setInterval(() => {
      refresh();
      if (++n >= pollTimes) window.clearInterval(timer);
    }, pollEvery);
    return () => window.clearInterval(timer);
  }, [outcome, arrived, client, ws]);

  const dismiss = () =>
    setParams(
      (p) => {
        p.delete("checkout");
        p.delete("trial");
        p.delete("workspace");
        return p;
      },
      { replace: true },
    );
  useEffect(() => {
    if (arrived) {
      // The new plan is here: every page reads it again, and the banner has said its piece.
      void client.invalidateQueries({ queryKey: ["me"] });
      dismiss();
    }
  }, [arrived]);

  if (!kind || (outcome !== "success" && outcome !== "canceled") || arrived) return null;
  const success = outcome === "success";
  return (
    <Alert color={success ? "teal" : "gray"} role="status" data-testid="payment-return">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Text size="sm">{success ? t(kind === "trial" ? "billing.trialPaid" : "billing.paid") : t("billing.canceled")}</Text>
        <CloseButton size="sm" onClick={dismiss} aria-label={t("billing.dismiss")} />
      </Group>
    </Alert>
  );
}
