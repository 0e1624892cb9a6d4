package health

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/shortlink/shortlink/backend/netguard"
)

// MaxRedirects is how many redirects a check follows; one more is a failure (ErrRedirects).
const MaxRedirects = 5

// bodyCap is how much of a GET's body a check reads before it closes the connection.
const bodyCap = 16 << 10

// UserAgent names the checker to the destinations' servers.
const UserAgent = "Shortlink-LinkCheck/1.0 (+link health check; HEAD then GET)"

// errRedirects is the redirect policy's refusal.
var errRedirects = errors.New("too many redirects")

// errScheme refuses a redirect to anything but http and https.
var errScheme = errors.New("redirect to a scheme other than http or https")

// Checker asks destinations whether they answer: the one HTTP client of link health. Every
// connection, the first and each redirect's, goes through the address guard, so no
// destination can make the checker reach a private, loopback or metadata address.
type Checker struct {
	client  *http.Client
	timeout time.Duration
}

// NewChecker returns a Checker giving each check timeout (10 s when zero); allowLoopback lets
// the guard pass loopback addresses (tests only).
func NewChecker(timeout time.Duration, allowLoopback bool) *Checker {
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	dialer := &netguard.Dialer{AllowLoopback: allowLoopback, Timeout: timeout}
	return &Checker{timeout: timeout, client: &http.Client{
		Transport: &http.Transport{
			Proxy:                 nil, // a proxy would connect where the guard cannot see
			DialContext:           dialer.DialContext,
			TLSHandshakeTimeout:   timeout,
			ResponseHeaderTimeout: timeout,
			MaxIdleConnsPerHost:   1,
			IdleConnTimeout:       30 * time.Second,
		},
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > MaxRedirects {
				return errRedirects
			}
			if s := req.URL.Scheme; s != "http" && s != "https" {
				return errScheme
			}
			return nil
		},
	}}
}

// Check asks target with HEAD, then with GET unless HEAD settled it. HEAD settles a
// success (any answer but 404, 410 and 5xx) and the failures GET would meet the same way
// (DNS, the guard, TLS, timeout, refused connection, redirects); a failing status to HEAD,
// or 405 and 501 (HEAD not supported), leave the verdict to GET, as many servers answer HEAD
// worse than GET.
func (c *Checker) Check(ctx context.Context, target string) Result {
	r := c.ask(ctx, http.MethodHead, target)
	if r.Failed() && r.Error != ErrStatus {
		return r
	}
	if !r.Failed() && r.Status != http.StatusMethodNotAllowed && r.Status != http.StatusNotImplemented {
		return r
	}
	return c.ask(ctx, http.MethodGet, target)
}

// ask makes one request and classifies its outcome.
func (c *Checker) ask(ctx context.Context, method, target string) Result {
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Result{Error: ErrConnect, Detail: "not an http or https URL"}
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, target, nil)
	if err != nil {
		return Result{Error: ErrConnect, Detail: "not an http or https URL"}
	}
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set("Accept", "*/*")
	resp, err := c.client.Do(req)
	if err != nil {
		return Classify(err)
	}
	if method == http.MethodGet {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, bodyCap))
	}
	_ = resp.Body.Close()
	if resp.StatusCode >= 300 && resp.StatusCode < 400 && resp.Header.Get("Location") != "" {
		// A redirect the client did not follow: only past the policy.
		return Result{Status: resp.StatusCode, Error: ErrRedirects, Detail: errRedirects.Error()}
	}
	return StatusResult(resp.StatusCode)
}

// Classify is the result of a request that got no answer: why it failed.
func Classify(err error) Result {
	var refused *netguard.RefusedError
	var dns *net.DNSError
	var certInvalid x509.CertificateInvalidError
	var hostname x509.HostnameError
	var authority x509.UnknownAuthorityError
	var verify *tls.CertificateVerificationError
	var record tls.RecordHeaderError
	var alert tls.AlertError
	var nerr net.Error
	switch {
	case errors.As(err, &refused):
		return Result{Error: ErrRefused, Detail: "address refused: " + refused.Reason}
	case errors.Is(err, errRedirects):
		return Result{Error: ErrRedirects, Detail: fmt.Sprintf("more than %d redirects", MaxRedirects)}
	case errors.Is(err, errScheme):
		return Result{Error: ErrRedirects, Detail: errScheme.Error()}
	case errors.As(err, &dns):
		detail := "the host name does not resolve"
		if dns.IsTimeout {
			detail = "the host name's lookup timed out"
		}
		return Result{Error: ErrDNS, Detail: detail + " (" + dns.Name + ")"}
	case errors.As(err, &certInvalid), errors.As(err, &hostname), errors.As(err, &authority),
		errors.As(err, &verify), errors.As(err, &record), errors.As(err, &alert):
		return Result{Error: ErrTLS, Detail: "TLS: " + trim(err)}
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &nerr) && nerr.Timeout():
		return Result{Error: ErrTimeout, Detail: "no answer in time"}
	case strings.Contains(err.Error(), "tls:") || strings.Contains(err.Error(), "x509:"):
		return Result{Error: ErrTLS, Detail: "TLS: " + trim(err)}
	}
	return Result{Error: ErrConnect, Detail: "connection failed: " + trim(err)}
}

// trim is the innermost part of err's text, at most 200 bytes.
func trim(err error) string {
	s := err.Error()
	if i := strings.LastIndex(s, ": "); i >= 0 && i+2 < len(s) {
		s = s[i+2:]
	}
	if len(s) > 200 {
		s = s[:200]
	}
	return s
}
