package score

import (
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/width"
)

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

// matchField, the rule fieldWordAsks applies word by word, says whether word is in s (lower-cased), whose words are toks: a Chinese phrase,
// or one with a space, hyphen or slash, anywhere; a Latin word as a word, as two neighbouring
// words run together ("card", "number" for "cardnumber"), or as all of them run together.
func matchField(s string, toks []string, word string) bool {
	if r, _ := utf8.DecodeRuneInString(word); r >= 0x2E80 || strings.ContainsAny(word, " -/") {
		return strings.Contains(s, word)
	}
	if strings.Join(toks, "") == word {
		return true
	}
	for i, t := range toks {
		if t == word || (i+1 < len(toks) && t+toks[i+1] == word) {
			return true
		}
	}
	return false
}

// TestFieldWordAsksMatchesEachWord: the index fieldWordAsks looks words up in tells, for every
// field name and hint of every labelled page, what matching each of fieldWords in turn tells.
func TestFieldWordAsksMatchesEachWord(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range loadLabelled(t) {
		for _, c := range p.captures {
			for _, f := range c.Forms {
				for _, s := range append(append([]string{}, f.Fields...), f.Hints...) {
					raw := width.Fold.String(strings.TrimSpace(s))
					if raw == "" || seen[raw] {
						continue
					}
					seen[raw] = true
					lower, toks := strings.ToLower(raw), tokens(raw)
					var want asks
					for _, fw := range fieldWords {
						for _, w := range fw.words {
							if matchField(lower, toks, w) {
								want |= fw.k
								break
							}
						}
					}
					if got := fieldWordAsks(lower, toks); got != want {
						t.Errorf("%q: the index tells %b, word by word %b", raw, got, want)
					}
				}
			}
		}
	}
	if len(seen) < 500 {
		t.Fatalf("only %d field names and hints compared", len(seen))
	}
}
