package link_test

import (
	"maps"
	"net/url"
	"strings"
	"testing"

	"github.com/shortlink/shortlink/backend/link"
)

func TestFormCheck(t *testing.T) {
	form := &link.Form{Fields: []link.FormField{
		{Name: "name", Label: "Name", Type: link.FieldText, Required: true},
		{Name: "note", Label: "Note", Type: link.FieldText},
		{Name: "email", Label: "Email", Type: link.FieldEmail},
		{Name: "phone", Label: "Phone", Type: link.FieldPhone},
		{Name: "size", Label: "Size", Type: link.FieldChoice, Options: []string{"S", "M", "L 大"}},
	}}
	ok := func(kv ...string) map[string]string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	tests := []struct {
		name     string
		in       url.Values
		region   string
		clean    map[string]string
		problems map[string]string
	}{
		{"only the required field", url.Values{"name": {"Ann"}}, "", ok("name", "Ann"), nil},
		{"required missing", url.Values{"note": {"hi"}}, "", ok("note", "hi"), ok("name", link.ProblemRequired)},
		{"required blank", url.Values{"name": {"  \t "}}, "", ok(), ok("name", link.ProblemRequired)},
		{"empty optional answers left out", url.Values{"name": {"Ann"}, "note": {""}, "email": {" "}, "phone": {""}, "size": {""}}, "", ok("name", "Ann"), nil},
		{"trimmed", url.Values{"name": {"  Ann Lee "}}, "", ok("name", "Ann Lee"), nil},
		{"unknown inputs ignored", url.Values{"name": {"Ann"}, "csrf": {"x"}, "password": {"p"}}, "", ok("name", "Ann"), nil},
		{"first of two values", url.Values{"name": {"Ann", "Bob"}}, "", ok("name", "Ann"), nil},
		{"text of 500 characters", url.Values{"name": {strings.Repeat("字", 500)}}, "", ok("name", strings.Repeat("字", 500)), nil},
		{"text too long", url.Values{"name": {strings.Repeat("a", 501)}}, "", ok(), ok("name", link.ProblemTooLong)},
		{"text with a newline", url.Values{"name": {"Ann\nLee"}}, "", ok(), ok("name", link.ProblemText)},
		{"text with NUL", url.Values{"name": {"Ann\x00"}}, "", ok(), ok("name", link.ProblemText)},
		{"text with an escape", url.Values{"name": {"Ann\x1b[31m"}}, "", ok(), ok("name", link.ProblemText)},
		{"text not UTF-8", url.Values{"name": {"Ann\xff"}}, "", ok(), ok("name", link.ProblemText)},
		{"email", url.Values{"name": {"A"}, "email": {"ann@example.com"}}, "", ok("name", "A", "email", "ann@example.com"), nil},
		{"email with a name", url.Values{"name": {"A"}, "email": {"Ann <ann@example.com>"}}, "", ok("name", "A"), ok("email", link.ProblemEmail)},
		{"email without domain dot", url.Values{"name": {"A"}, "email": {"ann@localhost"}}, "", ok("name", "A"), ok("email", link.ProblemEmail)},
		{"email not an address", url.Values{"name": {"A"}, "email": {"ann"}}, "", ok("name", "A"), ok("email", link.ProblemEmail)},
		{"email two addresses", url.Values{"name": {"A"}, "email": {"a@example.com, b@example.com"}}, "", ok("name", "A"), ok("email", link.ProblemEmail)},
		{"email too long", url.Values{"name": {"A"}, "email": {strings.Repeat("a", 250) + "@example.com"}}, "", ok("name", "A"), ok("email", link.ProblemEmail)},
		{"phone local, default region CN", url.Values{"name": {"A"}, "phone": {"138 0013 8000"}}, "", ok("name", "A", "phone", "+8613800138000"), nil},
		{"phone local, visitor in CN", url.Values{"name": {"A"}, "phone": {"13800138000"}}, "cn", ok("name", "A", "phone", "+8613800138000"), nil},
		{"phone international", url.Values{"name": {"A"}, "phone": {"+49 30 901820"}}, "CN", ok("name", "A", "phone", "+4930901820"), nil},
		{"phone with 00 prefix", url.Values{"name": {"A"}, "phone": {"0049 30 901820"}}, "CN", ok("name", "A", "phone", "+4930901820"), nil},
		{"phone local, visitor in DE", url.Values{"name": {"A"}, "phone": {"030 901820"}}, "DE", ok("name", "A", "phone", "+4930901820"), nil},
		{"phone local, visitor in US", url.Values{"name": {"A"}, "phone": {"(202) 456-1111"}}, "US", ok("name", "A", "phone", "+12024561111"), nil},
		{"phone unknown region falls back", url.Values{"name": {"A"}, "phone": {"13800138000"}}, "XX", ok("name", "A", "phone", "+8613800138000"), nil},
		{"phone German number read as Chinese", url.Values{"name": {"A"}, "phone": {"030 901820"}}, "", ok("name", "A"), ok("phone", link.ProblemPhone)},
		{"phone too short", url.Values{"name": {"A"}, "phone": {"123"}}, "", ok("name", "A"), ok("phone", link.ProblemPhone)},
		{"phone letters", url.Values{"name": {"A"}, "phone": {"call me"}}, "", ok("name", "A"), ok("phone", link.ProblemPhone)},
		{"phone too long", url.Values{"name": {"A"}, "phone": {"+86 138 0013 8000" + strings.Repeat(" ", 60) + "1"}}, "", ok("name", "A"), ok("phone", link.ProblemPhone)},
		{"choice", url.Values{"name": {"A"}, "size": {"M"}}, "", ok("name", "A", "size", "M"), nil},
		{"choice with spaces inside", url.Values{"name": {"A"}, "size": {"L 大"}}, "", ok("name", "A", "size", "L 大"), nil},
		{"choice not an option", url.Values{"name": {"A"}, "size": {"XL"}}, "", ok("name", "A"), ok("size", link.ProblemChoice)},
		{"choice other case", url.Values{"name": {"A"}, "size": {"m"}}, "", ok("name", "A"), ok("size", link.ProblemChoice)},
		{"several problems", url.Values{"email": {"x"}, "size": {"XL"}, "note": {"fine"}}, "", ok("note", "fine"),
			ok("name", link.ProblemRequired, "email", link.ProblemEmail, "size", link.ProblemChoice)},
		{"nothing posted", nil, "", ok(), ok("name", link.ProblemRequired)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clean, problems := form.Check(tt.in, tt.region)
			if tt.problems == nil {
				tt.problems = map[string]string{}
			}
			if !maps.Equal(clean, tt.clean) {
				t.Errorf("clean = %q, want %q", clean, tt.clean)
			}
			if !maps.Equal(problems, tt.problems) {
				t.Errorf("problems = %q, want %q", problems, tt.problems)
			}
		})
	}
}

func TestFormCheckRequiredOfEveryType(t *testing.T) {
	form := &link.Form{Fields: []link.FormField{
		{Name: "email", Label: "Email", Type: link.FieldEmail, Required: true},
		{Name: "phone", Label: "Phone", Type: link.FieldPhone, Required: true},
		{Name: "size", Label: "Size", Type: link.FieldChoice, Required: true, Options: []string{"S", "M"}},
	}}
	_, problems := form.Check(url.Values{}, "")
	if len(problems) != 3 {
		t.Fatalf("problems = %q, want each field required", problems)
	}
	for name, p := range problems {
		if p != link.ProblemRequired {
			t.Errorf("%s: %q", name, p)
		}
	}
}

func FuzzFormCheck(f *testing.F) {
	form := &link.Form{Fields: []link.FormField{
		{Name: "t", Label: "T", Type: link.FieldText, Required: true},
		{Name: "e", Label: "E", Type: link.FieldEmail},
		{Name: "p", Label: "P", Type: link.FieldPhone},
		{Name: "c", Label: "C", Type: link.FieldChoice, Options: []string{"a", "b"}},
	}}
	f.Add("x", "a@example.com", "+8613800138000", "a", "CN")
	f.Add("", "", "", "", "")
	f.Add("\x00", "<a@b.c>", "++", "c", "ZZ")
	f.Fuzz(func(t *testing.T, text, email, phone, choice, region string) {
		clean, problems := form.Check(url.Values{"t": {text}, "e": {email}, "p": {phone}, "c": {choice}}, region)
		for name, v := range clean {
			if _, bad := problems[name]; bad {
				t.Fatalf("%s is both clean and a problem", name)
			}
			if v == "" || v != strings.TrimSpace(v) || strings.ContainsFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
				t.Fatalf("%s: unclean answer %q", name, v)
			}
		}
		if p, ok := clean["p"]; ok && !strings.HasPrefix(p, "+") {
			t.Fatalf("phone %q is not E.164", p)
		}
	})
}
