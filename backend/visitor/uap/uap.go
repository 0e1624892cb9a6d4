// Package uap reads user agents with the regular expressions of uap-core
// (github.com/ua-parser/uap-core, Apache-2.0, vendored as regexes.yaml with its LICENSE): the
// families of the browser, the system and the device, named as every uap-core port names them
// ("Chrome Mobile", "Mobile Safari", "Samsung Internet", "Mac OS X", "iPhone", "Spider", …).
//
// uap-core's ports try a thousand expressions in order until one matches, hundreds of
// microseconds a user agent in Go. Here every expression yields the strings its matches must
// contain (package prefilter), one automaton finds which of them a user agent holds, and only
// the expressions all of whose strings occur are tried, still in uap-core's order: the answer
// is the same, for a few microseconds.
package uap

import (
	_ "embed"
	"fmt"
	"math/bits"
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/shortlink/shortlink/backend/visitor/prefilter"
)

//go:embed regexes.yaml
var regexesYAML []byte

// Other is the family of what the expressions do not recognise.
const Other = "Other"

// Result is what a user agent says, by uap-core's families; Other for what is not known.
type Result struct {
	Browser string // user_agent_parsers' family: "Chrome", "Mobile Safari", "Facebook", …
	OS      string // os_parsers' family: "Windows", "Mac OS X", "iOS", "Android", …
	Device  Device
}

// Device is what device_parsers say: Family "iPhone", "Samsung SM-G960F", "Spider", …;
// Brand and Model "" when not known.
type Device struct {
	Family, Brand, Model string
}

// Parser holds the compiled expressions; it is safe for concurrent use.
type Parser struct {
	ac     *prefilter.Automaton
	nstr   int // strings the automaton knows
	lists  [3]list
	always [3][]int32 // per list, rules without a required string
}

// The three lists of regexes.yaml, in the order of Parser.lists.
const (
	browsers = iota
	systems
	devices
)

// list is one of regexes.yaml's lists: its rules in uap-core's order, and which rules each
// string can make candidates.
type list struct {
	rules    []rule
	byString [][]int32 // string index → rules of this list indexed under it
}

// rule is one expression of regexes.yaml, or one part of it: an expression that names a
// hundred robots, "(CSimpleSpider|Cityreview Robot|…)(?:[ /]v?(\d+)…)", is cut into one
// expression per name (split), each filtered and run on its own, and the match that starts
// first wins, as the whole would have matched.
type rule struct {
	*compiled
	// group is the index in regexes.yaml's list of the expression the rule is (part of).
	group int32
	// prefer says which part's match the whole expression finds (split); 0 for a whole.
	prefer int
	// need are the rule's conjuncts: for each, one of its strings (automaton indices) must
	// occur, or the expression cannot match.
	need [][]int32
	// repl are the replacements, "" for none: family, brand, model (devices) or family.
	repl [3]string
}

// compiled is a rule's expression, compiled on first use: of 1,700 parts and their relaxed
// copies a user agent runs a few dozen, and compiling them all would take a quarter of a
// second and 20 MB.
type compiled struct {
	once sync.Once
	src  string         // what to compile: the expression as given, or
	part *syntax.Regexp // the part of it (also relaxed); nil once compiled
	re   *regexp.Regexp // nil when it could not be compiled: it never matches
	// fast is re with its long bounded repeats of one character unbounded and captured
	// (".{1,200}" as "(.*)"), nil when re has none: a program a fraction of the size. It
	// matches whatever re matches; when none of its repeats went past its bound, its match
	// is re's (relax).
	fast *regexp.Regexp
	// groups maps fast's submatches to re's: -1 for the captures of repeats, whose bounds
	// are in bounds.
	groups, bounds []int
}

func (c *compiled) compile() {
	c.once.Do(func() {
		// The expressions parsed at start-up; TestPartsCompile checks that each compiles.
		if c.src != "" {
			c.re, _ = regexp.Compile(c.src)
		} else {
			c.re, _ = regexp.Compile(c.part.String())
		}
		if relaxed, ok := relax(c.part); ok && c.re != nil {
			if fast, err := regexp.Compile(relaxed.String()); err == nil {
				c.fast = fast
				c.groups, c.bounds = relaxedGroups(relaxed)
			}
		}
		c.part = nil
	})
}

type entry struct {
	Regex             string `yaml:"regex"`
	RegexFlag         string `yaml:"regex_flag"`
	FamilyReplacement string `yaml:"family_replacement"`
	OSReplacement     string `yaml:"os_replacement"`
	DeviceReplacement string `yaml:"device_replacement"`
	BrandReplacement  string `yaml:"brand_replacement"`
	ModelReplacement  string `yaml:"model_replacement"`
}

// New reads the vendored expressions and prepares their prefilter (tens of milliseconds,
// once per process); each expression is compiled when a user agent first needs it.
func New() (*Parser, error) {
	var file struct {
		UserAgentParsers []entry `yaml:"user_agent_parsers"`
		OSParsers        []entry `yaml:"os_parsers"`
		DeviceParsers    []entry `yaml:"device_parsers"`
	}
	if err := yaml.Unmarshal(regexesYAML, &file); err != nil {
		return nil, fmt.Errorf("uap: read regexes.yaml: %w", err)
	}
	p := &Parser{}
	index := map[string]int32{}
	var strs []string
	id := func(s string) int32 {
		i, ok := index[s]
		if !ok {
			i = int32(len(strs))
			index[s] = i
			strs = append(strs, s)
		}
		return i
	}
	for li, entries := range [3][]entry{file.UserAgentParsers, file.OSParsers, file.DeviceParsers} {
		l := &p.lists[li]
		l.rules = make([]rule, 0, len(entries))
		for group, e := range entries {
			src := e.Regex
			if strings.Contains(e.RegexFlag, "i") {
				src = "(?i)" + src
			}
			parsed, err := syntax.Parse(src, syntax.Perl)
			if err != nil {
				return nil, fmt.Errorf("uap: expression %q: %w", e.Regex, err)
			}
			var repl [3]string
			switch li {
			case browsers:
				repl[0] = e.FamilyReplacement
			case systems:
				repl[0] = e.OSReplacement
			case devices:
				repl = [3]string{e.DeviceReplacement, e.BrandReplacement, e.ModelReplacement}
			}
			parts, prefer := split(parsed)
			for _, part := range parts {
				c := &compiled{part: part}
				if len(parts) == 1 {
					c.src = src // as given: the parser's rewriting can be slower
				}
				r := rule{compiled: c, group: int32(group), prefer: prefer, repl: repl}
				for _, set := range conjuncts(part) {
					ids := make([]int32, 0, len(set))
					for _, s := range set {
						ids = append(ids, id(s))
					}
					r.need = append(r.need, ids)
				}
				l.rules = append(l.rules, r)
			}
		}
	}
	p.ac = prefilter.NewAutomaton(strs)
	p.nstr = len(strs)
	for li := range p.lists {
		l := &p.lists[li]
		l.byString = make([][]int32, len(strs))
		for ri := range l.rules {
			r := &l.rules[ri]
			if len(r.need) == 0 {
				p.always[li] = append(p.always[li], int32(ri))
				continue
			}
			// Indexed under the strings of one conjunct (the one with fewest strings):
			// a rule is a candidate only when every conjunct is met anyway.
			best := r.need[0]
			for _, c := range r.need[1:] {
				if len(c) < len(best) {
					best = c
				}
			}
			for _, si := range best {
				if !slices.Contains(l.byString[si], int32(ri)) {
					l.byString[si] = append(l.byString[si], int32(ri))
				}
			}
		}
	}
	return p, nil
}

// conjuncts are sets of strings (ASCII-lower-cased) such that every text the expression
// matches holds one string of each set; nil when none is known. More sets than
// prefilter.Required's one make a sharper filter: "; SM-… Build" needs both "sm-" and
// " build", which nearly every Android user agent has.
func conjuncts(re *syntax.Regexp) [][]string {
	if set, ok := exact(re); ok {
		if prefilter.Score(set) > 0 {
			return [][]string{set}
		}
		return nil
	}
	switch re.Op {
	case syntax.OpCapture, syntax.OpPlus:
		return conjuncts(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return conjuncts(re.Sub[0])
		}
		return nil
	case syntax.OpConcat:
		// Runs of pieces that match a few strings each join into the strings the run
		// matches: "C(?:rawlDaddy|SimpleSpider)" needs "crawldaddy" or "csimplespider".
		var all [][]string
		var run []string
		flush := func() {
			if prefilter.Score(run) > 0 {
				all = append(all, run)
			}
			run = nil
		}
		for _, sub := range re.Sub {
			if set, ok := exact(sub); ok {
				if run != nil && len(run)*len(set) <= maxExact {
					run = product(run, set)
				} else {
					flush()
					run = set
				}
				continue
			}
			flush()
			all = append(all, conjuncts(sub)...)
		}
		flush()
		return all
	case syntax.OpAlternate:
		// (A1 and A2) or (B1 and B2) is (A1 or B1) and (A1 or B2) and …: a sharp filter
		// as long as it stays small, else one set as prefilter.Required makes it.
		clauses := conjuncts(re.Sub[0])
		for _, sub := range re.Sub[1:] {
			next := conjuncts(sub)
			if clauses == nil || next == nil || len(clauses)*len(next) > maxClauses {
				clauses = nil
				break
			}
			product := make([][]string, 0, len(clauses)*len(next))
			for _, a := range clauses {
				for _, b := range next {
					product = append(product, append(slices.Clip(a), b...))
				}
			}
			clauses = product
		}
		if clauses != nil {
			return clauses
		}
	}
	if set := prefilter.Required(re); prefilter.Score(set) > 0 {
		return [][]string{set}
	}
	return nil
}

// maxExact bounds the strings of an exact set.
const maxExact = 256

// exact is the set of strings (ASCII-lower-cased) that the expression matches, when it
// matches a few only: literals, small classes, alternations and concatenations of those
// (uap-core's lists of names, which the parser factors: "A(?:ltresium|rgus)").
func exact(re *syntax.Regexp) ([]string, bool) {
	switch re.Op {
	case syntax.OpEmptyMatch:
		return []string{""}, true
	case syntax.OpLiteral:
		if s, ok := prefilter.Literal(re); ok {
			return []string{s}, true
		}
	case syntax.OpCharClass:
		var set []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if r >= utf8.RuneSelf || len(set) > 8 {
					return nil, false
				}
				c := string(rune(unicode.ToLower(r)))
				if !slices.Contains(set, c) {
					set = append(set, c)
				}
			}
		}
		return set, len(set) > 0 && len(set) <= 4
	case syntax.OpCapture:
		return exact(re.Sub[0])
	case syntax.OpQuest:
		if set, ok := exact(re.Sub[0]); ok {
			return append(set, ""), true
		}
	case syntax.OpAlternate:
		var all []string
		for _, sub := range re.Sub {
			set, ok := exact(sub)
			if !ok || len(all)+len(set) > maxExact {
				return nil, false
			}
			all = append(all, set...)
		}
		return all, true
	case syntax.OpConcat:
		all := []string{""}
		for _, sub := range re.Sub {
			set, ok := exact(sub)
			if !ok || len(all)*len(set) > maxExact {
				return nil, false
			}
			all = product(all, set)
		}
		return all, true
	}
	return nil, false
}

func product(a, b []string) []string {
	out := make([]string, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			if s := x + y; !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// maxClauses bounds the conjuncts an alternation expands to.
const maxClauses = 16

// Parse reads a user agent.
func (p *Parser) Parse(ua string) Result {
	present := p.present(ua)
	var res Result
	res.Browser = Other
	if r, m := p.first(browsers, ua, present); r != nil {
		res.Browser = orOther(replace(r.repl[0], ua, m, 1))
	}
	res.OS = Other
	if r, m := p.first(systems, ua, present); r != nil {
		res.OS = orOther(replace(r.repl[0], ua, m, 1))
	}
	res.Device.Family = Other
	if r, m := p.first(devices, ua, present); r != nil {
		res.Device = Device{
			Family: orOther(replace(r.repl[0], ua, m, 1)),
			Brand:  replace(r.repl[1], ua, m, 0),
			Model:  replace(r.repl[2], ua, m, 1),
		}
	}
	return res
}

// present marks the automaton's strings that occur in ua.
func (p *Parser) present(ua string) []uint64 {
	set := make([]uint64, (p.nstr+63)/64)
	p.ac.Scan(ua, func(strs []int32) bool {
		for _, si := range strs {
			set[si/64] |= 1 << (si % 64)
		}
		return false
	})
	return set
}

// first is the first rule of a list, in uap-core's order, that matches ua, with its
// submatches; nil when none does.
func (p *Parser) first(li int, ua string, present []uint64) (*rule, []int) {
	l := &p.lists[li]
	cands := make([]int32, 0, 32)
	for w, word := range present {
		for word != 0 {
			bit := int32(w*64) + int32(bits.TrailingZeros64(word))
			word &= word - 1
			for _, ri := range l.byString[bit] {
				if met(l.rules[ri].need, present) {
					cands = append(cands, ri)
				}
			}
		}
	}
	cands = append(cands, p.always[li]...)
	slices.Sort(cands)
	cands = slices.Compact(cands)
	for i := 0; i < len(cands); {
		// The candidate parts of one expression: the one whose match the whole would have
		// found wins (split).
		group := l.rules[cands[i]].group
		var best *rule
		var bestM []int
		for ; i < len(cands) && l.rules[cands[i]].group == group; i++ {
			r := &l.rules[cands[i]]
			if m := r.match(ua); m != nil && (best == nil || r.prefer*(m[2]-bestM[2]) > 0) {
				best, bestM = r, m
			}
		}
		if best != nil {
			return best, bestM
		}
	}
	return nil, nil
}

// match is the rule's leftmost match in ua, with its submatches.
func (r *rule) match(ua string) []int {
	r.compile()
	if r.re == nil {
		return nil
	}
	if r.fast == nil {
		return r.re.FindStringSubmatchIndex(ua)
	}
	fm := r.fast.FindStringSubmatchIndex(ua)
	if fm == nil {
		return nil
	}
	m := make([]int, 0, 2*r.re.NumSubexp()+2)
	k := 0
	for i, g := range r.groups {
		if g >= 0 {
			m = append(m, fm[2*i], fm[2*i+1])
			continue
		}
		if fm[2*i] >= 0 && fm[2*i+1]-fm[2*i] > r.bounds[k] {
			return r.re.FindStringSubmatchIndex(ua) // a repeat went past its bound
		}
		k++
	}
	return m
}

// minRelax is the least upper bound of the repeats relax unbounds.
const minRelax = 20

// relax is a copy of re with its repeats of one character ("[^;]{1,100}", ".{0,300}") that
// allow minRelax or more, outside other repeats, unbounded and captured: whatever re matches
// it matches, and when its match has no such capture longer (in bytes, so in characters)
// than the repeat's bound, re's match is the same: the order in which the two try matches
// is the same, the copy's only other matches having longer repeats. ok is false when there
// are no such repeats.
func relax(re *syntax.Regexp) (_ *syntax.Regexp, ok bool) {
	c := *re
	c.Sub0 = [1]*syntax.Regexp{}
	if c.Op == syntax.OpRepeat && c.Max >= minRelax && oneChar(c.Sub[0]) {
		c.Sub = []*syntax.Regexp{c.Sub[0]}
		rep := c
		rep.Max = -1
		rep.Name = strconv.Itoa(c.Max) // kept for relaxedGroups
		return &syntax.Regexp{Op: syntax.OpCapture, Flags: c.Flags, Name: relaxName, Sub: []*syntax.Regexp{&rep}}, true
	}
	switch c.Op {
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		return re, false // submatches inside repeats are of their last round only
	}
	c.Sub = make([]*syntax.Regexp, len(re.Sub))
	for i, sub := range re.Sub {
		var changed bool
		c.Sub[i], changed = relax(sub)
		ok = ok || changed
	}
	return &c, ok
}

// relaxName names the captures relax adds.
const relaxName = "relaxed"

// relaxedGroups maps the submatches of relax's copy to re's (-1 for the added captures,
// whose bounds are in bounds, in order).
func relaxedGroups(relaxed *syntax.Regexp) (groups, bounds []int) {
	groups = []int{0}
	var walk func(*syntax.Regexp)
	walk = func(re *syntax.Regexp) {
		if re.Op == syntax.OpCapture {
			if re.Name == relaxName {
				groups = append(groups, -1)
				n, _ := strconv.Atoi(re.Sub[0].Name)
				bounds = append(bounds, n)
			} else {
				groups = append(groups, len(groups)-len(bounds))
			}
		}
		for _, sub := range re.Sub {
			walk(sub)
		}
	}
	walk(relaxed)
	return groups, bounds
}

// oneChar reports whether re always matches exactly one character.
func oneChar(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return true
	case syntax.OpLiteral:
		return len(re.Rune) == 1
	}
	return false
}

// minSplit is the fewest branches an alternation needs to be split.
const minSplit = 8

// split cuts an expression whose first capture is an alternation of many branches, after at
// most assertions ("^", "\b") and a repeat of one character ("^.{0,100}"), into one
// expression per branch, each with the rest of the expression around it; the expression
// itself when it has no such shape. Which part's match the whole would have found (prefer):
// the one whose capture starts first, or, after a greedy repeat, last (the repeat takes all
// it can); the earlier part on a tie. Branches with captures of their own are left whole:
// cutting them would renumber the submatches.
func split(re *syntax.Regexp) (parts []*syntax.Regexp, prefer int) {
	subs := []*syntax.Regexp{re}
	if re.Op == syntax.OpConcat {
		subs = re.Sub
	}
	at := 0
	skipAssertions := func() {
		for at < len(subs) && (subs[at].Op == syntax.OpBeginText || subs[at].Op == syntax.OpBeginLine ||
			subs[at].Op == syntax.OpWordBoundary) {
			at++
		}
	}
	skipAssertions()
	prefer = -1
	if at < len(subs) && isRepeat(subs[at]) {
		if subs[at].Flags&syntax.NonGreedy == 0 {
			prefer = +1
		}
		at++
		skipAssertions()
	}
	if at >= len(subs) {
		return []*syntax.Regexp{re}, 0
	}
	capture := subs[at]
	if capture.Op != syntax.OpCapture || capture.Sub[0].Op != syntax.OpAlternate ||
		len(capture.Sub[0].Sub) < minSplit || hasCapture(capture.Sub[0]) {
		return []*syntax.Regexp{re}, 0
	}
	for _, b := range capture.Sub[0].Sub {
		c := *capture
		c.Sub = []*syntax.Regexp{b}
		c.Sub0 = [1]*syntax.Regexp{}
		part := &c
		if re.Op == syntax.OpConcat {
			sub := slices.Clone(subs)
			sub[at] = &c
			part = &syntax.Regexp{Op: syntax.OpConcat, Flags: re.Flags, Sub: sub}
		}
		parts = append(parts, part)
	}
	return parts, prefer
}

// isRepeat reports whether re is a repeat of one character: ".*", ".{0,100}?", ….
func isRepeat(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		return oneChar(re.Sub[0])
	}
	return false
}

func hasCapture(re *syntax.Regexp) bool {
	if re.Op == syntax.OpCapture {
		return true
	}
	for _, sub := range re.Sub {
		if hasCapture(sub) {
			return true
		}
	}
	return false
}

func met(need [][]int32, present []uint64) bool {
	for _, set := range need {
		ok := false
		for _, si := range set {
			if present[si/64]&(1<<(si%64)) != 0 {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// replace is uap-core's replacement: the template with $1…$9 set to the submatches, or,
// without a template, submatch def (none when def is 0); trimmed.
func replace(template, ua string, m []int, def int) string {
	group := func(n int) string {
		if 2*n+1 >= len(m) || m[2*n] < 0 {
			return ""
		}
		return ua[m[2*n]:m[2*n+1]]
	}
	if template == "" {
		if def == 0 {
			return ""
		}
		return strings.TrimSpace(group(def))
	}
	if !strings.Contains(template, "$") {
		return template
	}
	var b strings.Builder
	for i := 0; i < len(template); i++ {
		c := template[i]
		if c == '$' && i+1 < len(template) && template[i+1] >= '1' && template[i+1] <= '9' {
			b.WriteString(group(int(template[i+1] - '0')))
			i++
			continue
		}
		b.WriteByte(c)
	}
	return strings.TrimSpace(b.String())
}

func orOther(s string) string {
	if s == "" {
		return Other
	}
	return s
}
