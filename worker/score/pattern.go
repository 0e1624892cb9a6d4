package score

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"sync/atomic"
	"unicode"
)

// pattern is a regular expression of the scorer with a prefilter: strings one of which occurs
// in every text it matches (need), looked for with strings.Contains before the expression runs.
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
		if need := required(re.Simplify()); len(need) > 0 && len(need) <= maxNeed && minLen(need) > 0 {
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

// required returns strings one of which occurs, byte for byte, in every text re matches; nil
// when none was found. A literal matched without regard to case counts only when it has no
// letter of two cases (digits, Chinese, punctuation).
func required(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		if s, ok := literal(re); ok {
			return []string{s}
		}
		// Its longest run of runes that have one case.
		return required(&syntax.Regexp{Op: syntax.OpConcat, Sub: splitRunes(re)})
	case syntax.OpCharClass:
		if s, ok := literal(re); ok {
			return []string{s}
		}
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
	case syntax.OpAlternate:
		var all []string
		for _, sub := range re.Sub {
			s := required(sub)
			if s == nil {
				return nil
			}
			all = append(all, s...)
		}
		return all
	case syntax.OpConcat:
		// Adjacent literal pieces join into one run; the best candidate is the run or the
		// sub-expression whose shortest string is longest.
		var best []string
		run := ""
		consider := func(set []string) {
			if minLen(set) > minLen(best) || minLen(set) == minLen(best) && len(set) < len(best) {
				best = set
			}
		}
		for _, sub := range re.Sub {
			if s, ok := literal(sub); ok {
				run += s
				continue
			}
			if run != "" {
				consider([]string{run})
				run = ""
			}
			if set := required(sub); set != nil {
				consider(set)
			}
		}
		if run != "" {
			consider([]string{run})
		}
		return best
	}
	return nil
}

// literal is the one string re matches: a literal, or a class of one rune, neither of them
// folding a letter's case.
func literal(re *syntax.Regexp) (string, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			for _, r := range re.Rune {
				if cased(r) {
					return "", false
				}
			}
		}
		return string(re.Rune), true
	case syntax.OpCharClass:
		if len(re.Rune) == 2 && re.Rune[0] == re.Rune[1] {
			return string(re.Rune[0]), true
		}
	}
	return "", false
}

// splitRunes turns a literal into a concatenation of one-rune literals, a letter of two cases
// matched without regard to case standing for any rune, so that required keeps the runs between.
func splitRunes(re *syntax.Regexp) []*syntax.Regexp {
	subs := make([]*syntax.Regexp, len(re.Rune))
	for i, r := range re.Rune {
		op := syntax.OpLiteral
		if re.Flags&syntax.FoldCase != 0 && cased(r) {
			op = syntax.OpAnyChar
		}
		subs[i] = &syntax.Regexp{Op: op, Rune: []rune{r}}
	}
	return subs
}

// cased reports whether r has another case form.
func cased(r rune) bool { return unicode.SimpleFold(r) != r }

// minLen is the length in bytes of a set's shortest string: how selective it is.
func minLen(set []string) int {
	if len(set) == 0 {
		return 0
	}
	m := len(set[0])
	for _, s := range set[1:] {
		m = min(m, len(s))
	}
	return m
}
