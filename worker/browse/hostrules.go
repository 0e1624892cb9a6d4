package browse

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"
)

// HostRules are host mappings in the syntax of Chromium's --host-resolver-rules
// (BROWSER_HOST_RULES), read the way Chromium's net::HostMappingRules reads them, so that the
// guard judges a host by the address Chromium would connect to:
//
//   - rules are separated by commas; a rule is `MAP pattern replacement` or `EXCLUDE pattern`,
//     its words separated by single spaces, the keywords in any case;
//   - a pattern is matched against the host (lower case; an IPv6 literal without brackets) and
//     then against "host:port" ("[v6]:port"), `*` standing for any run of characters and `?` for
//     one, `\` escaping the next character;
//   - the replacement is a host or an IP literal ("[v6]" for IPv6), optionally with a port that
//     then replaces the request's; `^NOTFOUND` (or the older `~NOTFOUND`) makes the host
//     unresolvable;
//   - the first MAP rule that matches applies, unless any EXCLUDE pattern matches the host, in
//     which case the host is not mapped at all (EXCLUDE rules apply wherever they are written);
//   - a replacement host is resolved as it is, never mapped again.
//
// Chromium logs and skips a rule it cannot read; ParseHostRules refuses it instead, so that a
// mistyped rule is caught at start-up rather than silently ignored.
type HostRules struct {
	maps     []mapRule
	excludes []string
	text     string
}

type mapRule struct {
	pattern string
	host    string // replacement host, without brackets; "" when the host is made unresolvable
	port    int    // replacement port, -1 to keep the request's
}

// ParseHostRules reads rules in Chromium's --host-resolver-rules syntax; "" gives no rules.
// Empty rules (a trailing comma) are skipped, as Chromium does.
func ParseHostRules(s string) (HostRules, error) {
	r := HostRules{text: strings.TrimSpace(s)}
	for _, rule := range strings.Split(s, ",") {
		rule = strings.TrimSpace(rule)
		if rule == "" {
			continue
		}
		words := strings.Split(rule, " ")
		for _, w := range words {
			if w == "" {
				return HostRules{}, fmt.Errorf("host rule %q: words must be separated by single spaces", rule)
			}
		}
		switch {
		case len(words) == 2 && strings.EqualFold(words[0], "EXCLUDE"):
			r.excludes = append(r.excludes, strings.ToLower(words[1]))
		case len(words) == 3 && strings.EqualFold(words[0], "MAP"):
			host, port, err := parseReplacement(words[2])
			if err != nil {
				return HostRules{}, fmt.Errorf("host rule %q: %w", rule, err)
			}
			r.maps = append(r.maps, mapRule{pattern: strings.ToLower(words[1]), host: host, port: port})
		default:
			return HostRules{}, fmt.Errorf("host rule %q: want `MAP pattern replacement` or `EXCLUDE pattern`", rule)
		}
	}
	return r, nil
}

// parseReplacement reads "host", "host:port", "[v6]" or "[v6]:port"; port is -1 when absent.
func parseReplacement(s string) (host string, port int, err error) {
	if s == "^NOTFOUND" || s == "~NOTFOUND" {
		return "", -1, nil
	}
	port = -1
	hostPart := s
	if strings.HasPrefix(s, "[") {
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return "", 0, fmt.Errorf("replacement %q: unclosed [", s)
		}
		a, err := netip.ParseAddr(s[1:end])
		if err != nil || !a.Is6() || a.Zone() != "" {
			return "", 0, fmt.Errorf("replacement %q: not an IPv6 address in brackets", s)
		}
		hostPart = a.String()
		rest := s[end+1:]
		if rest != "" {
			if !strings.HasPrefix(rest, ":") {
				return "", 0, fmt.Errorf("replacement %q: junk after ]", s)
			}
			if port, err = parsePort(rest[1:]); err != nil {
				return "", 0, fmt.Errorf("replacement %q: %w", s, err)
			}
		}
		return hostPart, port, nil
	}
	if i := strings.LastIndexByte(s, ':'); i >= 0 {
		hostPart = s[:i]
		if strings.Contains(hostPart, ":") {
			return "", 0, fmt.Errorf("replacement %q: an IPv6 address needs brackets", s)
		}
		if port, err = parsePort(s[i+1:]); err != nil {
			return "", 0, fmt.Errorf("replacement %q: %w", s, err)
		}
	}
	host, err = canonicalHost(hostPart)
	if err != nil {
		return "", 0, fmt.Errorf("replacement %q: %w", s, err)
	}
	return host, port, nil
}

func parsePort(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > 65535 || s == "" || s[0] == '+' || s[0] == '-' {
		return 0, fmt.Errorf("bad port %q", s)
	}
	return n, nil
}

// Map is where Chromium connects for host and port under the rules: the replacement host and
// port when a rule applies (mapped), host and port unchanged otherwise. notFound says the rule
// makes the host unresolvable. host must be canonical (canonicalHost).
func (r HostRules) Map(host string, port int) (toHost string, toPort int, mapped, notFound bool) {
	hostPort := hostPortString(host, port)
	for _, m := range r.maps {
		if !matchPattern(host, m.pattern) && !matchPattern(hostPort, m.pattern) {
			continue
		}
		for _, ex := range r.excludes {
			if matchPattern(host, ex) {
				return host, port, false, false
			}
		}
		if m.host == "" {
			return host, port, true, true
		}
		toPort = port
		if m.port >= 0 {
			toPort = m.port
		}
		return m.host, toPort, true, false
	}
	return host, port, false, false
}

// Empty says there are no rules.
func (r HostRules) Empty() bool { return len(r.maps) == 0 && len(r.excludes) == 0 }

// String is the rules as they were given.
func (r HostRules) String() string { return r.text }

// hostPortString is Chromium's HostPortPair::ToString: "host:port", "[v6]:port".
func hostPortString(host string, port int) string {
	if strings.Contains(host, ":") {
		return "[" + host + "]:" + strconv.Itoa(port)
	}
	return host + ":" + strconv.Itoa(port)
}

// matchPattern is Chromium's base::MatchPattern: `*` matches any run of characters (none
// included), `?` exactly one, `\` escapes the next character.
func matchPattern(s, pattern string) bool {
	// Iterative glob matching with one backtracking point, linear in practice.
	si, pi := 0, 0
	starP, starS := -1, 0
	for si < len(s) {
		if pi < len(pattern) {
			switch c := pattern[pi]; c {
			case '*':
				starP, starS = pi, si
				pi++
				continue
			case '?':
				si++
				pi++
				continue
			case '\\':
				if pi+1 < len(pattern) && pattern[pi+1] == s[si] {
					si++
					pi += 2
					continue
				}
			default:
				if c == s[si] {
					si++
					pi++
					continue
				}
			}
		}
		if starP < 0 {
			return false
		}
		starS++
		si, pi = starS, starP+1
	}
	for pi < len(pattern) && pattern[pi] == '*' {
		pi++
	}
	return pi == len(pattern)
}
