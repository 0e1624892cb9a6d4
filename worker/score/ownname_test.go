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

// TestWornDomain checks which hosts wear another site's whole domain at their front.
func TestWornDomain(t *testing.T) {
	for _, tt := range []struct{ host, want string }{
		{"bendigobank.com.au.session-verify-id.net", "bendigobank.com.au"},
		{"www.heritage-bank.com.logon-check.top", "heritage-bank.com"},
		{"hzbank.com.cn.wangyin.top", "hzbank.com.cn"},
		{"my.blog.example.com", ""},
		{"api.dev.example.com", ""},
		{"shop.de.example.com", ""},
		{"www.jstor.org.ezproxy.example.edu", ""},
		{"example.com.s3.amazonaws.com", ""},
		{"login.example.com", ""},
	} {
		if got := wornDomain(tt.host); got != tt.want {
			t.Errorf("wornDomain(%q) = %q, want %q", tt.host, got, tt.want)
		}
	}
}
