// Package prefilter finds, in one pass over a text, which of many regular expressions may
// match it: every expression yields strings one of which must occur in whatever it matches
// (Required), and an Aho-Corasick automaton (Automaton) finds those strings. Only the
// expressions whose strings occur then need to run. RequiredExact serves an expression run on
// its own (the moderation scorer's), whose strings a plain search finds.
package prefilter

import (
	"regexp/syntax"
	"unicode"
	"unicode/utf8"
)

// Required returns strings of which at least one occurs, ASCII-lower-cased, in every text the
// expression matches; nil when no such set was found (the expression must then be tried on
// every user agent). It is a prefilter: a hit says "maybe", the expression decides.
func Required(re *syntax.Regexp) []string { return required(re, true) }

// RequiredExact is Required for a text searched as it is, byte for byte: nothing is
// lower-cased, and a letter the expression matches without regard to case is never required as
// written (the moderation scorer's rules, read on texts it folded itself or not at all).
func RequiredExact(re *syntax.Regexp) []string { return required(re, false) }

// required is Required, with ASCII folded (user agents) or not (RequiredExact).
func required(re *syntax.Regexp, ascii bool) []string {
	switch re.Op {
	case syntax.OpLiteral:
		if s, ok := literal(re, ascii); ok {
			return []string{s}
		}
		// Runes that cannot be folded to one byte string: keep the longest foldable run.
		return required(&syntax.Regexp{Op: syntax.OpConcat, Sub: splitLiteral(re, ascii)}, ascii)
	case syntax.OpCharClass:
		if s, ok := literal(re, ascii); ok {
			return []string{s}
		}
	case syntax.OpCapture:
		return required(re.Sub[0], ascii)
	case syntax.OpPlus:
		return required(re.Sub[0], ascii)
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0], ascii)
		}
	case syntax.OpAlternate:
		var all []string
		for _, sub := range re.Sub {
			s := required(sub, ascii)
			if s == nil {
				return nil
			}
			all = append(all, s...)
		}
		return all
	case syntax.OpConcat:
		// Adjacent literal pieces join into one run; the best candidate is the run or the
		// sub-expression whose shortest required string is longest.
		var best []string
		run := ""
		consider := func(set []string) {
			if Score(set) > Score(best) {
				best = set
			}
		}
		for _, sub := range re.Sub {
			if s, ok := literal(sub, ascii); ok {
				run += s
				continue
			}
			if run != "" {
				consider([]string{run})
				run = ""
			}
			if set := required(sub, ascii); set != nil {
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

// Score is the length of the shortest string of a set: how selective it is as a prefilter.
func Score(set []string) int {
	if len(set) == 0 {
		return 0
	}
	m := len(set[0])
	for _, s := range set[1:] {
		m = min(m, len(s))
	}
	return m
}

// Literal is the ASCII-lower-cased text of an expression that matches exactly one string up
// to ASCII case: a literal, or a class such as [wW].
func Literal(re *syntax.Regexp) (string, bool) { return literal(re, true) }

// literal is Literal, with ASCII folded or, for RequiredExact, the one string byte for byte.
func literal(re *syntax.Regexp, ascii bool) (string, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		b := make([]byte, 0, len(re.Rune))
		for _, r := range re.Rune {
			if unfoldable(re, r, ascii) {
				return "", false
			}
			if ascii {
				r = lower(r)
			}
			b = utf8.AppendRune(b, r)
		}
		return string(b), true
	case syntax.OpCharClass:
		rs := re.Rune
		switch {
		case len(rs) == 2 && rs[0] == rs[1]:
			r := rs[0]
			if ascii {
				r = lower(r)
			}
			return string(r), true
		case len(rs) == 4 && rs[0] == rs[1] && rs[2] == rs[3] && ascii &&
			rs[0] >= 'A' && rs[0] <= 'Z' && rs[2] == rs[0]+'a'-'A':
			return string(rs[2]), true
		}
	}
	return "", false
}

// unfoldable reports whether r, in literal re, matches more than one byte string: a letter
// of several cases matched without regard to case (any, read byte for byte; outside ASCII,
// with ASCII folded).
func unfoldable(re *syntax.Regexp, r rune, ascii bool) bool {
	return re.Flags&syntax.FoldCase != 0 && foldable(r) && (!ascii || r >= utf8.RuneSelf)
}

// splitLiteral turns a literal into a concatenation of one-rune literals, so that required can
// skip the runes it cannot fold.
func splitLiteral(re *syntax.Regexp, ascii bool) []*syntax.Regexp {
	subs := make([]*syntax.Regexp, len(re.Rune))
	for i, r := range re.Rune {
		op := syntax.OpLiteral
		if unfoldable(re, r, ascii) {
			op = syntax.OpAnyChar // stands for "not a fixed byte string"
		}
		subs[i] = &syntax.Regexp{Op: op, Flags: re.Flags, Rune: []rune{r}}
	}
	return subs
}

// foldable reports whether r has other case forms, which a byte-level prefilter cannot follow.
func foldable(r rune) bool { return unicode.SimpleFold(r) != r }

func lower(r rune) rune {
	if r >= 'A' && r <= 'Z' {
		return r + 'a' - 'A'
	}
	return r
}
