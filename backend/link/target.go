package link

import (
	"net"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"

	"github.com/shortlink/shortlink/backend/apperr"
)

// MaxURLLength bounds a target URL after normalisation.
const MaxURLLength = 2048

// NormalizeURL checks a target and returns its canonical form: http(s) only, lower-case
// punycode host, no default port, no credentials, and never one of ownHosts (that would loop).
//
//nolint:gocyclo // one check per part of the URL, in the order they are read
func NormalizeURL(raw string, ownHosts []string) (string, error) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return "", apperr.Errorf(apperr.Invalid, "url is required").For("url_required", "url")
	}
	if len(s) > MaxURLLength {
		return "", apperr.Errorf(apperr.Invalid, "url is longer than %d characters", MaxURLLength).For("url_too_long", "url")
	}
	if !utf8.ValidString(s) {
		return "", apperr.Errorf(apperr.Invalid, "url is not valid UTF-8").For("url_invalid", "url")
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r == ' ' {
			return "", apperr.Errorf(apperr.Invalid, "url contains spaces or control characters").For("url_invalid", "url")
		}
	}
	if !strings.Contains(s, "://") {
		if i := strings.IndexByte(s, ':'); i >= 0 && !strings.ContainsAny(s[:i], "./") {
			// "javascript:..." or "mailto:..." — a scheme without "//".
			return "", apperr.Errorf(apperr.Invalid, "url scheme %q is not allowed: use http or https", strings.ToLower(s[:i])).For("url_scheme", "url")
		}
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", apperr.Errorf(apperr.Invalid, "url cannot be parsed").For("url_invalid", "url")
	}
	u.Scheme = strings.ToLower(u.Scheme)
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", apperr.Errorf(apperr.Invalid, "url scheme %q is not allowed: use http or https", u.Scheme).For("url_scheme", "url")
	}
	if u.Opaque != "" || u.Host == "" {
		return "", apperr.Errorf(apperr.Invalid, "url has no host").For("url_invalid", "url")
	}
	if u.User != nil {
		return "", apperr.Errorf(apperr.Invalid, "url must not contain a user name or password").For("url_credentials", "url")
	}
	host, port := u.Hostname(), u.Port()
	if ip := net.ParseIP(host); ip == nil {
		h, err := idna.Lookup.ToASCII(strings.TrimSuffix(host, "."))
		h = strings.ToLower(h)
		if err != nil || !validHostname(h) {
			return "", apperr.Errorf(apperr.Invalid, "url host %q is not a valid domain name", host).For("url_invalid", "url")
		}
		host = h
	} else if ip.To4() == nil {
		host = "[" + ip.String() + "]"
	} else {
		host = ip.String()
	}
	if n, err := strconv.Atoi(port); port != "" && (err != nil || n < 1 || n > 65535) {
		return "", apperr.Errorf(apperr.Invalid, "url port must be 1 to 65535").For("url_port_invalid", "url")
	}
	if (u.Scheme == "http" && port == "80") || (u.Scheme == "https" && port == "443") {
		port = ""
	}
	for _, own := range ownHosts {
		if strings.EqualFold(strings.Trim(host, "[]"), own) {
			return "", apperr.Errorf(apperr.Invalid, "url points at this service's own short domain").For("url_own_domain", "url")
		}
	}
	if port != "" {
		host += ":" + port
	}
	u.Host = host
	if u.Path == "" && u.RawPath == "" {
		u.Path = "/"
	}
	out := u.String()
	if len(out) > MaxURLLength {
		return "", apperr.Errorf(apperr.Invalid, "url is longer than %d characters", MaxURLLength).For("url_too_long", "url")
	}
	return out, nil
}

// validHostname accepts DNS names of two or more labels (or localhost): labels of 1–63
// letters, digits, '-' or '_', not starting or ending with '-'.
func validHostname(h string) bool {
	if h == "localhost" {
		return true
	}
	if len(h) > 253 || !strings.Contains(h, ".") {
		return false
	}
	for _, label := range strings.Split(h, ".") {
		if len(label) == 0 || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}
