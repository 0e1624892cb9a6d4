package browse

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/netip"
	"strconv"
	"sync"
	"time"
)

// vetter is one capture's view of the guard: each host and port is resolved and checked once,
// and connections go to the addresses that were checked, so a DNS answer that changes between
// the check and the connection (rebinding) changes nothing.
type vetter struct {
	guard *Guard

	mu   sync.Mutex
	seen map[string]vetted
}

type vetted struct {
	addrs []netip.AddrPort
	err   error
}

func newVetter(g *Guard) *vetter { return &vetter{guard: g, seen: map[string]vetted{}} }

// resolve is Guard.Resolve, remembered for the capture's life.
func (v *vetter) resolve(ctx context.Context, host string, port int) ([]netip.AddrPort, error) {
	key := hostPortString(host, port)
	v.mu.Lock()
	r, ok := v.seen[key]
	v.mu.Unlock()
	if ok {
		return r.addrs, r.err
	}
	addrs, err := v.guard.Resolve(ctx, host, port)
	if err != nil && ctx.Err() != nil {
		return nil, err // the capture is ending: nothing worth remembering
	}
	v.mu.Lock()
	v.seen[key] = vetted{addrs, err}
	v.mu.Unlock()
	return addrs, err
}

// checkRequest is Guard.CheckRequest through the capture's memory.
func (v *vetter) checkRequest(ctx context.Context, raw string) error {
	return checkURL(ctx, raw, false, v.resolve)
}

// dialFunc connects to an address; net.Dialer.DialContext is one.
type dialFunc func(ctx context.Context, network, addr string) (net.Conn, error)

// proxy is one capture's HTTP proxy. Chromium sends every connection of the capture's browser
// context through it — plain HTTP as requests for absolute URLs, HTTPS and WebSockets as
// CONNECT tunnels — and it connects only to addresses the guard approved. Playwright routes a
// page's requests but lets Chromium follow an HTTP redirect without routing the next hop, and
// by the time the redirect's response event reaches Go the next request has been sent; the
// proxy is where that hop is checked and stopped. It also applies the host rules: Chromium
// itself resolves nothing but the proxy's own address.
//
// It listens on a loopback port and asks for a password of its own, so other local programs
// cannot use it.
type proxy struct {
	vet      *vetter
	dial     dialFunc
	onFailed func(target string, err error)
	user     string
	password string

	ln        net.Listener
	srv       *http.Server
	transport *http.Transport
	rp        *httputil.ReverseProxy

	mu      sync.Mutex
	tunnels map[net.Conn]struct{}
	closed  bool
}

// startProxy starts a proxy on a loopback port; onFailed hears of every request it did not
// complete — refused by the guard (a *RefusedError), unresolvable, unreachable — with its
// target: the URL, or host:port for a tunnel.
func startProxy(vet *vetter, dial dialFunc, onFailed func(target string, err error)) (*proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("start proxy: %w", err)
	}
	secret := make([]byte, 18)
	_, _ = rand.Read(secret)
	p := &proxy{
		vet: vet, dial: dial, onFailed: onFailed,
		user: "browse", password: base64.RawURLEncoding.EncodeToString(secret),
		ln: ln, tunnels: map[net.Conn]struct{}{},
	}
	p.transport = &http.Transport{
		Proxy:                 nil,
		DialContext:           p.dialVetted,
		DisableCompression:    true, // the browser's Accept-Encoding goes through as it is
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       30 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
	p.rp = &httputil.ReverseProxy{
		// The request goes on as the browser sent it: same URL, same headers, no X-Forwarded-For.
		Rewrite:       func(*httputil.ProxyRequest) {},
		Transport:     p.transport,
		FlushInterval: -1,
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			p.fail(w, r.URL.String(), err)
		},
	}
	p.srv = &http.Server{Handler: p, ReadHeaderTimeout: 10 * time.Second, ErrorLog: nil}
	go func() { _ = p.srv.Serve(ln) }()
	return p, nil
}

// addr is the proxy's address for Chromium ("http://127.0.0.1:port").
func (p *proxy) url() string { return "http://" + p.ln.Addr().String() }

// Close stops the proxy and cuts its tunnels.
func (p *proxy) Close() {
	p.mu.Lock()
	p.closed = true
	for c := range p.tunnels {
		_ = c.Close()
	}
	p.mu.Unlock()
	_ = p.srv.Close()
	p.transport.CloseIdleConnections()
}

func (p *proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if user, pass, ok := proxyAuth(r); !ok || user != p.user || pass != p.password {
		w.Header().Set("Proxy-Authenticate", `Basic realm="moderation"`)
		http.Error(w, "proxy authentication required", http.StatusProxyAuthRequired)
		return
	}
	r.Header.Del("Proxy-Authorization")
	if r.Method == http.MethodConnect {
		p.tunnel(w, r)
		return
	}
	if !r.URL.IsAbs() || r.URL.Scheme != "http" {
		http.Error(w, "proxy: only absolute http:// URLs and CONNECT", http.StatusBadRequest)
		return
	}
	p.rp.ServeHTTP(w, r) // connecting through dialVetted
}

// fail answers a request the proxy could not complete (refused, unresolvable, unreachable) by
// closing the connection without a response, which the browser reports as a network error
// (net::ERR_EMPTY_RESPONSE) rather than rendering a page of the proxy's as if the destination
// had sent it.
func (p *proxy) fail(w http.ResponseWriter, target string, err error) {
	if p.onFailed != nil && !errors.Is(err, context.Canceled) { // not when the browser gave up
		p.onFailed(target, err)
	}
	if conn, _, herr := http.NewResponseController(w).Hijack(); herr == nil {
		_ = conn.Close()
		return
	}
	http.Error(w, err.Error(), http.StatusForbidden)
}

// tunnel serves CONNECT: a byte stream to a vetted address.
func (p *proxy) tunnel(w http.ResponseWriter, r *http.Request) {
	host, portText, err := net.SplitHostPort(r.Host)
	port, perr := strconv.Atoi(portText)
	if err != nil || perr != nil {
		http.Error(w, "proxy: CONNECT needs host:port", http.StatusBadRequest)
		return
	}
	upstream, err := p.dialVetted(r.Context(), "tcp", net.JoinHostPort(host, strconv.Itoa(port)))
	if err != nil {
		if p.onFailed != nil {
			p.onFailed(r.Host, err)
		}
		// Chromium reports a CONNECT answered with an error as net::ERR_TUNNEL_CONNECTION_FAILED.
		http.Error(w, "proxy: "+err.Error(), http.StatusForbidden)
		return
	}
	conn, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		_ = upstream.Close()
		return
	}
	if !p.track(conn, upstream) {
		_ = conn.Close()
		_ = upstream.Close()
		return
	}
	defer p.untrack(conn, upstream)
	if _, err := conn.Write([]byte("HTTP/1.1 200 Connection Established\r\n\r\n")); err != nil {
		return
	}
	done := make(chan struct{}, 2)
	go func() {
		// Bytes the browser sent after its CONNECT request may already be buffered.
		if n := buf.Reader.Buffered(); n > 0 {
			b, _ := buf.Reader.Peek(n)
			if _, err := upstream.Write(b); err != nil {
				done <- struct{}{}
				return
			}
		}
		_, _ = io.Copy(upstream, conn)
		closeWrite(upstream)
		done <- struct{}{}
	}()
	go func() {
		_, _ = io.Copy(conn, upstream)
		closeWrite(conn)
		done <- struct{}{}
	}()
	<-done
	<-done
}

func closeWrite(c net.Conn) {
	if cw, ok := c.(interface{ CloseWrite() error }); ok {
		_ = cw.CloseWrite()
		return
	}
	_ = c.Close()
}

func (p *proxy) track(conns ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return false
	}
	for _, c := range conns {
		p.tunnels[c] = struct{}{}
	}
	return true
}

func (p *proxy) untrack(conns ...net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range conns {
		_ = c.Close()
		delete(p.tunnels, c)
	}
}

// dialVetted connects to addr ("host:port") at an address the guard approved for it.
func (p *proxy) dialVetted(ctx context.Context, network, addr string) (net.Conn, error) {
	host, portText, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", addr, err)
	}
	port, err := strconv.Atoi(portText)
	if err != nil {
		return nil, fmt.Errorf("dial %s: bad port", addr)
	}
	addrs, err := p.vet.resolve(ctx, host, port)
	if err != nil {
		return nil, err
	}
	var errs []error
	for _, a := range addrs {
		c, err := p.dial(ctx, "tcp", a.String())
		if err == nil {
			return c, nil
		}
		errs = append(errs, err)
	}
	return nil, fmt.Errorf("dial %s: %w", addr, errors.Join(errs...))
}

// proxyAuth reads the Basic credentials of a Proxy-Authorization header.
func proxyAuth(r *http.Request) (user, pass string, ok bool) {
	// http.Request.BasicAuth reads Authorization; the same parsing on the proxy's header.
	fake := &http.Request{Header: http.Header{"Authorization": r.Header.Values("Proxy-Authorization")}}
	return fake.BasicAuth()
}
