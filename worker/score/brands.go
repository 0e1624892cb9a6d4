package score

import (
	"bufio"
	_ "embed"
	"fmt"
	"io"
	"strings"
)

// brand is a name phishing imitates.
type brand struct {
	// kind is what the brand is: payment, bank, webmail, crypto, gaming, identity, …
	kind string
	// keys are the words that stand for the brand in host names, lower-case ASCII; the first
	// is its name.
	keys []string
	// domains are its own registrable domains; their subdomains are its own too.
	domains []string
	// names are how its pages name it, matched as words, in any case.
	names []string
	// skeletons are the keys as they look (skeleton), in the order of keys.
	skeletons []string
	// weak are keys that are ordinary words (steam, ledger): a host names the brand by one
	// only beside phishing's words (steam-trade-gift), written "~steam" in brands.txt.
	weak []string
}

// brandList is the list of brands phishing imitates, kept as data (brands.txt).
//
//go:embed brands.txt
var brandList string

// brands are the brands of brands.txt; the file is part of the package, so a mistake in it
// fails every test of the package at once.
var brands = mustParseBrands(strings.NewReader(brandList))

// brandKinds are the kinds a line of brands.txt may name.
var brandKinds = map[string]bool{
	"payment": true, "bank": true, "shop": true, "social": true, "webmail": true, "cloud": true,
	"courier": true, "government": true, "crypto": true, "gaming": true, "identity": true,
	"travel": true, "software": true, "telecom": true, "utility": true, "toll": true,
}

func mustParseBrands(r io.Reader) []brand {
	b, err := parseBrands(r)
	if err != nil {
		panic(err)
	}
	return b
}

// parseBrands reads a list in the format of brands.txt: "kind | keys | domains | names" a
// line, keys and domains separated by spaces, names by ";", "#" starting a comment line.
func parseBrands(r io.Reader) ([]brand, error) {
	var out []brand
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "|")
		if len(cols) != 4 {
			return nil, fmt.Errorf("brands.txt:%d: %d columns, want kind | keys | domains | names", n, len(cols))
		}
		b := brand{kind: strings.TrimSpace(cols[0]), domains: strings.Fields(cols[2])}
		for _, k := range strings.Fields(cols[1]) {
			if w, ok := strings.CutPrefix(k, "~"); ok && len(b.keys) > 0 {
				b.weak = append(b.weak, w)
				continue
			}
			b.keys = append(b.keys, k)
		}
		for _, name := range strings.Split(cols[3], ";") {
			if name = strings.TrimSpace(name); name != "" {
				b.names = append(b.names, name)
			}
		}
		if !brandKinds[b.kind] {
			return nil, fmt.Errorf("brands.txt:%d: unknown kind %q", n, b.kind)
		}
		if len(b.keys) == 0 || len(b.domains) == 0 || len(b.names) == 0 {
			return nil, fmt.Errorf("brands.txt:%d: a brand needs keys, domains and names", n)
		}
		for _, k := range b.weak {
			if k != strings.ToLower(k) || !isASCII(k) || strings.ContainsAny(k, ".~") || k == "" {
				return nil, fmt.Errorf("brands.txt:%d: weak key %q is not a lower-case ASCII word", n, k)
			}
		}
		for _, k := range b.keys {
			b.skeletons = append(b.skeletons, skeleton(k))
			if k != strings.ToLower(k) || !isASCII(k) || strings.ContainsAny(k, ".") {
				return nil, fmt.Errorf("brands.txt:%d: key %q is not a lower-case ASCII word", n, k)
			}
		}
		for _, d := range b.domains {
			if normalizeHost(d) != d || !strings.Contains(d, ".") {
				return nil, fmt.Errorf("brands.txt:%d: %q is not a lower-case domain", n, d)
			}
		}
		out = append(out, b)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("brands.txt: %w", err)
	}
	return out, nil
}

// brandOwning is the listed brand whose own host is host, nil when none.
func brandOwning(host string) *brand {
	if isUserContent(host) {
		return nil
	}
	rd := registrableDomain(host)
	for i := range brands {
		if brands[i].ownsUnder(host, rd) {
			return &brands[i]
		}
	}
	return nil
}
