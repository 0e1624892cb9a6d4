// The plans side by side: a card per plan (its price, main limits and what to do about it) and
// a table comparing every feature and limit. Everything shown comes from GET /api/v1/plans.
import { Badge, Card, Stack, Table, Text, Title } from "@mantine/core";
import { IconCheck, IconMinus } from "@tabler/icons-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { priceLine, type Offer, type PlanId } from "../../lib/plans";

const priceKeys = { day: "plans.priceDaily", week: "plans.priceWeekly", month: "plans.priceMonthly", year: "plans.priceYearly" } as const;
// A price charged every n intervals (a Stripe Price's interval_count above 1).
const priceEveryKeys = { day: "plans.priceEveryDays", week: "plans.priceEveryWeeks", month: "plans.priceEveryMonths", year: "plans.priceEveryYears" } as const;

type Limit = keyof Offer["limits"];
const limitRows: Limit[] = ["links_per_month", "members", "custom_domains", "requests_per_minute"];

type Props = {
  offers: Offer[];
  /** The features in the order the API lists them. */
  features: (keyof Offer["features"])[];
  /** The plan to mark as the reader's. */
  current?: PlanId;
  /** What a plan's card offers to do. */
  actions?: (o: Offer) => ReactNode;
};

export function PlansComparison({ offers, features, current, actions }: Props) {
  const { t, i18n } = useTranslation();
  const lang = i18n.resolvedLanguage;
  const number = new Intl.NumberFormat(lang);
  const no = <IconMinus size={18} color="var(--mantine-color-gray-6)" role="img" aria-label={t("plans.notIncluded")} />;
  // A plan without custom domains has none to count: the same mark as a feature it lacks.
  const limitText = (o: Offer, l: Limit): ReactNode => {
    const v = o.limits[l];
    if (l === "custom_domains" && !o.features.custom_domains) return no;
    return v == null ? t("plans.unlimited") : number.format(v);
  };
  const price = (o: Offer) => {
    const p = priceLine(o, lang);
    switch (p.kind) {
      case "free":
        return t("plans.priceFree", { amount: p.amount });
      case "once":
        return t("plans.priceOnce", { amount: p.amount, count: p.days });
      case "recurring":
        return p.prices.map((r) => (r.count > 1 ? t(priceEveryKeys[r.every], { amount: r.amount, n: r.count }) : t(priceKeys[r.every], { amount: r.amount }))).join(" · ");
      case "onRequest":
        return t("plans.priceOnRequest");
    }
  };
  const yes = <IconCheck size={18} color="var(--mantine-color-teal-7)" role="img" aria-label={t("plans.included")} />;
  const name = (o: Offer) => t(`plan.names.${o.id}`);

  return (
    <Stack gap="lg">
      <div className="plan-cards">
        {offers.map((o) => (
          <Card key={o.id} withBorder className="plan-card" data-current={o.id === current || undefined} aria-label={name(o)} component="section" data-testid={`plan-card-${o.id}`}>
            <Stack gap="xs" h="100%">
              <Title order={3} size="h4">
                {name(o)}
              </Title>
              {o.id === current && (
                <Badge variant="filled" w="fit-content">
                  {t("plans.current")}
                </Badge>
              )}
              <Text fw={700} size="lg" data-testid="plan-price">
                {price(o)}
              </Text>
              <Text size="sm">
                {o.limits.links_per_month == null ? t("plans.linksUnlimited") : t("plans.links", { count: o.limits.links_per_month, n: number.format(o.limits.links_per_month) })}
              </Text>
              <Text size="sm">{o.limits.members == null ? t("plans.membersUnlimited") : t("plans.members", { count: o.limits.members, n: number.format(o.limits.members) })}</Text>
              {actions && <div className="plan-card-actions">{actions(o)}</div>}
            </Stack>
          </Card>
        ))}
      </div>
      <section aria-labelledby="plans-compare">
        <Title order={3} size="h4" id="plans-compare" mb="xs">
          {t("plans.compare")}
        </Title>
        <Text size="sm" c="dimmed" mb="xs">
          {t("plans.everyPlan")}
        </Text>
        {/* On a phone the table is wider than the screen: said, and its right edge shaded. */}
        <Text size="xs" c="dimmed" mb={4} className="phone-only scroll-hint" data-testid="plan-scroll-hint">
          {t("plans.scrollHint")} →
        </Text>
        {/* Focusable: on a phone it scrolls sideways, and the keyboard must be able to scroll it. */}
        <div className="table-wrap plan-scroll" tabIndex={0} role="region" aria-labelledby="plans-compare">
          <Table className="plan-table" data-testid="plan-comparison">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t("plans.feature")}</Table.Th>
                {offers.map((o) => (
                  <Table.Th key={o.id} scope="col" data-current={o.id === current || undefined}>
                    {name(o)}
                    {o.id === current && (
                      <Text size="xs" c="blue.8" fw={600}>
                        {t("plans.current")}
                      </Text>
                    )}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              <Table.Tr>
                <Table.Th scope="row">{t("plans.price")}</Table.Th>
                {offers.map((o) => (
                  <Table.Td key={o.id} data-current={o.id === current || undefined}>
                    {price(o)}
                  </Table.Td>
                ))}
              </Table.Tr>
              {features.map((f) => (
                <Table.Tr key={f}>
                  <Table.Th scope="row">{t(`plan.features.${f}`)}</Table.Th>
                  {offers.map((o) => (
                    <Table.Td key={o.id} data-current={o.id === current || undefined}>
                      {o.features[f] ? yes : f === "wechat_access" && o.wechat_days > 0 ? t("plans.wechatDays", { count: o.wechat_days }) : no}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
              {limitRows.map((l) => (
                <Table.Tr key={l}>
                  <Table.Th scope="row">{t(`plans.limits.${l}`)}</Table.Th>
                  {offers.map((o) => (
                    <Table.Td key={o.id} data-current={o.id === current || undefined}>
                      {limitText(o, l)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </div>
      </section>
    </Stack>
  );
}
