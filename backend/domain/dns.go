package domain

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"
)

// checkTimeout bounds one look at a TXT record.
const checkTimeout = 5 * time.Second

// DNS looks up verification records with a resolver: the system's, or one named by address.
type DNS struct {
	r *net.Resolver
}

// NewDNS returns a checker asking the resolver at addr (host:port, UDP then TCP as DNS does);
// an empty addr uses the system's resolver.
func NewDNS(addr string) *DNS {
	if addr == "" {
		return &DNS{r: net.DefaultResolver}
	}
	return &DNS{r: &net.Resolver{
		PreferGo: true,
		Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, network, addr)
		},
	}}
}

// Resolver is the resolver c asks; other lookups of names customers give (the address of a
// workspace's identity provider) use it too.
func (c *DNS) Resolver() *net.Resolver { return c.r }

// Holds reports whether a TXT record at RecordName(hostname) holds token. A name with no such
// record answers false and no error; a resolver that fails answers the error.
func (c *DNS) Holds(ctx context.Context, hostname, token string) (bool, error) {
	return c.HoldsAt(ctx, RecordName(hostname), token)
}

// HoldsAt reports whether a TXT record at name holds token, as Holds does; other proofs of a
// name (the email domain of single sign-on) keep their records under names of their own.
func (c *DNS) HoldsAt(ctx context.Context, name, token string) (bool, error) {
	ctx, cancel := context.WithTimeout(ctx, checkTimeout)
	defer cancel()
	// The trailing dot makes the name absolute: no search domain is tried.
	txts, err := c.r.LookupTXT(ctx, name+".")
	if err != nil {
		var dnsErr *net.DNSError
		if errors.As(err, &dnsErr) && dnsErr.IsNotFound {
			return false, nil
		}
		return false, fmt.Errorf("look up TXT %s: %w", name, err)
	}
	for _, t := range txts {
		if strings.TrimSpace(t) == token {
			return true, nil
		}
	}
	return false, nil
}
