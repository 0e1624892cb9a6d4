package plan

// Money is an amount in a currency's smallest unit: fen for CNY (100 = ¥1.00).
type Money struct {
	Amount   int64  `json:"amount"`
	Currency string `json:"currency"`
	// Interval is how often a recurring price is charged ("month", "year"); "" for a one-off
	// payment or a price not read from the payment provider.
	Interval string `json:"interval,omitempty"`
	// IntervalCount is how many intervals lie between two charges (3 with "month": every three
	// months); 0 where Interval is "".
	IntervalCount int64 `json:"interval_count,omitempty"`
}

// Prices are what a plan costs. Each is nil where no price is set: seed 004 names the free
// plan's (none) and the trial's ("1 元试用", a one-off payment for TrialLength); the personal and
// enterprise plans are priced by whoever runs the service.
type Prices struct {
	Monthly *Money `json:"monthly"`
	Yearly  *Money `json:"yearly"`
	// Once is a single payment for the whole plan: the trial's.
	Once *Money `json:"once"`
}

// defaultPrices are seed 004's prices, by plan.
var defaultPrices = map[string]Prices{
	Free:  {Monthly: &Money{Amount: 0, Currency: "CNY"}, Yearly: &Money{Amount: 0, Currency: "CNY"}},
	Trial: {Once: &Money{Amount: 100, Currency: "CNY"}},
}

// Offer is one plan as the plans listing shows it: everything it includes and costs.
type Offer struct {
	ID       string           `json:"id"`
	Name     string           `json:"name"`
	Prices   Prices           `json:"prices"`
	Features map[Feature]bool `json:"features"`
	Limits   Limits           `json:"limits"`
	// Days is how long the plan lasts once started (the trial's 7); 0 for plans that last.
	Days int `json:"days"`
	// WeChatDays is how long after creation a link opens from WeChat without wechat_access.
	WeChatDays int `json:"wechat_days"`
}

// planNames are the plans' names in English; the web app shows its own translations.
var planNames = map[string]string{Free: "Free", Trial: "Trial", Personal: "Personal", Enterprise: "Enterprise"}

// Offers lists every plan of the table, cheapest first, with its prices, features and limits.
func (g *Gate) Offers() []Offer {
	out := make([]Offer, 0, len(Names))
	for _, name := range Names {
		p := g.Plan(name)
		o := Offer{ID: name, Name: planNames[name], Prices: defaultPrices[name], Limits: p.Limits,
			WeChatDays: p.WeChatDays, Features: make(map[Feature]bool, len(Features))}
		for _, f := range Features {
			o.Features[f] = p.Has(f)
		}
		if name == Trial {
			o.Days = int(TrialLength.Hours() / 24)
		}
		out = append(out, o)
	}
	return out
}

// currencies are the currencies of p's prices that cost something.
func (p Prices) currencies() []string {
	var out []string
	for _, m := range []*Money{p.Monthly, p.Yearly, p.Once} {
		if m != nil && m.Amount > 0 {
			out = append(out, m.Currency)
		}
	}
	return out
}

// FreeInSoldCurrency writes the zero prices of offers (the free plan's) in the currency the
// other plans are sold in, when they are all sold in one: a listing priced by Stripe in USD
// then shows the free plan at $0, not CN¥0 beside $20. Mixed currencies, or none priced,
// leave them as they are.
func FreeInSoldCurrency(offers []Offer) {
	sold := ""
	for _, o := range offers {
		for _, c := range o.Prices.currencies() {
			if sold != "" && c != sold {
				return
			}
			sold = c
		}
	}
	if sold == "" {
		return
	}
	for i := range offers {
		p := &offers[i].Prices
		for _, m := range []**Money{&p.Monthly, &p.Yearly, &p.Once} {
			if *m != nil && (*m).Amount == 0 && (*m).Currency != sold {
				zero := **m
				zero.Currency = sold
				*m = &zero
			}
		}
	}
}
