// The workspace's plan: its usage against its limits, every plan side by side with the current
// one marked, the trial where it may start, and how to move to a paid plan: Stripe's Checkout
// when billing is on (GET /plans says checkout), else the operator.
import { Badge, Button, Card, Group, SegmentedControl, Stack, Text, Title } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { isLive, useBilling, useCheckout, useIsOwner, type Interval } from "../../components/billing";
import { useCanManage, useCanStartTrial, usePlan, usePlans, useStartTrial } from "../../components/plan";
import { ErrorState, FormError, Loading } from "../../components/states";
import { UsageBar } from "../../components/UsageBar";
import { priceLine, trialOffer, type Offer } from "../../lib/plans";
import { useSession } from "../../session";
import { PaymentReturn } from "./PaymentReturn";
import { PlansComparison } from "./PlansComparison";

export default function PlanPage() {
  const { t, i18n } = useTranslation();
  const plan = usePlan();
  const offers = usePlans();
  const trial = useStartTrial();
  const canManage = useCanManage();
  const canStartTrial = useCanStartTrial();
  const isOwner = useIsOwner();
  const { workspace } = useSession();
  const billingOn = offers.data?.checkout === true;
  const billing = useBilling(billingOn && canManage);
  const checkout = useCheckout();
  const [interval, setEvery] = useState<Interval>("month");
  if (plan.isPending || offers.isPending) return <Loading />;
  if (plan.isError) return <ErrorState error={plan.error} retry={() => void plan.refetch()} />;
  if (offers.isError) return <ErrorState error={offers.error} retry={() => void offers.refetch()} />;
  const p = plan.data;
  const date = (iso: string) => new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: "long" }).format(new Date(iso));
  const usage = [
    { key: "links", used: p.usage.links_this_month, limit: p.limits.links_per_month },
    { key: "members", used: p.usage.members, limit: p.limits.members },
  ];

  const action = (o: Offer) => {
    if (o.id === p.plan) {
      return o.id === "trial" && p.trial_ends_at ? <Text size="sm">{t("plan.trialEnds", { date: date(p.trial_ends_at) })}</Text> : null;
    }
    if (o.id === "trial") {
      if (p.plan !== "free") return null;
      if (p.trial_used) return <Text size="sm" c="dimmed">{t("plan.trialUsed")}</Text>;
      if (!canStartTrial) return <Text size="sm" c="dimmed">{canManage ? t("billing.askOwner") : t("plan.askOwner")}</Text>;
      // With billing on the trial is paid for: its button says the price, and without one
      // there is nothing to pay for.
      const offer = trialOffer(offers.data, i18n.resolvedLanguage);
      if (!offer) return <Text size="sm" c="dimmed">{t("plans.priceOnRequest")}</Text>;
      return (
        <Stack gap={6}>
          {!offers.data.checkout && <Text size="xs" c="dimmed">{t("plans.trialFreeToday")}</Text>}
          {/* The paid trial's words and price are longer than a narrow card: they wrap, never cut. */}
          <Button onClick={() => trial.mutate()} loading={trial.isPending} data-testid="start-trial" h="auto" py={6} styles={{ label: { whiteSpace: "normal", textAlign: "center" } }}>
            {t(offer.key, offer)}
          </Button>
        </Stack>
      );
    }
    if (o.id === "free") return null;
    // A plan priced on request is never sent to Checkout: the operator moves a workspace to it.
    if (billingOn && (o.id === "personal" || o.id === "enterprise") && priceLine(o).kind !== "onRequest") {
      if (!isOwner) return <Text size="sm" c="dimmed">{t("billing.askOwner")}</Text>;
      // A live subscription changes plan in Stripe's portal: a second Checkout is refused.
      if (isLive(billing.data)) {
        return (
          <Button variant="light" component={RouterLink} to="/billing" data-testid={`change-plan-${o.id}`}>
            {t("billing.changeInPortal")}
          </Button>
        );
      }
      const target = o.id;
      return (
        <Button
          onClick={() => checkout.mutate({ plan: target, interval })}
          loading={checkout.isPending && checkout.variables?.plan === target}
          disabled={billing.isPending}
          data-testid={`upgrade-${o.id}`}
        >
          {t("billing.upgrade")}
        </Button>
      );
    }
    // Plans cannot be bought here: the operator moves a workspace to a paid plan.
    return (
      <Text size="sm" data-testid={`upgrade-how-${o.id}`}>
        {t("plans.howToUpgrade", { plan: t(`plan.names.${o.id}`), workspace: workspace.name, id: workspace.id })}
      </Text>
    );
  };

  return (
    <Stack maw={1200}>
      <Group justify="space-between">
        <Title order={2}>{t("plan.title")}</Title>
        <Badge size="lg" data-testid="current-plan">
          {t(`plan.names.${p.plan}`)}
        </Badge>
      </Group>
      {p.plan === "trial" && p.trial_ends_at && <Text data-testid="trial-ends">{t("plan.trialEnds", { date: date(p.trial_ends_at) })}</Text>}
      <Card withBorder component="section" aria-labelledby="plan-usage">
        <Text fw={600} mb="sm" id="plan-usage">
          {t("plan.usage")}
        </Text>
        <Stack gap="sm">
          {usage.map((u) => (
            <UsageBar key={u.key} label={t(`plan.limits.${u.key}`)} used={u.used} limit={u.limit} testId={`usage-${u.key}`} />
          ))}
        </Stack>
      </Card>
      <PaymentReturn plan={p.plan} />
      <FormError error={trial.error} />
      <FormError error={checkout.error} />
      <Group justify="space-between" align="flex-end">
        <Title order={3}>{t("plans.all")}</Title>
        {billingOn && isOwner && !isLive(billing.data) && (
          <SegmentedControl
            value={interval}
            onChange={(v) => setEvery(v as Interval)}
            aria-label={t("billing.interval")}
            data={[
              { value: "month", label: t("billing.monthly") },
              { value: "year", label: t("billing.yearly") },
            ]}
            data-testid="billing-interval"
          />
        )}
      </Group>
      <PlansComparison offers={offers.data.plans} features={offers.data.features} current={p.plan} actions={action} />
    </Stack>
  );
}
