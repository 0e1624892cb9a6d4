package score

import "testing"

func TestFieldAsks(t *testing.T) {
	tests := []struct {
		name, hint string
		want       asks
	}{
		{"cardNumber", "", askCard},
		{"billing_card_number", "", askCard},
		{"cc-number", "", askCard},
		{"a1", "银行卡号", askCard},
		{"cvv2", "", askCVV},
		{"x", "CVV2/安全码", askCVV},
		{"exp", "MM/YY", askExpiry},
		{"password", "请输入6位支付密码", askPIN},
		{"zfmm", "", askPIN},
		{"qkmm", "取款密码", askPIN},
		{"pin", "", askPIN},
		{"shipping", "Shipping method", 0}, // no "pin" inside another word
		{"password", "Password", askPassword},
		{"sfz", "身份证号", askID},
		{"smsCode", "短信验证码", askOTP},
		{"yzm", "", askOTP},
		{"mobile", "手机号", askPhone},
		{"email", "Email", askLogin},
		{"phrase", "Enter your secret recovery phrase", askSecret},
		{"q", "Search", 0},
		{"ｃｖｖ", "", askCVV}, // full-width letters
	}
	for _, tt := range tests {
		if got := fieldAsks(tt.name, tt.hint); got != tt.want {
			t.Errorf("fieldAsks(%q, %q) = %s (%b), want %s (%b)", tt.name, tt.hint, got, got, tt.want, tt.want)
		}
	}
}
