package prefilter

import (
	"regexp/syntax"
	"slices"
	"testing"
)

// TestRequiredExact: the strings one of which every match holds, byte for byte: a literal's
// longest run, each branch of an alternation, nothing for an optional part, and a letter matched
// without regard to case never required as written.
func TestRequiredExact(t *testing.T) {
	for _, c := range []struct {
		expr string
		want []string
	}{
		{`\bnew (?:operating |bank )?account\b`, []string{"account"}},
		{`transfer|wire|汇款`, []string{"transfer", "wire", "汇款"}},
		{`(?:原|旧)账户`, []string{"账户"}},
		{`(?i)chase`, nil},
		{`(?i)支付|atm`, nil},
		{`(?i)支付|交易`, []string{"支付", "交易"}},
		{`(?i)pay 支付宝`, []string{" 支付宝"}},
		{`colou?r`, []string{"colo"}},
		{`[0-9]{6,}`, nil},
		{`a*`, nil},
	} {
		re, err := syntax.Parse(c.expr, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		got := RequiredExact(re.Simplify())
		slices.Sort(got)
		want := slices.Clone(c.want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("required(%q) = %q, want %q", c.expr, got, want)
		}
	}
}
