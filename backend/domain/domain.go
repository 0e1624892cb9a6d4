// Package domain is the custom domains of workspaces: host names validated and proven with a DNS
// TXT record, the in-memory table that routes a request's Host to its domain on every node, and
// the service that adds, verifies, edits and removes them.
package domain

import (
	"context"
	"net/netip"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/net/idna"
	"golang.org/x/net/publicsuffix"

	"github.com/shortlink/shortlink/backend/apperr"
)

// RecordPrefix is the label before a host name that holds its verification token.
const RecordPrefix = "_shortlink-verify."

// MaxHostnameLength bounds a host name (RFC 1035's limit on a name).
const MaxHostnameLength = 253

// Domain is a workspace's custom domain.
type Domain struct {
	ID          int64
	WorkspaceID int64
	// Hostname is the name in ASCII (punycode), lower case, without a trailing dot.
	Hostname string
	// Token is the value the TXT record at RecordName must hold.
	Token      string
	VerifiedAt *time.Time
	// RootURL is where the domain's root (/) sends visitors; "" answers 404.
	RootURL string
	// CheckedAt is the last look at the TXT record, CheckError what it found when it failed.
	CheckedAt  *time.Time
	CheckError string
	CreatedAt  time.Time
	RemovedAt  *time.Time
}

// Verified reports whether the TXT record was found holding the token.
func (d *Domain) Verified() bool { return d.VerifiedAt != nil }

// RecordName is the name of the TXT record that proves hostname.
func RecordName(hostname string) string { return RecordPrefix + hostname }

// Store keeps domains; every method but the node-wide reads is scoped by workspace.
type Store interface {
	// Create adds a pending domain. check is called inside the transaction, with the
	// workspace's current domains counted, and may refuse. Returns conflict when the
	// workspace has the host name already or another workspace has it verified.
	Create(ctx context.Context, d *Domain, check func(current int64) error) (*Domain, error)
	// Get returns one of the workspace's domains (not removed); not_found otherwise.
	Get(ctx context.Context, workspaceID, id int64) (*Domain, error)
	// List returns the workspace's domains (not removed), oldest first.
	List(ctx context.Context, workspaceID int64) ([]*Domain, error)
	// SetRootURL changes a domain's root URL; not_found if none.
	SetRootURL(ctx context.Context, workspaceID, id int64, rootURL string) (*Domain, error)
	// Checked records a look at the TXT record: verified when it held the token (conflict
	// when another workspace verified the name first), else the error seen ("" for none).
	Checked(ctx context.Context, workspaceID, id int64, verified bool, checkError string) (*Domain, error)
	// Remove marks a domain removed; not_found if none.
	Remove(ctx context.Context, workspaceID, id int64) (*Domain, error)
	// ClaimPending takes up to limit pending domains not checked for every, marking them
	// checked now, so that nodes checking at once take different ones.
	ClaimPending(ctx context.Context, every time.Duration, limit int) ([]*Domain, error)
	// Routes reads every domain the host table needs (verified or removed) with the epoch
	// of the domains table they were read at.
	Routes(ctx context.Context) (epoch int64, routes []Route, err error)
	// Epoch is the counter that moves with every change of the domains the table holds.
	Epoch(ctx context.Context) (int64, error)
	// AppLinks returns a domain's app-link files; SetAppLinks replaces them (not_found if the
	// workspace has no such domain).
	AppLinks(ctx context.Context, workspaceID, id int64) (*AppLinks, error)
	SetAppLinks(ctx context.Context, workspaceID, id int64, a AppLinks) error
}

var profile = idna.New(idna.MapForLookup(), idna.Transitional(false), idna.BidiRule(), idna.StrictDomainName(true), idna.VerifyDNSLength(true))

// Normalize validates a host name a customer asks for and returns it in ASCII, lower case:
// IDN to punycode, no IP literal, no port, no path, none of own (the service's own hosts, nor
// a name under them), and a registrable name at least (a public suffix plus one label).
func Normalize(name string, own []string) (string, error) {
	raw := strings.TrimSpace(name)
	raw = strings.TrimSuffix(raw, ".")
	if raw == "" {
		return "", apperr.Errorf(apperr.Invalid, "hostname is required").For("hostname_required", "hostname")
	}
	if len(raw) > 4*MaxHostnameLength {
		return "", apperr.Errorf(apperr.Invalid, "hostname is too long").For("hostname_invalid", "hostname")
	}
	if !utf8.ValidString(raw) {
		return "", apperr.Errorf(apperr.Invalid, "hostname must be valid text").For("hostname_invalid", "hostname")
	}
	if strings.ContainsAny(raw, ":/?#@[]\\ \t") {
		return "", apperr.Errorf(apperr.Invalid, "hostname %q must be a bare host name, without scheme, port or path", name).For("hostname_not_bare", "hostname")
	}
	if _, err := netip.ParseAddr(raw); err == nil {
		return "", apperr.Errorf(apperr.Invalid, "hostname must be a domain name, not an IP address").For("hostname_ip", "hostname")
	}
	host, err := profile.ToASCII(raw)
	if err != nil || host == "" || len(host) > MaxHostnameLength {
		return "", apperr.Errorf(apperr.Invalid, "hostname %q is not a valid domain name", name).For("hostname_invalid", "hostname")
	}
	host = strings.ToLower(host)
	if again, err := profile.ToASCII(host); err != nil || again != host {
		// Punycode that does not decode to what it claims (xn-- labels written by hand).
		return "", apperr.Errorf(apperr.Invalid, "hostname %q is not a valid domain name", name).For("hostname_invalid", "hostname")
	}
	labels := strings.Split(host, ".")
	last := labels[len(labels)-1]
	if strings.Trim(last, "0123456789") == "" || strings.HasPrefix(last, "0x") {
		// "10.1.2.3" in a form ParseAddr refuses ("3232235777", "0x7f.1"): resolvers may still
		// read it as an address.
		return "", apperr.Errorf(apperr.Invalid, "hostname must be a domain name, not an IP address").For("hostname_ip", "hostname")
	}
	for _, l := range labels {
		if strings.HasPrefix(l, "_") {
			return "", apperr.Errorf(apperr.Invalid, "hostname %q is not a valid domain name", name).For("hostname_invalid", "hostname")
		}
	}
	suffix, icann := publicsuffix.PublicSuffix(host)
	if !icann && !strings.Contains(suffix, ".") || suffix == "onion" {
		// Not a top-level domain of the public DNS ("localhost", "internal", "test"), so no
		// certificate authority could vouch for it either.
		return "", apperr.Errorf(apperr.Invalid, "hostname %q is not under a public top-level domain", host).For("hostname_not_public", "hostname")
	}
	if host == suffix || !strings.HasSuffix(host, "."+suffix) {
		return "", apperr.Errorf(apperr.Invalid, "hostname %q is a public suffix: add a name under it, such as go.example.com", host).For("hostname_public_suffix", "hostname")
	}
	for _, o := range own {
		o = strings.ToLower(strings.TrimSuffix(o, "."))
		if o != "" && (host == o || strings.HasSuffix(host, "."+o)) {
			return "", apperr.Errorf(apperr.Invalid, "hostname %q is this service's own domain", host).For("hostname_own", "hostname")
		}
	}
	return host, nil
}
