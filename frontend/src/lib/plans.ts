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
  | { kind: "recurring"; prices: { amount: string; every: Every }[] }
  | { kind: "onRequest" };

const everies: Every[] = ["day", "week", "month", "year"];

/** How often m is charged: the interval of the Stripe Price it was read from when there is one
 * (a yearly Price listed as a plan's monthly one is still charged yearly), else its place. */
function every(m: Money, place: Every): Every {
  return everies.find((e) => e === m.interval) ?? place;
}

export function priceLine(o: Offer, locale?: string): PriceLine {
  const { monthly, yearly, once } = o.prices;
  if (once) return { kind: "once", amount: formatMoney(once, locale), days: o.days };
  if ((monthly && monthly.amount > 0) || (yearly && yearly.amount > 0)) {
    const prices = [monthly && { amount: formatMoney(monthly, locale), every: every(monthly, "month") }, yearly && { amount: formatMoney(yearly, locale), every: every(yearly, "year") }]
      .filter((p): p is { amount: string; every: Every } => !!p)
      .sort((a, b) => everies.indexOf(a.every) - everies.indexOf(b.every))
      // Two listings of one price (a monthly Price under the yearly key too) say it once.
      .filter((p, i, all) => i === 0 || p.amount !== all[i - 1]?.amount || p.every !== all[i - 1]?.every);
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
