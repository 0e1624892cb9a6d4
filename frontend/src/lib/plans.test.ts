import { describe, expect, it } from "vitest";
import { formatMoney, plansWith, priceLine, type Offer, trialOffer } from "./plans";

const features = { password: false, realtime_edit: false, export: false, browser_guide: false, custom_domains: false, ab_test: false, batch: false, geo: false, form: false, dashboard: false, wechat_access: false, sso: false, audit_log: false, webhooks: false };
const limits = { links_per_month: 100, members: 1, custom_domains: 0, requests_per_minute: 120 };
const offer = (o: Partial<Offer>): Offer => ({ id: "free", name: "Free", prices: { monthly: null, yearly: null, once: null }, days: 0, wechat_days: 10, features, limits, ...o });

describe("plans", () => {
  it("writes money in the reader's language", () => {
    expect(formatMoney({ amount: 100, currency: "CNY" }, "zh-CN")).toBe("¥1");
    expect(formatMoney({ amount: 150, currency: "CNY" }, "en-US")).toBe("CN¥1.50");
    expect(formatMoney({ amount: 1000, currency: "JPY" }, "en-US")).toBe("¥1,000");
  });
  it("says what a plan costs", () => {
    expect(priceLine(offer({ prices: { monthly: { amount: 0, currency: "CNY" }, yearly: { amount: 0, currency: "CNY" }, once: null } }), "zh-CN")).toEqual({ kind: "free", amount: "¥0" });
    expect(priceLine(offer({ id: "trial", days: 7, prices: { monthly: null, yearly: null, once: { amount: 100, currency: "CNY" } } }), "zh-CN")).toEqual({ kind: "once", amount: "¥1", days: 7 });
    expect(priceLine(offer({ id: "personal" }))).toEqual({ kind: "onRequest" });
    expect(priceLine(offer({ id: "personal", prices: { monthly: { amount: 2900, currency: "CNY" }, yearly: null, once: null } }), "zh-CN")).toEqual({ kind: "recurring", prices: [{ amount: "¥29", every: "month", count: 1 }] });
  });
  it("labels a plan priced only by the year as yearly, never monthly", () => {
    // PLAN_PRICES with personal.yearly alone: no interval from Stripe, its place says it.
    expect(priceLine(offer({ id: "personal", prices: { monthly: null, yearly: { amount: 29000, currency: "CNY" }, once: null } }), "zh-CN")).toEqual({
      kind: "recurring",
      prices: [{ amount: "¥290", every: "year", count: 1 }],
    });
    // Read from a yearly Stripe Price.
    expect(priceLine(offer({ id: "personal", prices: { monthly: null, yearly: { amount: 2000, currency: "USD", interval: "year" }, once: null } }), "en-US")).toEqual({
      kind: "recurring",
      prices: [{ amount: "$20", every: "year", count: 1 }],
    });
  });
  it("labels a monthly and a yearly price each by its own interval, the month first", () => {
    const both = offer({ id: "personal", prices: { monthly: { amount: 2900, currency: "CNY", interval: "month" }, yearly: { amount: 29000, currency: "CNY", interval: "year" }, once: null } });
    expect(priceLine(both, "zh-CN")).toEqual({ kind: "recurring", prices: [{ amount: "¥29", every: "month", count: 1 }, { amount: "¥290", every: "year", count: 1 }] });
    // A yearly Stripe Price given as the plan's monthly one is charged yearly, and said so.
    const swapped = offer({ id: "personal", prices: { monthly: { amount: 29000, currency: "CNY", interval: "year" }, yearly: { amount: 2900, currency: "CNY", interval: "month" }, once: null } });
    expect(priceLine(swapped, "zh-CN")).toEqual({ kind: "recurring", prices: [{ amount: "¥29", every: "month", count: 1 }, { amount: "¥290", every: "year", count: 1 }] });
    // One monthly Price listed under both keys is said once.
    const twice = offer({ id: "personal", prices: { monthly: { amount: 2000, currency: "USD", interval: "month" }, yearly: { amount: 2000, currency: "USD", interval: "month" }, once: null } });
    expect(priceLine(twice, "en-US")).toEqual({ kind: "recurring", prices: [{ amount: "$20", every: "month", count: 1 }] });
  });
  it("says a price charged every few intervals as such, and orders prices by how often they are charged", () => {
    const quarterly = offer({ id: "personal", prices: { monthly: { amount: 7500, currency: "USD", interval: "month", interval_count: 3 }, yearly: { amount: 25000, currency: "USD", interval: "year", interval_count: 1 }, once: null } });
    expect(priceLine(quarterly, "en-US")).toEqual({ kind: "recurring", prices: [{ amount: "$75", every: "month", count: 3 }, { amount: "$250", every: "year", count: 1 }] });
    // Every two weeks before every month.
    const fortnightly = offer({ id: "personal", prices: { monthly: { amount: 2000, currency: "USD", interval: "month", interval_count: 1 }, yearly: { amount: 1000, currency: "USD", interval: "week", interval_count: 2 }, once: null } });
    expect(priceLine(fortnightly, "en-US")).toEqual({ kind: "recurring", prices: [{ amount: "$10", every: "week", count: 2 }, { amount: "$20", every: "month", count: 1 }] });
  });
  it("names the plans that unlock a feature, from the listing", () => {
    const offers = [
      offer({ id: "free", features: { ...features, wechat_access: true } }),
      offer({ id: "trial", features: { ...features, batch: true, wechat_access: true } }),
      offer({ id: "personal", features: { ...features, wechat_access: true } }),
      offer({ id: "enterprise", features: { ...features, batch: true, form: true, wechat_access: true } }),
    ];
    expect(plansWith(offers, "batch")).toEqual(["trial", "enterprise"]);
    expect(plansWith(offers, "form")).toEqual(["enterprise"]);
    expect(plansWith(offers, "wechat_access")).toEqual(["trial", "personal", "enterprise"]);
  });
});

describe("trialOffer", () => {
  const trial = offer({ id: "trial", days: 7, prices: { monthly: null, yearly: null, once: { amount: 2000, currency: "USD" } } });
  it("is free to start without checkout", () => {
    expect(trialOffer({ plans: [trial], checkout: false })).toEqual({ key: "plan.startTrial" });
  });
  it("says the price of a paid trial", () => {
    expect(trialOffer({ plans: [trial], checkout: true }, "en")).toEqual({ key: "plan.startPaidTrial", price: "$20", days: 7 });
  });
  it("offers nothing to pay for without a price", () => {
    expect(trialOffer({ plans: [offer({ id: "trial", days: 7 })], checkout: true })).toBeUndefined();
  });
});
