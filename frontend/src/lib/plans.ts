// The plans listing (GET /api/v1/plans) as the app shows it: prices in the reader's language,
// and which plans unlock a feature. Every figure comes from the server's table.
import type { Schemas } from "../api/client";

export type Offer = Schemas["PlanOffer"];
export type Money = Schemas["Money"];
export type PlanId = Offer["id"];

/** An amount in its currency's smallest unit (fen: 100 = ¥1.00), as the reader writes money. */
export function formatMoney(m: Money, locale?: string): string {
  const digits = new Intl.NumberFormat(locale, { style: "currency", currency: m.currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return new Intl.NumberFormat(locale, { style: "currency", currency: m.currency, minimumFractionDigits: m.amount % 10 ** digits === 0 ? 0 : digits }).format(
    m.amount / 10 ** digits,
  );
}

/** How often a recurring price is charged, as Stripe names it. */
export type Every = "day" | "week" | "month" | "year";

/** What a plan's price line says: free, a one-off payment, its recurring prices (each with how
 * often it is charged), or none set. */
export type PriceLine =
  | { kind: "free"; amount: string }
  | { kind: "once"; amount: string; days: number }
  | { kind: "recurring"; prices: RecurringPrice[] }
  | { kind: "onRequest" };

/** A recurring price: its amount, charged once every `count` of `every` (count 3 with "month":
 * every three months). */
export type RecurringPrice = { amount: string; every: Every; count: number };

const everies: Every[] = ["day", "week", "month", "year"];
const days: Record<Every, number> = { day: 1, week: 7, month: 30, year: 365 };

/** How often m is charged: the interval of the Stripe Price it was read from when there is one
 * (a yearly Price listed as a plan's monthly one is still charged yearly), else its place. */
function recurring(m: Money, place: Every, locale?: string): RecurringPrice {
  const every = everies.find((e) => e === m.interval);
  return every ? { amount: formatMoney(m, locale), every, count: Math.max(m.interval_count ?? 1, 1) } : { amount: formatMoney(m, locale), every: place, count: 1 };
}

export function priceLine(o: Offer, locale?: string): PriceLine {
  const { monthly, yearly, once } = o.prices;
  if (once) return { kind: "once", amount: formatMoney(once, locale), days: o.days };
  if ((monthly && monthly.amount > 0) || (yearly && yearly.amount > 0)) {
    const prices = [monthly && recurring(monthly, "month", locale), yearly && recurring(yearly, "year", locale)]
      .filter((p): p is RecurringPrice => !!p)
      .sort((a, b) => days[a.every] * a.count - days[b.every] * b.count)
      // Two listings of one price (a monthly Price under the yearly key too) say it once.
      .filter((p, i, all) => i === 0 || p.amount !== all[i - 1]?.amount || p.every !== all[i - 1]?.every || p.count !== all[i - 1]?.count);
    return { kind: "recurring", prices };
  }
  const zero = monthly ?? yearly;
  if (zero) return { kind: "free", amount: formatMoney(zero, locale) };
  return { kind: "onRequest" };
}

/** The plans other than free that unlock feature, cheapest first. */
export function plansWith(offers: Offer[], feature: keyof Offer["features"]): PlanId[] {
  return offers.filter((o) => o.id !== "free" && o.features[feature]).map((o) => o.id);
}

/** What the trial's button says: free to start without checkout; with checkout a paid trial
 * with its price; undefined when checkout is on and the trial has no price (nothing to pay for). */
export function trialOffer(
  listing: { plans: Offer[]; checkout: boolean },
  locale?: string,
): { key: "plan.startTrial" } | { key: "plan.startPaidTrial"; price: string; days: number } | undefined {
  if (!listing.checkout) return { key: "plan.startTrial" };
  const trial = listing.plans.find((o) => o.id === "trial");
  if (!trial?.prices.once) return undefined;
  return { key: "plan.startPaidTrial", price: formatMoney(trial.prices.once, locale), days: trial.days };
}
