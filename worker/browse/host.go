package browse

import (
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	"golang.org/x/net/idna"
)

// idnaProfile turns a Unicode host into the ASCII form browsers send (UTS #46 without the
// transitional mapping, as URL parsing does); underscores stay allowed, as in Chromium.
var idnaProfile = idna.New(idna.MapForLookup(), idna.Transitional(false), idna.BidiRule(), idna.StrictDomainName(false))

// canonicalHost is a URL's host the way a browser reads it before connecting: lower case, an
// IPv6 literal without brackets in its shortest form, a Unicode name in punycode, and the
// numeric forms of IPv4 that URLs allow ("0x7f.1", "2130706433", "0177.0.0.1") as dotted
// decimal — so that "http://2130706433/" is judged as the 127.0.0.1 the browser would open.
func canonicalHost(h string) (string, error) {
	if h == "" {
		return "", errors.New("empty host")
	}
	if strings.HasPrefix(h, "[") {
		if !strings.HasSuffix(h, "]") {
			return "", fmt.Errorf("host %q: unclosed [", h)
		}
		h = h[1 : len(h)-1]
		if !strings.Contains(h, ":") {
			return "", fmt.Errorf("host %q: not an IPv6 address in brackets", h)
		}
	}
	if strings.Contains(h, ":") {
		a, err := netip.ParseAddr(h)
		if err != nil || !a.Is6() {
			return "", fmt.Errorf("host %q: not an IPv6 address", h)
		}
		return a.WithZone("").String(), nil
	}
	ascii := true
	for i := 0; i < len(h); i++ {
		if h[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		h = strings.ToLower(h)
	} else {
		a, err := idnaProfile.ToASCII(h)
		if err != nil {
			return "", fmt.Errorf("host %q: %w", h, err)
		}
		h = a
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if c <= ' ' || strings.IndexByte("#%/:<>?@[\\]^|", c) >= 0 || c == 0x7f {
			return "", fmt.Errorf("host %q: forbidden character %q", h, c)
		}
	}
	if endsInNumber(h) {
		a, err := parseWebIPv4(h)
		if err != nil {
			return "", fmt.Errorf("host %q: %w", h, err)
		}
		return a.String(), nil
	}
	return h, nil
}

// endsInNumber is the URL standard's "ends in a number": the last label (a trailing dot aside)
// is decimal digits or 0x-prefixed hex, so the host must be read as IPv4.
func endsInNumber(h string) bool {
	labels := strings.Split(h, ".")
	if labels[len(labels)-1] == "" {
		if len(labels) == 1 {
			return false
		}
		labels = labels[:len(labels)-1]
	}
	last := labels[len(labels)-1]
	if last != "" && strings.Trim(last, "0123456789") == "" {
		return true
	}
	if len(last) >= 2 && (last[:2] == "0x" || last[:2] == "0X") {
		return strings.Trim(last[2:], "0123456789abcdefABCDEF") == ""
	}
	return false
}

// parseWebIPv4 is the URL standard's IPv4 parser: one to four parts, each decimal, octal
// (leading 0) or hex (0x), the last filling the remaining bytes.
func parseWebIPv4(h string) (netip.Addr, error) {
	parts := strings.Split(h, ".")
	if parts[len(parts)-1] == "" && len(parts) > 1 {
		parts = parts[:len(parts)-1]
	}
	if len(parts) > 4 {
		return netip.Addr{}, errors.New("more than four IPv4 parts")
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		base := 10
		switch {
		case len(p) >= 2 && (p[:2] == "0x" || p[:2] == "0X"):
			p, base = p[2:], 16
		case len(p) >= 2 && p[0] == '0':
			p, base = p[1:], 8
		}
		if p == "" {
			if base == 10 {
				return netip.Addr{}, errors.New("empty IPv4 part")
			}
			nums[i] = 0
			continue
		}
		n, err := strconv.ParseUint(p, base, 64)
		if err != nil {
			return netip.Addr{}, fmt.Errorf("bad IPv4 part %q", parts[i])
		}
		nums[i] = n
	}
	for _, n := range nums[:len(nums)-1] {
		if n > 255 {
			return netip.Addr{}, errors.New("IPv4 part above 255")
		}
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return netip.Addr{}, errors.New("IPv4 address out of range")
	}
	v := last
	for i, n := range nums[:len(nums)-1] {
		v += n << (8 * (3 - i))
	}
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), nil
}
