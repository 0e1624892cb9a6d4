package netguard

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"syscall"
	"time"
)

// Resolver looks up the addresses of a host name; *net.Resolver is one.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// RefusedError is an address the guard refuses; Reason says why ("private address 10.0.0.1").
// Reason is for the log: answers to clients say NotPublic instead, since it names the address
// a name resolved to, which may be inside the deployment's network.
type RefusedError struct {
	Reason string
}

// NotPublic is what an answer to a client says of a refused address.
const NotPublic = "not a public address"

func (e *RefusedError) Error() string { return "refused: " + e.Reason }

// IsRefused says err is (or wraps) a refusal of the guard.
func IsRefused(err error) bool {
	var r *RefusedError
	return errors.As(err, &r)
}

// Allowed returns nil when a may be connected to, else a *RefusedError; allowLoopback lets
// 127/8 and ::1 through (tests only), nothing else.
func Allowed(a netip.Addr, allowLoopback bool) error {
	a = a.WithZone("").Unmap()
	if class := Class(a); class != "" && !(class == ClassLoopback && allowLoopback) {
		return &RefusedError{Reason: fmt.Sprintf("%s address %s", class, a)}
	}
	return nil
}

// Dialer connects only to allowed addresses. A name is resolved once, every address checked,
// and the connection made to a checked address, so a name cannot resolve to a public
// address for the check and to a private one for the connection (DNS rebinding); the socket's
// Control function checks the address once more just before connecting.
type Dialer struct {
	// AllowLoopback lets loopback addresses through (tests only).
	AllowLoopback bool
	// Resolver resolves names; net.DefaultResolver when nil.
	Resolver Resolver
	// Timeout bounds the lookup and the connection together; 10 s when zero.
	Timeout time.Duration
}

// Resolve returns the addresses of host (an IP literal as it is; "localhost" and names under
// .localhost are loopback without DNS), every one checked: a *RefusedError when any is not
// allowed, another error when the name cannot be resolved.
func (d *Dialer) Resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	host = strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{a}
	} else if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		addrs = []netip.Addr{netip.AddrFrom4([4]byte{127, 0, 0, 1}), netip.IPv6Loopback()}
	} else {
		r := d.Resolver
		if r == nil {
			r = net.DefaultResolver
		}
		addrs, err = r.LookupNetIP(ctx, "ip", host)
		if err != nil {
			return nil, fmt.Errorf("resolve %s: %w", host, err)
		}
		if len(addrs) == 0 {
			return nil, fmt.Errorf("resolve %s: no addresses", host)
		}
	}
	for i, a := range addrs {
		if err := Allowed(a, d.AllowLoopback); err != nil {
			if a.String() != host {
				err.(*RefusedError).Reason += " (" + host + ")"
			}
			return nil, err
		}
		addrs[i] = a.WithZone("").Unmap()
	}
	return addrs, nil
}

// DialContext is net.Dialer.DialContext for TCP through the guard; it fits http.Transport.
func (d *Dialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	if network != "tcp" && network != "tcp4" && network != "tcp6" {
		return nil, &RefusedError{Reason: "network " + network}
	}
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", address, err)
	}
	timeout := d.Timeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	addrs, err := d.Resolve(ctx, host)
	if err != nil {
		return nil, err
	}
	nd := net.Dialer{Control: d.control}
	var first error
	for _, a := range addrs {
		c, err := nd.DialContext(ctx, "tcp", net.JoinHostPort(a.String(), port))
		if err == nil {
			return c, nil
		}
		if first == nil {
			first = err
		}
	}
	return nil, first
}

// control checks the address a socket is about to connect to.
func (d *Dialer) control(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return &RefusedError{Reason: "unparsable address " + address}
	}
	return Allowed(ap.Addr(), d.AllowLoopback)
}
