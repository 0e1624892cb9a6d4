// The workspace's billing (owners and admins, with billing on): the plan and the subscription's
// state as Stripe reported it, the invoices, and Stripe's portal for the owner, where the
// payment method, the plan and the cancellation are changed.
import { Anchor, Badge, Button, Card, Group, Stack, Table, Text, Title } from "@mantine/core";
import { IconExternalLink } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { ApiError } from "../../api/client";
import { useBilling, useIsOwner, usePortal, type Billing } from "../../components/billing";
import { DataTable } from "../../components/DataTable";
import { usePlans } from "../../components/plan";
import { Empty, ErrorState, FormError, Loading } from "../../components/states";
import { formatDateTime } from "../../lib/format";
import { formatMoney } from "../../lib/plans";

const statusColor: Record<Billing["status"], string> = { none: "gray", active: "teal", past_due: "orange", canceled: "red" };

export default function BillingPage() {
  const offers = usePlans();
  // GET /plans says whether billing is on; asking for the billing of a service without it
  // would only earn a 409.
  const billingOn = offers.data?.checkout === true;
  const billing = useBilling(billingOn);
  if (offers.isPending) return <Loading />;
  if (offers.isError) return <ErrorState error={offers.error} retry={() => void offers.refetch()} />;
  if (!billingOn) return <Off />;
  if (billing.isPending) return <Loading />;
  if (billing.isError) {
    if (billing.error instanceof ApiError && billing.error.reason === "billing_disabled") return <Off />;
    return <ErrorState error={billing.error} retry={() => void billing.refetch()} />;
  }
  return <Overview b={billing.data} />;
}

/** Billing is not set up on this service: plans are set by its operator. */
function Off() {
  const { t } = useTranslation();
  return (
    <Stack>
      <Title order={2}>{t("billing.title")}</Title>
      <Empty title={t("billing.off")}>
        <Text size="sm" c="dimmed" ta="center" maw={480}>
          {t("billing.offText")}
        </Text>
      </Empty>
    </Stack>
  );
}

function Overview({ b }: { b: Billing }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.resolvedLanguage;
  const isOwner = useIsOwner();
  const portal = usePortal();
  const date = (iso: string | null | undefined) => formatDateTime(iso, lang, "date");
  const state = () => {
    switch (b.status) {
      case "active":
        if (!b.current_period_end) return null;
        return b.cancel_at_period_end ? t("billing.endsOn", { date: date(b.current_period_end) }) : t("billing.renewsOn", { date: date(b.current_period_end) });
      case "past_due":
        return t("billing.pastDue", { since: date(b.past_due_since), until: date(b.grace_ends_at) });
      case "canceled":
        return b.current_period_end ? t("billing.canceledUntil", { date: date(b.current_period_end) }) : t("billing.canceledNow");
      default:
        // A plan other than free without a subscription was given, not bought (an operator
        // moved the workspace): nothing is billed, and there is no plan to choose.
        return b.plan === "free" ? t("billing.noSubscription") : t("billing.notBilled", { plan: t(`plan.names.${b.plan}`) });
    }
  };
  const hasAccount = b.status !== "none" || b.invoices.length > 0;

  return (
    <Stack maw={1000}>
      <Title order={2}>{t("billing.title")}</Title>
      <Card withBorder component="section" aria-labelledby="billing-subscription">
        <Stack gap="sm">
          <Group justify="space-between" align="flex-start">
            <Stack gap={4}>
              <Text fw={600} id="billing-subscription">
                {t("billing.subscription")}
              </Text>
              <Group gap="xs">
                <Text size="sm">{t("billing.plan")}</Text>
                <Badge variant="light" data-testid="billing-plan">
                  {t(`plan.names.${b.plan}`)}
                </Badge>
                {b.interval && (
                  <Text size="sm" c="dimmed">
                    {t(b.interval === "year" ? "billing.yearly" : "billing.monthly")}
                  </Text>
                )}
              </Group>
              <Group gap="xs">
                <Text size="sm">{t("billing.status")}</Text>
                <Badge color={statusColor[b.status]} data-testid="billing-status">
                  {t(`billing.statuses.${b.status}`)}
                </Badge>
              </Group>
            </Stack>
            {isOwner && hasAccount && (
              <Button onClick={() => portal.mutate()} loading={portal.isPending} rightSection={<IconExternalLink size={16} aria-hidden />} data-testid="manage-billing">
                {t("billing.manage")}
              </Button>
            )}
          </Group>
          <Text size="sm" data-testid="billing-state">
            {state()}
          </Text>
          {b.status === "none" && b.plan === "free" && (
            <Anchor component={RouterLink} to="/plan" size="sm">
              {t("billing.choosePlan")}
            </Anchor>
          )}
          {!isOwner && (
            <Text size="sm" c="dimmed">
              {t("billing.ownerOnly")}
            </Text>
          )}
          <FormError error={portal.error} />
        </Stack>
      </Card>
      <Title order={3}>{t("billing.invoices")}</Title>
      {b.invoices.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="no-invoices">
          {t("billing.noInvoices")}
        </Text>
      ) : (
        <DataTable head={[t("billing.number"), t("billing.date"), t("billing.amount"), t("billing.status"), ""]} testId="invoices">
          {b.invoices.map((inv) => (
            <Table.Tr key={inv.id}>
              <Table.Td className="break">{inv.number || "—"}</Table.Td>
              <Table.Td>{date(inv.created)}</Table.Td>
              <Table.Td>{formatMoney({ amount: inv.amount, currency: inv.currency.toUpperCase() }, lang)}</Table.Td>
              <Table.Td>{invoiceStatus(t, inv.status)}</Table.Td>
              <Table.Td>
                {inv.hosted_invoice_url && (
                  <Anchor href={inv.hosted_invoice_url} target="_blank" rel="noopener noreferrer" size="sm">
                    {t("billing.viewInvoice", { number: inv.number || inv.id })}
                  </Anchor>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </DataTable>
      )}
    </Stack>
  );
}

/** Stripe's invoice status in words; an unknown one as Stripe names it. */
function invoiceStatus(t: (k: string) => string, status: string): string {
  return ["draft", "open", "paid", "uncollectible", "void"].includes(status) ? t(`billing.invoiceStatuses.${status}`) : status;
}
