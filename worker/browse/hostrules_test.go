package browse

import (
	"strings"
	"testing"
)

func TestParseHostRulesRefusesWhatChromiumSkips(t *testing.T) {
	for _, s := range []string{
		"MAP a.test",                  // no replacement
		"MAP a.test 127.0.0.1 extra",  // too many words
		"MAP  a.test 127.0.0.1",       // two spaces: Chromium splits on single spaces
		"REMAP a.test 127.0.0.1",      // unknown keyword
		"EXCLUDE",                     // no pattern
		"MAP a.test 127.0.0.1:99999",  // port out of range
		"MAP a.test 127.0.0.1:",       // empty port
		"MAP a.test ::1",              // IPv6 without brackets
		"MAP a.test [::1",             // unclosed bracket
		"MAP a.test [not-v6]:80",      // not an address in brackets
		"MAP a.test [::1]x",           // junk after the bracket
		"MAP a.test user@127.0.0.1",   // not a host
		"MAP a.test 127.0.0.1:+80",    // signed port
		"MAP a.test 127.0.0.1/8",      // not a host
		"MAP a.test 127.0.0.1, bogus", // one bad rule spoils the set
	} {
		if _, err := ParseHostRules(s); err == nil {
			t.Errorf("ParseHostRules(%q) = nil error, want one", s)
		}
	}
	for _, s := range []string{"", " ", "MAP a.test 127.0.0.1,", "map A.test 127.0.0.1 , exclude B.test"} {
		if _, err := ParseHostRules(s); err != nil {
			t.Errorf("ParseHostRules(%q): %v", s, err)
		}
	}
}

func TestHostRulesMap(t *testing.T) {
	rules := strings.Join([]string{
		"MAP bank-login.test 127.0.0.1:8081",
		"MAP *.shop.test 127.0.0.1:8082",
		"EXCLUDE keep.shop.test",
		"MAP port.test:8443 10.1.1.1",   // pattern with a port
		"MAP v6.test [::1]:9000",        // IPv6 replacement with a port
		"MAP v6bare.test [2001:DB8::1]", // IPv6 replacement without one, written in capitals
		"MAP ::1 198.51.100.7",          // an IPv6 literal host, matched without brackets
		"MAP [::2]:80 198.51.100.8",     // and with them, as host:port
		"MAP gone.test ^NOTFOUND",
		"MAP old-gone.test ~NOTFOUND",
		"MAP a?c.test name.example",
		"MAP *.shop.test 10.9.9.9", // shadowed by the earlier *.shop.test rule
		"MAP Upper.TEST 127.0.0.3",
		`MAP star\*.test 127.0.0.4`,
	}, ", ")
	r, err := ParseHostRules(rules)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		host     string
		port     int
		toHost   string
		toPort   int
		mapped   bool
		notFound bool
	}{
		{"bank-login.test", 80, "127.0.0.1", 8081, true, false},
		{"bank-login.test", 443, "127.0.0.1", 8081, true, false},
		{"www.bank-login.test", 80, "www.bank-login.test", 80, false, false},
		{"a.shop.test", 80, "127.0.0.1", 8082, true, false},
		{"a.b.shop.test", 443, "127.0.0.1", 8082, true, false}, // * spans dots
		{"shop.test", 80, "shop.test", 80, false, false},       // "*." needs something before the dot
		{"keep.shop.test", 80, "keep.shop.test", 80, false, false},
		{"port.test", 8443, "10.1.1.1", 8443, true, false},
		{"port.test", 80, "port.test", 80, false, false},
		{"v6.test", 80, "::1", 9000, true, false},
		{"v6bare.test", 443, "2001:db8::1", 443, true, false},
		{"::1", 80, "198.51.100.7", 80, true, false},
		{"::2", 80, "198.51.100.8", 80, true, false},
		{"::2", 81, "::2", 81, false, false},
		{"gone.test", 80, "gone.test", 80, true, true},
		{"old-gone.test", 80, "old-gone.test", 80, true, true},
		{"abc.test", 80, "name.example", 80, true, false},
		{"ac.test", 80, "ac.test", 80, false, false},
		{"upper.test", 80, "127.0.0.3", 80, true, false},
		{"star*.test", 80, "127.0.0.4", 80, true, false},
		{"starx.test", 80, "starx.test", 80, false, false},
	} {
		toHost, toPort, mapped, notFound := r.Map(c.host, c.port)
		if toHost != c.toHost || toPort != c.toPort || mapped != c.mapped || notFound != c.notFound {
			t.Errorf("Map(%s, %d) = %s, %d, mapped %v, notFound %v; want %s, %d, %v, %v",
				c.host, c.port, toHost, toPort, mapped, notFound, c.toHost, c.toPort, c.mapped, c.notFound)
		}
	}
}

func TestHostRulesExcludeAppliesWherever(t *testing.T) {
	// An EXCLUDE written after the MAP it limits still applies, and it stops every mapping of
	// the host, not only the first rule's.
	r, err := ParseHostRules("MAP * 127.0.0.1, MAP *.test 10.0.0.1, EXCLUDE localhost, EXCLUDE *.keep.test")
	if err != nil {
		t.Fatal(err)
	}
	for host, want := range map[string]string{
		"example.com":  "127.0.0.1",
		"a.test":       "127.0.0.1",
		"localhost":    "localhost",
		"x.keep.test":  "x.keep.test",
		"10.20.30.40":  "127.0.0.1", // IP literals are mapped too
		"keep.test":    "127.0.0.1",
		"x.keep.test.": "127.0.0.1", // a trailing dot is another name to the patterns
	} {
		if got, _, _, _ := r.Map(host, 80); got != want {
			t.Errorf("Map(%s) = %s, want %s", host, got, want)
		}
	}
}

func TestMatchPattern(t *testing.T) {
	for _, c := range []struct {
		s, pattern string
		want       bool
	}{
		{"", "", true},
		{"", "*", true},
		{"a", "", false},
		{"abc", "a*c", true},
		{"abc", "a*b", false},
		{"abcbc", "*bc", true},
		{"a.b.c", "*.c", true},
		{"abc", "a?c", true},
		{"ac", "a?c", false},
		{"a*c", `a\*c`, true},
		{"abc", `a\*c`, false},
		{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaab", "*a*a*a*a*a*a*a*a*c", false},
		{"x.example.com:8080", "*.example.com:*", true},
	} {
		if got := matchPattern(c.s, c.pattern); got != c.want {
			t.Errorf("matchPattern(%q, %q) = %v, want %v", c.s, c.pattern, got, c.want)
		}
	}
}

func FuzzParseHostRules(f *testing.F) {
	f.Add("MAP *.shop.test 127.0.0.1:8080, EXCLUDE a.shop.test")
	f.Add("MAP v6.test [::1]:9000")
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseHostRules(s)
		if err != nil {
			return
		}
		r.Map("a.shop.test", 443)
		r.Map("::1", 80)
	})
}
