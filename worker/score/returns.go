package score

import (
	"strconv"
)

// A return fixed in advance, far above what a deposit earns, with the principal promised back:
// the pitch of a Ponzi scheme, whatever it sells (beds in a care home, trees, a mining pool).
// No regulated product promises both; a bank's protected deposit pays a few per cent, and a fund
// that earned more says the capital is at risk (docs/moderation.md, "Heuristics").
var (
	// The principal promised back in full.
	principalBackRE = mustPattern(`(?:到期)?(?:本金|本息)(?:全额|全部|100%)?(?:退还|返还|归还|保障|兑付)|保本|还本|` +
		`\b(?:principal|capital|your (?:money|investment|deposit))\b[^.]{0,20}\b(?:guaranteed|protected|returned in full|back in full|repaid in full|fully returned)`)
	// A rate of return and the period it is counted over.
	yearRateRE  = mustPattern(`(?:年化|年收益|年回报|年返利|年利率|年息)[^。]{0,24}?([0-9]+(?:\.[0-9]+)?) ?%|([0-9]+(?:\.[0-9]+)?) ?% (?:a year|per year|per annum|annually|yearly|p\.a\.)|(?:annual|yearly) (?:return|yield|interest|payout|profit)s? of ([0-9]+(?:\.[0-9]+)?) ?%`)
	monthRateRE = mustPattern(`(?:每月|月)(?:返利|收益|分红|回报|利息|返还)[^。]{0,12}?([0-9]+(?:\.[0-9]+)?) ?%|([0-9]+(?:\.[0-9]+)?) ?% (?:a month|per month|monthly|every month)|monthly (?:return|yield|interest|payout|profit)s? of ([0-9]+(?:\.[0-9]+)?) ?%`)
)

// riskWarningRE is the warning a regulated seller of investments must print: a page that carries
// it sells a product whose return is not promised, whatever its protected deposits pay.
var riskWarningRE = mustPattern(`产品有风险|投资须谨慎|投资有风险|理财非存款|非保本|不保本|past performance|capital (?:is )?at risk|may lose|get back less|value of (?:your |an )?investments? (?:can|may) (?:fall|go down)`)

// Rates above these are no deposit's: 10% a year, 1% a month.
const (
	highYearRate  = 10.0
	highMonthRate = 1.0
)

// highFixedReturn is the first rate in words above what a deposit earns, "" when none is.
func highFixedReturn(words string) string {
	for _, r := range []struct {
		re   *pattern
		over float64
	}{{yearRateRE, highYearRate}, {monthRateRE, highMonthRate}} {
		for _, m := range r.re.FindAllStringSubmatchIndex(words, -1) {
			for g := 2; g+1 < len(m); g += 2 {
				if m[g] < 0 {
					continue
				}
				if v, err := strconv.ParseFloat(words[m[g]:m[g+1]], 64); err == nil && v >= r.over && v < 1000 && !negated(words, m[0]) {
					return words[m[0]:m[1]]
				}
			}
		}
	}
	return ""
}

// principalReturn says what a page promises when it fixes a high return and promises the
// principal back: the pair, "" when it does not.
func principalReturn(words string) string {
	back := firstUnnegated(principalBackRE, words)
	if back == "" || riskWarningRE.MatchString(words) {
		return ""
	}
	rate := highFixedReturn(words)
	if rate == "" {
		return ""
	}
	return truncate(rate, 40) + "; " + back
}
