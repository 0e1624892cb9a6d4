package score

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"sync/atomic"

	"github.com/shortlink/shortlink/backend/visitor/prefilter"
)

// pattern is a regular expression of the scorer with a prefilter: strings one of which occurs
// in every text it matches (need, prefilter.RequiredExact), looked for with strings.Contains
// before the expression runs.
// Most pages hold none of most signals' words, and a search for a few strings costs a fraction of
// the expression's pass over a page's text. need is nil where no such strings were found (the
// expression then always runs).
type pattern struct {
	*regexp.Regexp
	need []string
}

// maxNeed bounds how many strings a prefilter looks for: past it, the expression runs.
const maxNeed = 64

// patterns are every pattern the package made, for the test that checks their prefilters.
var patterns []*pattern

// mustPattern compiles expr, as regexp.MustCompile does, with its prefilter.
func mustPattern(expr string) *pattern {
	p := &pattern{Regexp: regexp.MustCompile(expr)}
	if re, err := syntax.Parse(expr, syntax.Perl); err == nil {
		if need := prefilter.RequiredExact(re.Simplify()); len(need) <= maxNeed && prefilter.Score(need) > 0 {
			p.need = need
		}
	}
	patterns = append(patterns, p)
	return p
}

// unfiltered runs every expression past its prefilter: a test's way to compare the scorer's
// verdicts with and without the prefilters.
var unfiltered atomic.Bool

// may says whether s holds one of the strings every match holds: false means no match.
func (p *pattern) may(s string) bool {
	if p.need == nil || unfiltered.Load() {
		return true
	}
	for _, n := range p.need {
		if strings.Contains(s, n) {
			return true
		}
	}
	return false
}

// MatchString is regexp's, after the prefilter.
func (p *pattern) MatchString(s string) bool { return p.may(s) && p.Regexp.MatchString(s) }

// FindString is regexp's, after the prefilter.
func (p *pattern) FindString(s string) string {
	if !p.may(s) {
		return ""
	}
	return p.Regexp.FindString(s)
}

// FindStringIndex is regexp's, after the prefilter.
func (p *pattern) FindStringIndex(s string) []int {
	if !p.may(s) {
		return nil
	}
	return p.Regexp.FindStringIndex(s)
}

// FindAllStringIndex is regexp's, after the prefilter.
func (p *pattern) FindAllStringIndex(s string, n int) [][]int {
	if !p.may(s) {
		return nil
	}
	return p.Regexp.FindAllStringIndex(s, n)
}

// FindStringSubmatch is regexp's, after the prefilter.
func (p *pattern) FindStringSubmatch(s string) []string {
	if !p.may(s) {
		return nil
	}
	return p.Regexp.FindStringSubmatch(s)
}

// FindAllStringSubmatch is regexp's, after the prefilter.
func (p *pattern) FindAllStringSubmatch(s string, n int) [][]string {
	if !p.may(s) {
		return nil
	}
	return p.Regexp.FindAllStringSubmatch(s, n)
}
