// A failed payment, said on every page to those who manage the workspace's billing (owners and
// admins, with billing on), with the way to the billing page: the plan lapses at the grace's
// end otherwise.
import { Alert, Anchor, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { useBilling, useBillingOn } from "./billing";
import { useCanManage } from "./plan";

export function PaymentDueBanner() {
  const { t, i18n } = useTranslation();
  const billingOn = useBillingOn();
  const canManage = useCanManage();
  const billing = useBilling(billingOn && canManage);
  const b = billing.data;
  if (!b || b.status !== "past_due" || !b.past_due_since || !b.grace_ends_at) return null;
  const date = (iso: string) => new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: "long" }).format(new Date(iso));
  return (
    <Alert color="orange" role="alert" data-testid="payment-due" mb="md">
      <Text size="sm">
        {t("billing.pastDue", { since: date(b.past_due_since), until: date(b.grace_ends_at) })}{" "}
        <Anchor component={RouterLink} to="/billing" size="sm" c="inherit">
          {t("nav.billing")}
        </Anchor>
      </Text>
    </Alert>
  );
}
