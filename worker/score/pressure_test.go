package score

import "testing"

func TestShapeAsks(t *testing.T) {
	for hint, want := range map[string]asks{
		"0000 0000 0000 0000": askCard, "1234-5678-9012-3456": askCard, "•••• •••• •••• ••••": askCard,
		"mm / yy": askExpiry, "mm/yyyy": askExpiry, "3 digits": askCVV, "3位": askCVV,
		"1234": 0, "your name": 0, "20 december": 0, "0000 0000": 0,
	} {
		if got := shapeAsks(hint); got != want {
			t.Errorf("shapeAsks(%q) = %v, want %v", hint, got, want)
		}
	}
}

func TestInvisibleTitle(t *testing.T) {
	for title, want := range map[string]bool{"\u200b": true, "\u200b \u200c\u2060": true, "\u3164": true,
		"Sign in": false, "登录": false, " ": true, "\u200bOutlook": false} {
		if got := invisible(title); got != want {
			t.Errorf("invisible(%q) = %v, want %v", title, got, want)
		}
	}
}

func TestLookAlikeHostsOfTheGeneralSignals(t *testing.T) {
	for host, brand := range map[string]string{
		"e-zpass.toll-pay-ny.com":     "ezpass",    // a brand split by a hyphen
		"gov-uk-taxrefund.online":     "hmrc",      // … and under its other key
		"xn--vcsu3iqt1aqejeez30g.com": "sgcc",      // 国家电网缴费.com: the brand's Chinese name in an IDN host
		"m365-filedrop.net":           "microsoft", // a brand's short token as a word
		"pge-billpay-center.com":      "pge",
	} {
		b, _, _, ok := lookAlike(host)
		if !ok || b.keys[0] != brand {
			t.Errorf("lookAlike(%s) = %v, want %s", host, b, brand)
		}
	}
	for _, host := range []string{"river-trust.example.org", "xn--xit848fpzak20d.com", "www.coffee-shoppe.com", "halifax-plumbing.ca"} {
		if b, _, detail, ok := lookAlike(host); ok {
			t.Errorf("lookAlike(%s) = %s: %s, want none", host, b.keys[0], detail)
		}
	}
}
