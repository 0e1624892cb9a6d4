package uap

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// Case is one user agent of uap-core's tests (testdata/, Apache-2.0, from the same commit as
// regexes.yaml) with the families it should be read as.
type Case struct {
	UA     string `yaml:"user_agent_string"`
	Family string `yaml:"family"`
	Brand  string `yaml:"brand"`
	Model  string `yaml:"model"`
}

// Cases reads one of testdata's files (test_ua.yaml, test_os.yaml, test_device.yaml.gz).
func Cases(tb testing.TB, name string) []Case {
	tb.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		tb.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	var r io.Reader = f
	if strings.HasSuffix(name, ".gz") {
		if r, err = gzip.NewReader(f); err != nil {
			tb.Fatal(err)
		}
	}
	var file struct {
		TestCases []Case `yaml:"test_cases"`
	}
	if err := yaml.NewDecoder(r).Decode(&file); err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	return file.TestCases
}

func mustNew(tb testing.TB) *Parser {
	tb.Helper()
	p, err := New()
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// The parser reads uap-core's own tests as uap-core does: every family, brand and model.
func TestUAPCoreCases(t *testing.T) {
	p := mustNew(t)
	for _, file := range []string{"test_ua.yaml", "test_os.yaml", "test_device.yaml.gz"} {
		cases := Cases(t, file)
		wrong := 0
		for _, c := range cases {
			res := p.Parse(c.UA)
			var got, want string
			switch file {
			case "test_ua.yaml":
				got, want = res.Browser, c.Family
			case "test_os.yaml":
				got, want = res.OS, c.Family
			default:
				got, want = res.Device.Family+"|"+res.Device.Brand+"|"+res.Device.Model, c.Family+"|"+c.Brand+"|"+c.Model
			}
			if got != want {
				wrong++
				if wrong <= 10 {
					t.Errorf("%s: %q\n got %q\nwant %q", file, c.UA, got, want)
				}
			}
		}
		t.Logf("%s: %d of %d read as uap-core reads them", file, len(cases)-wrong, len(cases))
	}
}

// Every part of the cut expressions, and every relaxed copy, compiles.
func TestPartsCompile(t *testing.T) {
	p := mustNew(t)
	for li := range p.lists {
		for ri := range p.lists[li].rules {
			r := &p.lists[li].rules[ri]
			relaxed := r.part != nil && func() bool { _, ok := relax(r.part); return ok }()
			r.compile()
			if r.re == nil || relaxed && r.fast == nil {
				t.Errorf("list %d, rule %d (expression %d): does not compile", li, ri, r.group)
			}
		}
	}
}

// The prefilter hides no rule: the first rule that matches is the one trying every rule in
// order finds.
func TestPrefilterIsExact(t *testing.T) {
	p := mustNew(t)
	var uas []string
	for _, file := range []string{"test_ua.yaml", "test_os.yaml", "test_device.yaml.gz"} {
		for i, c := range Cases(t, file) {
			if file != "test_device.yaml.gz" || i%16 == 0 {
				uas = append(uas, c.UA)
			}
		}
	}
	// The expressions whole, as regexes.yaml gives them.
	var file struct {
		UserAgentParsers []entry `yaml:"user_agent_parsers"`
		OSParsers        []entry `yaml:"os_parsers"`
		DeviceParsers    []entry `yaml:"device_parsers"`
	}
	if err := yaml.Unmarshal(regexesYAML, &file); err != nil {
		t.Fatal(err)
	}
	var wholes [3][]*regexp.Regexp
	for li, entries := range [3][]entry{file.UserAgentParsers, file.OSParsers, file.DeviceParsers} {
		for _, e := range entries {
			src := e.Regex
			if strings.Contains(e.RegexFlag, "i") {
				src = "(?i)" + src
			}
			wholes[li] = append(wholes[li], regexp.MustCompile(src))
		}
	}
	// Every expression whole against every case is most of this package's test time: -short
	// (make test-unit, make test-short) compares one case in eight, make test all of them.
	step := 1
	if testing.Short() {
		step = 8
	}
	for i, ua := range uas {
		if i%step != 0 {
			continue
		}
		present := p.present(ua)
		for li, whole := range wholes {
			r, got := p.first(li, ua, present)
			gotGroup := -1
			if r != nil {
				gotGroup = int(r.group)
			}
			wantGroup, want := -1, []int(nil)
			for i, re := range whole {
				if m := re.FindStringSubmatchIndex(ua); m != nil {
					wantGroup, want = i, m
					break
				}
			}
			if gotGroup != wantGroup || !slices.Equal(got, want) {
				t.Fatalf("list %d, %q: prefilter found expression %d %v, in order %d %v", li, ua, gotGroup, got, wantGroup, want)
			}
		}
	}
}

// ordered reads a user agent as uap-core's ports do: every expression whole, in order.
type ordered struct {
	lists [3][]*regexp.Regexp
	repl  [3][][3]string
}

func newOrdered(tb testing.TB) *ordered {
	tb.Helper()
	var file struct {
		UserAgentParsers []entry `yaml:"user_agent_parsers"`
		OSParsers        []entry `yaml:"os_parsers"`
		DeviceParsers    []entry `yaml:"device_parsers"`
	}
	if err := yaml.Unmarshal(regexesYAML, &file); err != nil {
		tb.Fatal(err)
	}
	o := &ordered{}
	for li, entries := range [3][]entry{file.UserAgentParsers, file.OSParsers, file.DeviceParsers} {
		for _, e := range entries {
			src := e.Regex
			if strings.Contains(e.RegexFlag, "i") {
				src = "(?i)" + src
			}
			o.lists[li] = append(o.lists[li], regexp.MustCompile(src))
			switch li {
			case browsers:
				o.repl[li] = append(o.repl[li], [3]string{e.FamilyReplacement})
			case systems:
				o.repl[li] = append(o.repl[li], [3]string{e.OSReplacement})
			default:
				o.repl[li] = append(o.repl[li], [3]string{e.DeviceReplacement, e.BrandReplacement, e.ModelReplacement})
			}
		}
	}
	return o
}

func (o *ordered) parse(ua string) Result {
	res := Result{Browser: Other, OS: Other, Device: Device{Family: Other}}
	for li, list := range o.lists {
		for i, re := range list {
			m := re.FindStringSubmatchIndex(ua)
			if m == nil {
				continue
			}
			r := o.repl[li][i]
			switch li {
			case browsers:
				res.Browser = orOther(replace(r[0], ua, m, 1))
			case systems:
				res.OS = orOther(replace(r[0], ua, m, 1))
			default:
				res.Device = Device{orOther(replace(r[0], ua, m, 1)), replace(r[1], ua, m, 0), replace(r[2], ua, m, 1)}
			}
			break
		}
	}
	return res
}

// Whatever the user agent, the parser answers as trying every expression in order does.
func FuzzParse(f *testing.F) {
	p, o := mustNew(f), newOrdered(f)
	for i, c := range Cases(f, "test_ua.yaml") {
		if i%20 == 0 {
			f.Add(c.UA)
		}
	}
	f.Add("Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.91 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")
	f.Fuzz(func(t *testing.T, ua string) {
		if got, want := p.Parse(ua), o.parse(ua); got != want {
			t.Errorf("%q:\n got %+v\nwant %+v", ua, got, want)
		}
	})
}

func BenchmarkParse(b *testing.B) {
	p := mustNew(b)
	for _, ua := range []struct{ name, ua string }{
		{"iOS Safari", "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"},
		{"Android Chrome", "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36"},
		{"Windows Edge", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.80"},
	} {
		b.Run(ua.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p.Parse(ua.ua)
			}
		})
	}
}

func BenchmarkNew(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		mustNew(b)
	}
}
