package redirect

import (
	"context"
	"crypto/hmac"
	crand "crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/auth"
	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/visit"
	"github.com/shortlink/shortlink/backend/visitor"
)

// What the rules path needs beyond the resolver. Every field may be nil in tests that do not
// exercise it.

// VisitCap counts the visits of capped links across every node (package visitcap).
type VisitCap interface {
	Reached(ctx context.Context, linkID, max int64) bool
	Take(ctx context.Context, linkID, max int64) (bool, error)
}

// PasswordChecker checks a password against its hash (bounded: auth.Hasher).
type PasswordChecker interface {
	Verify(ctx context.Context, hash, password string) (bool, error)
}

// Limiter takes one attempt from a budget shared by every node (auth.Limiter).
type Limiter interface {
	Take(ctx context.Context, key, what string, n int, period time.Duration) error
}

// FormRecorder keeps a visitor's answers to a link's form (link.Responses).
type FormRecorder interface {
	RecordFormResponse(ctx context.Context, l *link.Link, answers map[string]string) error
}

// PlanFacts says what the link's workspace's plan changes for visitors: the rules it no longer
// applies, and whether WeChat visits are closed (free plan, 10 days after creation).
type PlanFacts interface {
	Facts(ctx context.Context, l *link.Link, now time.Time) (inactive []string, wechatClosed bool, err error)
	// AppLinks reports whether the workspace's plan serves its domains' app-link files
	// (custom domains); an error when the plan could not be read.
	AppLinks(ctx context.Context, workspaceID int64) (bool, error)
}

// VisitRecorder records the visits answered (visit.Buffer): Capture returns at once.
type VisitRecorder interface {
	Capture(visit.Hit)
}

// RuleDeps are the parts the rules path uses, and Visits, which both paths use.
type RuleDeps struct {
	// Visits records every visit answered with the link's target or its Open Graph page.
	Visits    VisitRecorder
	Visitors  *visitor.Classifier
	Caps      VisitCap
	Passwords PasswordChecker
	Guesses   Limiter
	Forms     FormRecorder
	Plans     PlanFacts
	// Secret signs the cookies that let a visitor through a password.
	Secret []byte
	// Base is the short domain's public URL, for the short URLs pages show.
	Base string
	// ShortURL is the short URL of a link at key on a domain (custom domains too); nil uses
	// Base.
	ShortURL func(domainID int64, key string) string
	// HTTPS marks cookies Secure.
	HTTPS bool
	// Credit and CreditURL are the GeoIP data's attribution, on the pages that use it.
	Credit, CreditURL string
	// WriteTimeout bounds the keeping of a form's answers (WRITE_TIMEOUT): past it, with the
	// database stalled, the visitor gets 503 with Retry-After and is not let through; 0 waits.
	WriteTimeout time.Duration
}

// Limits of the rules path.
const (
	passwordCookieTTL = 12 * time.Hour
	variantCookieTTL  = 90 * 24 * time.Hour
	// guessesPerLink is how many passwords one client may try on one link per guessWindow.
	guessesPerLink = 10
	guessWindow    = 15 * time.Minute
	// answersPerLink is how many answer sets one client may post to one link's form per
	// answerWindow (counted like password guesses: on every node, per client address or /64).
	// It is higher than guessesPerLink: many people may share one address (a carrier's NAT).
	answersPerLink = 30
	answerWindow   = 15 * time.Minute
	maxFormBody    = 64 << 10
	csrfCookie     = "sl_vcsrf"
)

// needsRules reports whether a request for l leaves the plain path: the link has rules, or a
// WeChat visitor may meet the free plan's 10 days.
func needsRules(l *link.Link, r *http.Request) bool {
	return !l.Rules.IsZero() || strings.Contains(r.UserAgent(), "MicroMessenger")
}

// postTo is where a password or form page posts: its own address, but a preview's page
// posts to the link (a preview takes no posts), so answering it goes on as a visit.
func postTo(l *link.Link, preview bool) string {
	if preview {
		return "/" + l.Key
	}
	return ""
}

// takesPosts reports whether the link has a page that posts back: a password or a form.
func takesPosts(l *link.Link) bool { return l.Rules.PasswordHash != "" || l.Rules.Form != nil }

// serveRules answers a request for a link with rules: classify, gather the facts, decide, write.
// preview asks for the preview page (/{code}+): decided as a visit, shown instead of the
// redirect. A preview and a HEAD only look: they take none of max_visits and are no visits.
//
//nolint:gocyclo // the steps of the hot path in order (classify, gather, decide, write)
func (h *Handler) serveRules(w http.ResponseWriter, r *http.Request, l *link.Link, preview bool) {
	ctx := r.Context()
	d := &h.rules
	rules := &l.Rules
	f := Facts{Now: h.now(), Random: rand.Float64(), Look: preview || r.Method == http.MethodHead}
	if d.Visitors != nil {
		parts := visitor.PartAgent | visitor.PartLang
		if rules.Geo != nil || len(rules.CountryTargets) > 0 || rules.Form != nil || rules.PasswordHash != "" {
			parts |= visitor.PartCountry | visitor.PartAddress
		}
		f.Visitor = d.Visitors.ClassifyParts(r, parts)
	}
	if d.Plans != nil {
		var err error
		if f.Inactive, f.WeChatClosed, err = d.Plans.Facts(ctx, l, f.Now); err != nil {
			h.resolver.log.Warn("redirect: read the workspace's plan; applying every rule", "err", err)
		}
	}
	active := func(rule string) bool {
		for _, off := range f.Inactive {
			if off == rule {
				return false
			}
		}
		return true
	}
	if rules.MaxVisits != nil && d.Caps != nil && active("max_visits") {
		f.CapReached = d.Caps.Reached(ctx, l.ID, *rules.MaxVisits)
	}
	f.PasswordOK = rules.PasswordHash != "" && h.passwordCookieOK(r, l)
	if c, err := r.Cookie(variantCookie(l)); err == nil {
		f.Remembered, _ = strconv.Atoi(c.Value)
	}

	if r.Method == http.MethodPost {
		if done := h.post(w, r, l, &f); done {
			return
		}
	}

	o := Decide(l, &f)
	switch o.Page {
	case PageBlocked:
		outBlocked.Inc()
		h.pages.blocked(w, r, l)
	case PageGone:
		outGone.Inc()
		reason := reasonExpired
		if !l.Expired(f.Now) {
			reason = reasonVisitCap
		}
		h.pages.gone(w, r, reason)
	case PageGeo:
		outBlocked.Inc()
		h.pages.geo(w, r)
	case PageOG:
		outPage.Inc()
		h.pages.og(w, r, l, h.shortURL(l))
		if !preview {
			h.capture(r, l, f.Now, -1)
		}
	case PagePassword:
		outPage.Inc()
		h.pages.password(w, r, o.Status, postTo(l, preview), h.csrf(w, r), "")
	case PageForm:
		outPage.Inc()
		h.pages.form(w, r, o.Status, rules.Form, postTo(l, preview), h.csrf(w, r), nil, nil, "")
	case PageGuide:
		outPage.Inc()
		h.pages.guide(w, r, h.shortURL(l), f.WeChatClosed && !(rules.WeChatGuide && active("wechat_guide")))
	default:
		if o.CountVisit && d.Caps != nil {
			ok, err := d.Caps.Take(ctx, l.ID, *rules.MaxVisits)
			if err != nil {
				outError.Inc()
				h.resolver.log.Error("redirect: count a capped visit", "err", err)
				h.pages.unavailable(w, r)
				return
			}
			if !ok {
				outGone.Inc()
				h.pages.gone(w, r, reasonVisitCap)
				return
			}
		}
		if o.Sticky {
			http.SetCookie(w, &http.Cookie{Name: variantCookie(l), Value: strconv.Itoa(o.Variant + 1), Path: "/" + l.Key,
				MaxAge: int(variantCookieTTL.Seconds()), HttpOnly: true, Secure: d.HTTPS, SameSite: http.SameSiteLaxMode})
		}
		if !h.sendTo(w, r, l, o.Target, preview, noStore) {
			return
		}
		status := o.Status
		if r.Method == http.MethodPost {
			status = http.StatusFound // after a form, the browser follows with a GET
		}
		w.WriteHeader(status)
		h.capture(r, l, f.Now, o.Variant)
	}
}

// noStore keeps answers that depend on the visitor (cookies, country, device) out of shared
// caches.
var noStore = []string{"private, no-store"}

// post handles a password or form posted to the link; done says it has answered already (an
// error page), otherwise it has updated f with what the post proved.
func (h *Handler) post(w http.ResponseWriter, r *http.Request, l *link.Link, f *Facts) bool {
	ctx := r.Context()
	d := &h.rules
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBody)
	if err := r.ParseForm(); err != nil {
		h.pages.badPost(w, r)
		return true
	}
	cookie, err := r.Cookie(csrfCookie)
	if err != nil || cookie.Value == "" || subtle.ConstantTimeCompare([]byte(cookie.Value), []byte(r.PostForm.Get("csrf"))) != 1 {
		// Not a post of our own page (or its cookie expired): show the page again.
		return false
	}
	rules := &l.Rules
	if rules.PasswordHash != "" && !f.PasswordOK && r.PostForm.Has("password") {
		if d.Guesses != nil {
			key := "linkpw:" + strconv.FormatInt(l.ID, 10) + ":" + auth.AddressName(f.Visitor.IP.String())
			if err := d.Guesses.Take(ctx, key, "password attempts", guessesPerLink, guessWindow); err != nil {
				setRetryAfter(w, err)
				h.pages.password(w, r, http.StatusTooManyRequests, "", h.csrf(w, r), "password.tooMany")
				return true
			}
		}
		ok, err := d.Passwords.Verify(ctx, rules.PasswordHash, r.PostForm.Get("password"))
		if err != nil {
			if apperr.Is(err, apperr.Unavailable) {
				w.Header().Set("Retry-After", "5")
			}
			h.resolver.log.Warn("redirect: check a link password", "err", err)
			h.pages.unavailable(w, r)
			return true
		}
		if !ok {
			h.pages.password(w, r, http.StatusUnauthorized, "", h.csrf(w, r), "password.wrong")
			return true
		}
		h.setPasswordCookie(w, l, f.Now)
		f.PasswordOK = true
	}
	if rules.Form != nil && r.PostForm.Get("form") == "1" && (f.PasswordOK || rules.PasswordHash == "") {
		clean, problems := rules.Form.Check(r.PostForm, f.Visitor.Country)
		values := func() map[string]string {
			v := map[string]string{}
			for _, fd := range rules.Form.Fields {
				v[fd.Name] = r.PostForm.Get(fd.Name)
			}
			return v
		}
		if len(problems) > 0 {
			h.pages.form(w, r, http.StatusBadRequest, rules.Form, "", h.csrf(w, r), values(), problems, "")
			return true
		}
		if d.Guesses != nil {
			// Valid answer sets are what is kept, so they are what is counted.
			key := "linkform:" + strconv.FormatInt(l.ID, 10) + ":" + auth.AddressName(f.Visitor.IP.String())
			if err := d.Guesses.Take(ctx, key, "form answers", answersPerLink, answerWindow); err != nil {
				setRetryAfter(w, err)
				h.pages.form(w, r, http.StatusTooManyRequests, rules.Form, "", h.csrf(w, r), values(), nil, "form.tooMany")
				return true
			}
		}
		if err := h.recordAnswers(ctx, l, clean); err != nil {
			if apperr.Is(err, apperr.NotFound) {
				h.pages.notFound(w, r)
				return true
			}
			if apperr.Is(err, apperr.QuotaExceeded) {
				// The form keeps no more answers: it stays closed rather than open.
				h.pages.formFull(w, r)
				return true
			}
			if errors.Is(err, context.DeadlineExceeded) {
				// The database did not take the answers in time: the visitor may post again.
				h.resolver.log.Warn("redirect: form answers not kept within the write deadline", "link_id", l.ID)
				w.Header().Set("Retry-After", strconv.Itoa(max(1, int((d.WriteTimeout+time.Second-1)/time.Second))))
				h.pages.unavailable(w, r)
				return true
			}
			h.resolver.log.Error("redirect: keep form answers", "err", err)
			h.pages.unavailable(w, r)
			return true
		}
		f.FormDone = true
	}
	return false
}

// recordAnswers keeps a form's answers within the write deadline; the visitor goes on only once
// they are stored.
func (h *Handler) recordAnswers(ctx context.Context, l *link.Link, answers map[string]string) error {
	if h.rules.WriteTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, h.rules.WriteTimeout)
		defer cancel()
	}
	err := h.rules.Forms.RecordFormResponse(ctx, l, answers)
	if err != nil && ctx.Err() == context.DeadlineExceeded {
		return fmt.Errorf("keep form answers: %w: %w", context.DeadlineExceeded, err)
	}
	return err
}

// setRetryAfter tells the client when a rate limit's budget has room again.
func setRetryAfter(w http.ResponseWriter, err error) {
	var rl interface{ RetrySeconds() string }
	if errors.As(err, &rl) {
		w.Header().Set("Retry-After", rl.RetrySeconds())
	}
}

func (h *Handler) shortURL(l *link.Link) string {
	if h.rules.ShortURL != nil {
		return h.rules.ShortURL(l.DomainID, l.Key)
	}
	return h.rules.Base + l.Key
}

// csrf returns the token of the visitor's page forms, setting its cookie when there is none: a
// post must carry the cookie and the same value in the form, which another site cannot do.
func (h *Handler) csrf(w http.ResponseWriter, r *http.Request) string {
	if c, err := r.Cookie(csrfCookie); err == nil && len(c.Value) >= 16 {
		return c.Value
	}
	b := make([]byte, 18)
	_, _ = cryptoRead(b)
	v := base64.RawURLEncoding.EncodeToString(b)
	http.SetCookie(w, &http.Cookie{Name: csrfCookie, Value: v, Path: "/", HttpOnly: true,
		Secure: h.rules.HTTPS, SameSite: http.SameSiteLaxMode})
	return v
}

var cryptoRead = crand.Read

func passwordCookie(l *link.Link) string { return "sl_pw" + strconv.FormatInt(l.ID, 36) }

func variantCookie(l *link.Link) string { return "sl_v" + strconv.FormatInt(l.ID, 36) }

// passwordMAC signs "this browser gave link l's current password until exp": a new password
// voids every cookie of the old one.
func (h *Handler) passwordMAC(l *link.Link, exp int64) string {
	m := hmac.New(sha256.New, h.rules.Secret)
	m.Write([]byte("link-password\x00" + strconv.FormatInt(l.ID, 10) + "\x00" + strconv.FormatInt(exp, 10) + "\x00" + l.Rules.PasswordHash))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

func (h *Handler) setPasswordCookie(w http.ResponseWriter, l *link.Link, now time.Time) {
	exp := now.Add(passwordCookieTTL).Unix()
	http.SetCookie(w, &http.Cookie{Name: passwordCookie(l), Value: strconv.FormatInt(exp, 10) + "." + h.passwordMAC(l, exp),
		Path: "/" + l.Key, MaxAge: int(passwordCookieTTL.Seconds()), HttpOnly: true, Secure: h.rules.HTTPS, SameSite: http.SameSiteLaxMode})
}

func (h *Handler) passwordCookieOK(r *http.Request, l *link.Link) bool {
	c, err := r.Cookie(passwordCookie(l))
	if err != nil || len(h.rules.Secret) == 0 {
		return false
	}
	expText, mac, ok := strings.Cut(c.Value, ".")
	exp, err := strconv.ParseInt(expText, 10, 64)
	if !ok || err != nil || h.now().Unix() > exp {
		return false
	}
	return hmac.Equal([]byte(mac), []byte(h.passwordMAC(l, exp)))
}
