// Package crawlers tells user agents of robots from those of people: search engines, the
// link-preview fetchers of chat and mail apps, safe-links scanners, HTTP libraries and
// headless browsers.
//
// Three public lists are vendored, each with its licence and a note of its source (SOURCE):
// monperrus/crawler-user-agents (MIT, crawler-user-agents.json), JayBizzle/Crawler-Detect's
// patterns (MIT, crawlerdetect/Crawlers.txt) and omrilotan/isbot's (the Unlicense,
// isbot/patterns.json), less the patterns that match phones and people's apps too (narrowed
// or dropped in overrides.go), plus the project's own patterns and rules in extra.go.
// Checking 3,000 regular expressions one by one, or as one alternation, costs tens of
// microseconds in Go; instead every pattern yields strings of which one must occur in
// whatever it matches, an Aho-Corasick automaton (package prefilter) finds those strings in
// one pass over the user agent, and only the patterns whose strings occur are run.
package crawlers

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"

	"github.com/shortlink/shortlink/backend/visitor/prefilter"
)

//go:embed crawler-user-agents.json
var listJSON []byte

//go:embed crawlerdetect/Crawlers.txt
var crawlerDetectTxt string

//go:embed isbot/patterns.json
var isbotJSON []byte

// Matcher holds the compiled list; it is safe for concurrent use.
type Matcher struct {
	ac       *prefilter.Automaton
	byString [][]int32 // string index → patterns that require it
	always   []int32   // patterns with no required string, tried on every user agent
	patterns []pattern
}

type pattern struct {
	source string
	// kind says what proves a match once a required string was found.
	kind  int
	plain string         // kindContains: the pattern is this case-sensitive text
	re    *regexp.Regexp // kindRegexp
	// prefix is the text a kindRegexp pattern anchored at the start ("^ddg[_-]android")
	// needs the user agent to begin with, up to ASCII case when fold: checked before the
	// expression runs, since the prefilter may have found one of its later strings.
	prefix string
	fold   bool
}

const (
	kindFound    = iota // the pattern is a case-insensitive literal: finding it is the match
	kindContains        // a case-sensitive literal: strings.Contains decides
	kindRegexp
)

// New compiles the vendored lists and the project's own patterns.
func New() (*Matcher, error) {
	var list []struct {
		Pattern string `json:"pattern"`
	}
	if err := json.Unmarshal(listJSON, &list); err != nil {
		return nil, fmt.Errorf("crawlers: read crawler-user-agents.json: %w", err)
	}
	var isbot []string
	if err := json.Unmarshal(isbotJSON, &isbot); err != nil {
		return nil, fmt.Errorf("crawlers: read isbot/patterns.json: %w", err)
	}
	var sources []string
	for _, e := range list {
		sources = appendNarrowed(sources, e.Pattern, narrowed, "")
	}
	// Crawler-Detect and isbot match without regard to case.
	for _, p := range crawlerDetectPatterns() {
		sources = appendNarrowed(sources, p, narrowedCrawlerDetect, "(?i)")
	}
	for _, p := range isbot {
		sources = appendNarrowed(sources, p, narrowedIsbot, "(?i)")
	}
	sources = append(sources, extra...)
	return compile(sources)
}

// crawlerDetectPatterns are the lines of Crawler-Detect's list.
func crawlerDetectPatterns() []string {
	var out []string
	for _, line := range strings.Split(crawlerDetectTxt, "\n") {
		if line = strings.TrimRight(line, "\r"); line != "" {
			out = append(out, line)
		}
	}
	return out
}

// appendNarrowed appends a list's pattern, or what overrides has instead ("" drops it),
// prefixed with flags.
func appendNarrowed(sources []string, p string, overrides map[string]string, flags string) []string {
	if q, ok := overrides[p]; ok {
		p = q
	}
	if p == "" {
		return sources
	}
	return append(sources, flags+p)
}

func compile(sources []string) (*Matcher, error) {
	m := &Matcher{patterns: make([]pattern, 0, len(sources))}
	index := map[string]int32{}
	var strs []string
	for _, src := range sources {
		parsed, err := syntax.Parse(src, syntax.Perl)
		if err != nil {
			return nil, fmt.Errorf("crawlers: pattern %q: %w", src, err)
		}
		parsed = parsed.Simplify()
		p := pattern{source: src, kind: kindRegexp}
		if parsed.Op == syntax.OpLiteral {
			if parsed.Flags&syntax.FoldCase == 0 {
				p.kind, p.plain = kindContains, string(parsed.Rune)
			} else if s, ok := prefilter.Literal(parsed); ok && len(s) == len(string(parsed.Rune)) {
				p.kind = kindFound
			}
		}
		if p.kind == kindRegexp {
			if p.re, err = regexp.Compile(src); err != nil {
				return nil, fmt.Errorf("crawlers: pattern %q: %w", src, err)
			}
			p.prefix, p.fold = anchoredPrefix(parsed)
		}
		id := int32(len(m.patterns))
		m.patterns = append(m.patterns, p)

		req := prefilter.Required(parsed)
		if prefilter.Score(req) == 0 {
			m.always = append(m.always, id)
			continue
		}
		for _, s := range dedupe(req) {
			si, ok := index[s]
			if !ok {
				si = int32(len(strs))
				index[s] = si
				strs = append(strs, s)
				m.byString = append(m.byString, nil)
			}
			m.byString[si] = append(m.byString[si], id)
		}
	}
	m.ac = prefilter.NewAutomaton(strs)
	return m, nil
}

func dedupe(set []string) []string {
	out := set[:0:0]
	for _, s := range set {
		dup := false
		for _, o := range out {
			dup = dup || o == s
		}
		if !dup {
			out = append(out, s)
		}
	}
	return out
}

// Match reports whether ua is a robot's user agent. An empty user agent is one: browsers
// always send theirs.
func (m *Matcher) Match(ua string) bool { return m.find(ua) >= 0 || blank(ua) || shape(ua) != "" }

// Which is the pattern that makes ua a robot's, "" when none does (an empty user agent
// answers "(empty)"); for tests and investigations.
func (m *Matcher) Which(ua string) string {
	if i := m.find(ua); i >= 0 {
		return m.patterns[i].source
	}
	if blank(ua) {
		return "(empty)"
	}
	if s := shape(ua); s != "" {
		return s
	}
	return ""
}

func blank(ua string) bool {
	ua = strings.TrimSpace(ua)
	return ua == "" || ua == "-"
}

func (m *Matcher) find(ua string) int {
	found := -1
	m.ac.Scan(ua, func(strs []int32) bool {
		for _, si := range strs {
			for _, pi := range m.byString[si] {
				if m.patterns[pi].match(ua) {
					found = int(pi)
					return true
				}
			}
		}
		return false
	})
	if found >= 0 {
		return found
	}
	for _, pi := range m.always {
		if m.patterns[pi].re.MatchString(ua) {
			return int(pi)
		}
	}
	return -1
}

func (p *pattern) match(ua string) bool {
	switch p.kind {
	case kindFound:
		return true
	case kindContains:
		return strings.Contains(ua, p.plain)
	default:
		if p.prefix != "" && (len(ua) < len(p.prefix) ||
			p.fold && !strings.EqualFold(ua[:len(p.prefix)], p.prefix) ||
			!p.fold && ua[:len(p.prefix)] != p.prefix) {
			return false
		}
		return p.re.MatchString(ua)
	}
}

// anchoredPrefix is the ASCII text an expression anchored at the start of the text begins
// with ("^ddg[_-]android" → "ddg"), and whether it matches up to case; "" when none.
func anchoredPrefix(re *syntax.Regexp) (string, bool) {
	if re.Op != syntax.OpConcat || len(re.Sub) < 2 || re.Sub[0].Op != syntax.OpBeginText ||
		re.Sub[1].Op != syntax.OpLiteral {
		return "", false
	}
	lit := re.Sub[1]
	for _, r := range lit.Rune {
		if r >= utf8.RuneSelf {
			return "", false
		}
	}
	return string(lit.Rune), lit.Flags&syntax.FoldCase != 0
}
