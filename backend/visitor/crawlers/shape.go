package crawlers

import "strings"

// shape names the shape of a user agent that no browser or person's app sends, "" for
// none. These rules are code rather than patterns: as expressions they would run on every
// browser's user agent (all begin with "Mozilla/").
func shape(ua string) string {
	switch {
	case oneWord(ua):
		return "(one lower-case word)"
	case browserName(ua):
		return "(a browser's bare name)"
	case bareMozilla(ua):
		return "(Mozilla/x.y and at most one product)"
	}
	return ""
}

// oneWord reports a user agent that is one lower-case word of letters, digits, '-' and '_'
// ("revolt", "nvd0rz", "fuck-your-hp"): scripts name themselves so, browsers never; but
// podcast apps that send their name and platform ("capsule-android",
// "spotify_other-mobile") are people's.
func oneWord(ua string) bool {
	if ua == "" || ua[0] < 'a' || ua[0] > 'z' {
		return false
	}
	for i := 1; i < len(ua); i++ {
		if c := ua[i]; c >= 'A' && c <= 'Z' || !wordByte(c) {
			return false
		}
	}
	return !strings.Contains(ua, "android") && !strings.Contains(ua, "tablet") && !strings.Contains(ua, "mobile")
}

func wordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}

// browserNames are what scripts send to pass for a browser, in lower case.
var browserNames = map[string]bool{
	"mozilla": true, "firefox": true, "chrome": true, "safari": true, "opera": true, "edge": true,
	"msie": true, "browser": true, "desktop": true, "mobile": true, "google": true, "bing": true,
	"yahoo": true,
}

// browserName reports a user agent that is a browser's name alone, a version at most
// ("Chrome", "firefox", "Mozilla/5.0").
func browserName(ua string) bool {
	if len(ua) > 20 {
		return false
	}
	name, version, _ := strings.Cut(ua, "/")
	return browserNames[strings.ToLower(name)] && strings.Trim(version, "0123456789.") == ""
}

// bareMozilla reports "Mozilla/x.y" followed by one word ("Mozilla/5.0 Keydrop") or by a
// comment that holds "compatible" and at most one product ("Mozilla/5.0 (compatible)",
// "Mozilla/5.0 (compatible; FormFinder/1.0)", "Mozilla/5.0 (Morningscore/1.0)"): browsers
// say which system they run on.
func bareMozilla(ua string) bool {
	const head = len("Mozilla/5.0 ")
	if len(ua) < head+1 || len(ua) > 120 || !strings.EqualFold(ua[:8], "mozilla/") ||
		!digit(ua[8]) || ua[9] != '.' || !digit(ua[10]) || ua[11] != ' ' {
		return false
	}
	rest := ua[head:]
	if !strings.HasPrefix(rest, "(") {
		for i := 0; i < len(rest); i++ {
			if !wordByte(rest[i]) && rest[i] != '.' {
				return false
			}
		}
		return true
	}
	if !strings.HasSuffix(rest, ")") {
		return false
	}
	inner := rest[1 : len(rest)-1]
	inner = strings.TrimPrefix(inner, "compatible")
	inner = strings.TrimPrefix(inner, ";")
	inner = strings.TrimPrefix(inner, " ")
	name, version, slash := strings.Cut(inner, "/")
	for i := 0; i < len(name); i++ {
		if !wordByte(name[i]) && name[i] != '.' {
			return false
		}
	}
	if !slash {
		return inner == "" || strings.Contains(rest, "compatible") && name != ""
	}
	version = strings.TrimPrefix(version, "v")
	return name != "" && version != "" && strings.Trim(version, "0123456789.") == ""
}

func digit(c byte) bool { return c >= '0' && c <= '9' }
