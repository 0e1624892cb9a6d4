package plan

import (
	"fmt"
	"maps"
	"strconv"
	"strings"
)

// ParsePrices returns the prices the plans listing shows when no payment provider prices them
// (billing off), with the overrides of a PLAN_PRICES value applied over seed 004's: comma-
// separated "<plan>.<monthly|yearly|once>=<amount in the currency's smallest unit> <currency>"
// or "=none", such as "personal.monthly=2900 CNY,personal.yearly=29000 CNY,trial.once=none".
// Empty keeps the defaults (free at 0, the trial at ¥1 once, personal and enterprise on request).
func ParsePrices(s string) (map[string]Prices, error) {
	out := maps.Clone(defaultPrices)
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		key, value, ok := strings.Cut(item, "=")
		name, period, ok2 := strings.Cut(strings.TrimSpace(key), ".")
		if !ok || !ok2 {
			return nil, fmt.Errorf("%q: write <plan>.<monthly|yearly|once>=<amount> <currency>", item)
		}
		if _, known := planNames[name]; !known {
			return nil, fmt.Errorf("%q: unknown plan %q (use %s)", item, name, strings.Join(Names, ", "))
		}
		p := out[name]
		var at **Money
		switch period {
		case "monthly":
			at = &p.Monthly
		case "yearly":
			at = &p.Yearly
		case "once":
			at = &p.Once
		default:
			return nil, fmt.Errorf("%q: unknown period %q (use monthly, yearly or once)", item, period)
		}
		value = strings.TrimSpace(value)
		if value == "none" {
			*at = nil
			out[name] = p
			continue
		}
		amount, currency, ok := strings.Cut(value, " ")
		n, err := strconv.ParseInt(strings.TrimSpace(amount), 10, 64)
		currency = strings.ToUpper(strings.TrimSpace(currency))
		if !ok || err != nil || n < 0 || len(currency) != 3 || strings.Trim(currency, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
			return nil, fmt.Errorf("%q: write an amount ≥ 0 in the currency's smallest unit and its ISO 4217 code, such as 2900 CNY, or none", item)
		}
		*at = &Money{Amount: n, Currency: currency}
		out[name] = p
	}
	return out, nil
}

// WithPrices returns the offers with the listed prices of each plan in place of seed 004's.
func WithPrices(offers []Offer, prices map[string]Prices) []Offer {
	if prices == nil {
		return offers
	}
	for i := range offers {
		offers[i].Prices = prices[offers[i].ID]
	}
	return offers
}
