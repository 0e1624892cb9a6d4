// Package health checks that links' destinations still answer (docs/api.md#link-health): what counts as a
// failure and why (Classify, Failing), how a check moves a link's health (Apply: two failures
// in a row make it broken, one success makes it ok), when a link is checked again (Next), the
// Checker that asks a destination (HEAD, then GET, every connection through the address
// guard, backend/netguard), the Runner that checks due links on every node, and the daily
// digest of newly broken links mailed to workspaces' owners. The rows live in PostgreSQL
// (backend/postgres, link_health).
package health

import (
	"hash/fnv"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// The states of a link's health. Unknown is a link not checked yet (or whose destination
// changed since), or one that failed once and never succeeded: the API shows no health then.
const (
	Unknown = "unknown"
	OK      = "ok"
	Broken  = "broken"
)

// The reasons a check failed, as the API's health.error names them.
const (
	// ErrDNS: the destination's host name does not resolve.
	ErrDNS = "dns"
	// ErrTLS: the TLS handshake failed (certificate expired, for another name, untrusted).
	ErrTLS = "tls"
	// ErrTimeout: no answer within the check's timeout.
	ErrTimeout = "timeout"
	// ErrConnect: the connection was refused or cut.
	ErrConnect = "connect"
	// ErrStatus: the destination answered a failing status (404, 410 or 5xx; see status).
	ErrStatus = "status"
	// ErrRedirects: more redirects than a check follows, or one to something not http(s).
	ErrRedirects = "redirects"
	// ErrRefused: the destination (or a redirect) leads to an address the guard refuses
	// (private, loopback, link-local, metadata): the checker never connects to it.
	ErrRefused = "refused"
)

// FailuresToBreak is how many failed checks in a row make a link broken.
const FailuresToBreak = 2

// Result is what one check of a destination found.
type Result struct {
	// Status is the HTTP status of the last answer; 0 when none came.
	Status int
	// Error is why the check failed (one of the Err constants); "" when it succeeded.
	Error string
	// Detail says more in English, for logs and the answer's detail ("" on success).
	Detail string
}

// Failed says the check failed.
func (r Result) Failed() bool { return r.Error != "" }

// Failing says an HTTP status fails a check: 404, 410 and every 5xx. Any other answer (401,
// 403, 429 included) shows a server that is there.
func Failing(status int) bool {
	return status == 404 || status == 410 || (status >= 500 && status <= 599)
}

// StatusResult is the result of a final HTTP answer with status.
func StatusResult(status int) Result {
	if Failing(status) {
		return Result{Status: status, Error: ErrStatus, Detail: "status " + strconv.Itoa(status)}
	}
	return Result{Status: status}
}

// Record is a link's health as stored: the state and what the last check found.
type Record struct {
	State string
	// Failures is how many checks failed in a row.
	Failures  int
	Status    int
	Error     string
	Detail    string
	CheckedAt time.Time
	// BrokenAt is when the link last became broken (nil when it is not): the digest mails
	// the links broken since the one before.
	BrokenAt *time.Time
}

// Apply is prev after a check at now found r: a success makes the link ok; a failure counts
// one more in a row, and FailuresToBreak of them make it broken (BrokenAt set when it just
// became so). A single failure leaves the state as it was.
func Apply(prev Record, r Result, now time.Time) Record {
	next := Record{State: prev.State, Status: r.Status, Error: r.Error, Detail: r.Detail, CheckedAt: now, BrokenAt: prev.BrokenAt}
	if next.State == "" {
		next.State = Unknown
	}
	if !r.Failed() {
		next.State, next.Failures, next.BrokenAt = OK, 0, nil
		return next
	}
	next.Failures = prev.Failures + 1
	if next.Failures >= FailuresToBreak && next.State != Broken {
		at := now
		next.State, next.BrokenAt = Broken, &at
	}
	return next
}

// Schedule is how often links are checked.
type Schedule struct {
	// Every is the time between checks of a link (HEALTH_CHECK_INTERVAL): at most daily by
	// default.
	Every time.Duration
	// Retry is how soon a link that failed once (and is not broken yet) is checked again to
	// confirm it (HEALTH_RETRY_AFTER); never later than Every.
	Retry time.Duration
}

// Next is when a link checked at now, as rec says, is due again: Retry after a first
// failure, else Every less up to a tenth, spread by the link's ID so that links made
// together are not all checked in the same minute again.
func Next(rec Record, linkID int64, now time.Time, s Schedule) time.Time {
	if rec.State != Broken && rec.Failures > 0 && rec.Failures < FailuresToBreak && s.Retry < s.Every {
		return now.Add(s.Retry)
	}
	return now.Add(s.Every - spread(linkID, s.Every/10))
}

// spread is a part of max fixed by id.
func spread(id int64, max time.Duration) time.Duration {
	if max <= 0 {
		return 0
	}
	h := fnv.New64a()
	_, _ = h.Write([]byte(strconv.FormatInt(id, 10)))
	return time.Duration(h.Sum64() % uint64(max))
}

// Shown says a record is one the API shows: ok or broken.
func (r Record) Shown() bool { return r.State == OK || r.State == Broken }

// HostOf is the host name of a destination, in lower case (an IPv6 address in brackets): the
// key of its host's budget. "" when raw has none.
func HostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	h := strings.ToLower(u.Hostname())
	if strings.Contains(h, ":") {
		h = "[" + h + "]"
	}
	return h
}
