// What the plan page says when Stripe's Checkout sends the owner back (?checkout= or ?trial=
// success|canceled, with &plan= the plan paid for): the payment is taken, but the plan changes
// only when Stripe's event arrives, so the plan is read again until it does. Once the plan shown
// is the one paid for (already on arrival when the event came first, the usual case, or later)
// the waiting banner gives way by itself to one that says so, and every place that names the
// plan (the switcher too, from /me) shows the new one.
import { Alert, CloseButton, Group, Text } from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLiveSearchParams } from "../../lib/searchParams";
import { useWorkspaceId } from "../../session";

/** How often and at most how many times the plan is read again after a payment. */
const pollEvery = 2000;
const pollTimes = 30;

/** The plan a successful return paid for: the trial, or the plan its address names (none when it names none). */
export function paidFor(params: URLSearchParams): string | undefined {
  if (params.get("trial") === "success") return "trial";
  if (params.get("checkout") === "success") return params.get("plan") || undefined;
  return undefined;
}

/**
 * Whether the payment's plan is the one shown: the plan paid for, whenever it arrived (before the
 * owner came back or since). An address that names no plan settles when the plan changes while
 * the page is open.
 */
export function paymentSettled(paid: string | undefined, before: string | undefined, shown: string | undefined): boolean {
  if (shown === undefined) return false;
  if (paid !== undefined) return shown === paid;
  return before !== undefined && before !== shown;
}

export function PaymentReturn({ plan }: { plan?: string }) {
  const { t } = useTranslation();
  const [params, setParams] = useLiveSearchParams();
  const client = useQueryClient();
  const ws = useWorkspaceId();
  const kind = params.has("checkout") ? "checkout" : params.has("trial") ? "trial" : null;
  const outcome = kind ? params.get(kind) : null;
  const before = useRef(plan);
  const arrived = outcome === "success" && paymentSettled(paidFor(params), before.current, plan);
  // The plan the payment settled on, said until the owner closes it or leaves the page.
  const [settledOn, setSettledOn] = useState<string>();

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
    setParams((p) => {
      p.delete("checkout");
      p.delete("trial");
      p.delete("workspace");
      p.delete("plan");
      return p;
    }, true);
  useEffect(() => {
    if (arrived) {
      // The new plan is here: every page reads it again, and the waiting is over.
      void client.invalidateQueries({ queryKey: ["me"] });
      setSettledOn(plan);
      dismiss();
    }
  }, [arrived]);

  if (settledOn) {
    return (
      <Alert color="teal" role="status" data-testid="payment-settled">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text size="sm">{t("billing.nowOn", { plan: t(`plan.names.${settledOn}`) })}</Text>
          <CloseButton size="sm" onClick={() => setSettledOn(undefined)} aria-label={t("billing.dismiss")} />
        </Group>
      </Alert>
    );
  }
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
