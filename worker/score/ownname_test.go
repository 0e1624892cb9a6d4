package score

import "testing"

// TestPublicBodyNames checks that a public body's registered name and a word of its own that
// starts like a brand are no look-alikes, while a brand worn elsewhere on such hosts still is.
func TestPublicBodyNames(t *testing.T) {
	for _, tt := range []struct {
		host  string
		brand string // "" for none
	}{
		{"rsj.yunshan.gov.cn", ""},
		{"ssfw.yunshan-court.gov.cn", ""},
		{"jiaofei.yunshan-edu.cn", ""},
		{"pay.yunshan.edu.cn", ""},
		{"portal.paypai.ac.uk", ""},
		{"binanc.gov.au", ""},
		{"paypal-verify.yunshan.gov.cn", "paypal"},
		{"yunshanfu-pay.gov.cn.jiaofei.top", "unionpay"},
		{"yunshamfu.com", "unionpay"},
		{"paypak.com", "paypal"},
		{"steamcommunnity.com", "steamcommunity"},
	} {
		b, _, detail, ok := lookAlike(tt.host)
		got := ""
		if ok {
			got = b.keys[0]
		}
		if got != tt.brand {
			t.Errorf("lookAlike(%q) = %q (%s), want %q", tt.host, got, detail, tt.brand)
		}
	}
}
