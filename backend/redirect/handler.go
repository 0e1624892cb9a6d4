package redirect

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"

	"github.com/shortlink/shortlink/backend/domain"
	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/visit"
)

var redirects = promauto.NewCounterVec(prometheus.CounterOpts{
	Name: "shortlink_redirects_total",
	Help: "Visitor requests on short domains, by outcome.",
}, []string{"outcome"})

// Counters bound once, so the hot path only adds atomically.
var (
	outRedirect = redirects.WithLabelValues("redirect")
	outMissing  = redirects.WithLabelValues("missing")
	outGone     = redirects.WithLabelValues("gone")
	outBlocked  = redirects.WithLabelValues("blocked")
	outPreview  = redirects.WithLabelValues("preview")
	outPage     = redirects.WithLabelValues("page")
	outError    = redirects.WithLabelValues("error")
	outRoot     = redirects.WithLabelValues("root")
)

// Handler answers visitors on the short domains.
type Handler struct {
	resolver *Resolver
	hosts    []string
	pages    *pages
	rules    RuleDeps
	now      func() time.Time
	// domains are the verified custom domains; nil serves the short domain alone.
	domains *domain.Table
}

// NewHandler serves the keys of the service's short domain, named by hosts (without ports);
// rules are what links with rules need (rules.HTTPS: the deployment is served over https, and
// its pages then carry HSTS).
func NewHandler(resolver *Resolver, hosts []string, rules RuleDeps) *Handler {
	lower := make([]string, len(hosts))
	for i, h := range hosts {
		lower[i] = strings.ToLower(h)
	}
	if rules.Base != "" && !strings.HasSuffix(rules.Base, "/") {
		rules.Base += "/"
	}
	return &Handler{resolver: resolver, hosts: lower, pages: newPages(rules.HTTPS, rules.Credit, rules.CreditURL),
		rules: rules, now: time.Now}
}

// UseClock makes the handler read the time links expire at from now (a test moves it instead of
// waiting). Call it before the handler serves.
func (h *Handler) UseClock(now func() time.Time) { h.now = now }

// ServeDomains makes the handler answer on the verified custom domains of t too.
func (h *Handler) ServeDomains(t *domain.Table) { h.domains = t }

// isOwn reports whether the Host header names the service's short domain.
func (h *Handler) isOwn(host string) bool {
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.HasSuffix(host, "]") {
		host = host[:i]
	}
	for _, own := range h.hosts {
		if strings.EqualFold(host, own) {
			return true
		}
	}
	return false
}

// ServeHTTP redirects GET and HEAD /{key}, shows the preview page at /{key}+, and takes the
// posts of a link's password and form pages, on the short domain and the verified custom
// domains; any other host is answered 404.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.isOwn(r.Host) {
		h.serve(w, r, nil)
		return
	}
	if h.domains != nil {
		if d := h.domains.Host(r.Host); d != nil {
			h.serve(w, r, d)
			return
		}
	}
	if !h.allowed(w, r) {
		return
	}
	outMissing.Inc()
	h.pages.notFound(w, r)
}

// ServeDomain answers a request whose Host is the custom domain d, whatever its path: the
// root sends visitors to the domain's root URL, and a key that names no link (or any path of a
// removed domain) gets a bare 404 that does not show this service's pages (the domain is its
// owner's brand).
func (h *Handler) ServeDomain(w http.ResponseWriter, r *http.Request, d *domain.Route) {
	h.serve(w, r, d)
}

func (h *Handler) allowed(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodGet && r.Method != http.MethodHead && r.Method != http.MethodPost {
		h.pages.methodNotAllowed(w, r, "GET, HEAD, POST")
		return false
	}
	return true
}

// serve answers a visitor on the short domain (d nil) or on the custom domain d.
func (h *Handler) serve(w http.ResponseWriter, r *http.Request, d *domain.Route) {
	if !h.allowed(w, r) {
		return
	}
	domainID := link.DefaultDomain
	if d != nil {
		if !d.Active {
			// Removed: its links stay in their workspace and answer nowhere.
			outMissing.Inc()
			h.pages.bareNotFound(w, r)
			return
		}
		domainID = d.ID
	}
	key := strings.TrimPrefix(r.URL.Path, "/") // empty for an absolute-form request line
	if d != nil && strings.HasPrefix(key, ".well-known/") {
		h.wellKnown(w, r, d)
		return
	}
	if d != nil && key == "" && r.Method != http.MethodPost {
		h.root(w, r, d)
		return
	}
	preview := strings.HasSuffix(key, "+")
	if preview {
		key = key[:len(key)-1]
	}
	l, err := h.resolver.Resolve(r.Context(), domainID, key)
	if err != nil {
		if IsMissing(err) {
			outMissing.Inc()
			if d != nil {
				h.pages.bareNotFound(w, r)
				return
			}
			h.pages.notFound(w, r)
			return
		}
		outError.Inc()
		h.resolver.log.Error("resolve link", "err", err)
		h.pages.unavailable(w, r)
		return
	}
	if r.Method == http.MethodPost && (preview || !takesPosts(l)) {
		h.pages.methodNotAllowed(w, r, "GET, HEAD")
		return
	}
	if needsRules(l, r) {
		// The preview decides as a visit does: it shows the page a rule puts before the
		// target, and the target only where this visitor would be sent to it.
		h.serveRules(w, r, l, preview)
		return
	}
	now := h.now()
	switch {
	case l.Status != link.StatusActive:
		outBlocked.Inc()
		h.pages.blocked(w, r, l)
		return
	case l.Expired(now):
		outGone.Inc()
		h.pages.gone(w, r, reasonExpired)
		return
	}
	if h.sendTo(w, r, l, l.Destination(), preview, cacheControl) {
		w.WriteHeader(l.RedirectStatus)
		h.capture(r, l, now, -1)
	}
}

// sendTo shows the preview page of target when preview is set; otherwise it sets the headers
// of a redirect to target, with the visitor's query string when the link forwards it, and
// reports that the caller is to write the status.
func (h *Handler) sendTo(w http.ResponseWriter, r *http.Request, l *link.Link, target string, preview bool, cache []string) bool {
	if l.ForwardQuery && r.URL.RawQuery != "" {
		target = withQuery(target, r.URL.RawQuery)
	}
	if preview {
		outPreview.Inc()
		h.pages.preview(w, r, l, target)
		return false
	}
	outRedirect.Inc()
	hdr := w.Header()
	// Direct map writes: the keys are canonical already, and this is the hottest line we have.
	hdr["Location"] = []string{target}
	hdr["Cache-Control"] = cache
	return true
}

// root sends a visitor of a custom domain's root to its root URL; without one, or while its
// workspace is being deleted, it is a bare 404.
func (h *Handler) root(w http.ResponseWriter, r *http.Request, d *domain.Route) {
	if d.RootURL == "" || h.resolver.WorkspaceIsGone(d.WorkspaceID) {
		outMissing.Inc()
		h.pages.bareNotFound(w, r)
		return
	}
	outRoot.Inc()
	hdr := w.Header()
	hdr["Location"] = []string{d.RootURL}
	hdr["Cache-Control"] = cacheControl
	w.WriteHeader(http.StatusFound)
}

// wellKnown serves a custom domain's app-link files (its AASA and assetlinks.json) as JSON,
// cacheable, never redirected, and never to be read as anything else (nosniff: the files are
// the workspace's text; docs/security.md); any other well-known path, or a file not set, is a
// bare 404. A workspace whose plan lost custom domains keeps its files but they are not served
// (a bare 404, as if unset) until the plan has them again; when the plan cannot be read the
// answer is 503, so that no platform caches the files' absence.
func (h *Handler) wellKnown(w http.ResponseWriter, r *http.Request, d *domain.Route) {
	var body []byte
	switch r.URL.Path {
	case domain.AASAPath:
		body = d.AASA
	case domain.AssetLinksPath:
		body = d.AssetLinks
	}
	if body == nil || r.Method == http.MethodPost || h.resolver.WorkspaceIsGone(d.WorkspaceID) {
		outMissing.Inc()
		h.pages.bareNotFound(w, r)
		return
	}
	if h.rules.Plans != nil {
		served, err := h.rules.Plans.AppLinks(r.Context(), d.WorkspaceID)
		if err != nil {
			outError.Inc()
			w.Header().Set("Retry-After", "5")
			if !h.pages.answerJSON(w, r, reasonUnavailable) {
				http.Error(w, "unavailable", http.StatusServiceUnavailable)
			}
			return
		}
		if !served {
			outMissing.Inc()
			h.pages.bareNotFound(w, r)
			return
		}
	}
	hdr := w.Header()
	hdr.Set("Content-Type", "application/json")
	hdr["X-Content-Type-Options"] = nosniff
	hdr.Set("Cache-Control", "public, max-age=300")
	hdr.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

// capture records a visit answered with the link's target (variant: the index of the one chosen,
// -1 when none) or its Open Graph page. It copies what the event needs and returns: classifying
// the visitor is the recorder's work, after the answer. HEAD asks are not visits.
func (h *Handler) capture(r *http.Request, l *link.Link, at time.Time, variant int) {
	if h.rules.Visits == nil || r.Method == http.MethodHead {
		return
	}
	h.rules.Visits.Capture(visit.Hit{
		At:         at,
		Target:     visit.Target{LinkID: l.ID, WorkspaceID: l.WorkspaceID, DomainID: l.DomainID},
		Variant:    variant,
		RemoteAddr: r.RemoteAddr,
		Forwarded:  r.Header["X-Forwarded-For"], // canonical key: no allocation, unlike Values
		UserAgent:  r.UserAgent(),
		Referer:    r.Referer(),
		Query:      r.URL.RawQuery, // a string already there: read by the flusher, if not empty
	})
}

var cacheControl = []string{"private, max-age=0"}

// nosniff tells browsers to take a file's Content-Type as it is.
var nosniff = []string{"nosniff"}

// withQuery appends the visitor's query string to the target's, keeping the target's fragment.
func withQuery(target, query string) string {
	frag := ""
	if i := strings.IndexByte(target, '#'); i >= 0 {
		target, frag = target[:i], target[i:]
	}
	sep := "?"
	if strings.Contains(target, "?") {
		sep = "&"
	}
	return target + sep + query + frag
}
