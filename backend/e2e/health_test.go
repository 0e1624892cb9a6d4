package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// destination is a link's destination started in the test: each path answers the status the
// test sets (200 until then), and counts the requests it got by method.
type destination struct {
	srv *httptest.Server

	mu       sync.Mutex
	status   map[string]int // path → status answered to GET (and to HEAD unless headStatus says)
	head     map[string]int // path → status answered to HEAD, when not status
	slow     map[string]bool
	redirect map[string]string
	requests map[string]int // "METHOD path" → count
}

func newDestination(t *testing.T) *destination {
	t.Helper()
	d := &destination{status: map[string]int{}, head: map[string]int{}, slow: map[string]bool{},
		redirect: map[string]string{}, requests: map[string]int{}}
	d.srv = httptest.NewServer(http.HandlerFunc(d.serve))
	t.Cleanup(d.srv.Close)
	return d
}

func (d *destination) serve(w http.ResponseWriter, r *http.Request) {
	d.mu.Lock()
	d.requests[r.Method+" "+r.URL.Path]++
	status, ok := d.status[r.URL.Path]
	if h, set := d.head[r.URL.Path]; set && r.Method == http.MethodHead {
		status, ok = h, true
	}
	slow, to := d.slow[r.URL.Path], d.redirect[r.URL.Path]
	d.mu.Unlock()
	if slow {
		select {
		case <-r.Context().Done():
		case <-time.After(3 * time.Second):
		}
		return
	}
	if to != "" {
		http.Redirect(w, r, to, http.StatusFound)
		return
	}
	if !ok {
		status = http.StatusOK
	}
	w.WriteHeader(status)
}

func (d *destination) url(path string) string { return d.srv.URL + path }

func (d *destination) set(path string, status int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.status[path] = status
}

func (d *destination) count(method, path string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.requests[method+" "+path]
}

// pathsHit is how many of paths got any request.
func (d *destination) pathsHit(paths []string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	n := 0
	for _, p := range paths {
		if d.requests["HEAD "+p]+d.requests["GET "+p] > 0 {
			n++
		}
	}
	return n
}

// healthJSON is a link's health as the API shows it.
type healthJSON struct {
	State     string    `json:"state"`
	CheckedAt time.Time `json:"checked_at"`
	Status    *int      `json:"status"`
	Error     string    `json:"error"`
	Detail    string    `json:"detail"`
}

type healthLink struct {
	ID     int64       `json:"id"`
	URL    string      `json:"url"`
	Health *healthJSON `json:"health"`
}

func (s *server) linkHealth(tn tenant, id int64) *healthJSON {
	s.t.Helper()
	r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links/%d", tn.WorkspaceID, id), tn.Key, nil)
	return answer[healthLink](s.t, r, http.StatusOK, "get link").Health
}

// waitHealth waits until link id's health is in state (and has status, when not 0).
func (s *server) waitHealth(tn tenant, id int64, state string, status int, within time.Duration) *healthJSON {
	s.t.Helper()
	var h *healthJSON
	eventually(s.t, within, fmt.Sprintf("link %d %s %d", id, state, status), func() bool {
		h = s.linkHealth(tn, id)
		return h != nil && h.State == state && (status == 0 || (h.Status != nil && *h.Status == status))
	})
	return h
}

// healthIDs lists the IDs of the workspace's links with ?health=state.
func (s *server) healthIDs(tn tenant, state string, more ...string) []int64 {
	s.t.Helper()
	r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links?health=%s%s", tn.WorkspaceID, state, strings.Join(more, "")), tn.Key, nil)
	page := answer[struct{ Links []healthLink }](s.t, r, http.StatusOK, "list links by health")
	var ids []int64
	for _, l := range page.Links {
		if l.Health == nil || l.Health.State != state {
			s.t.Errorf("?health=%s listed link %d with health %+v", state, l.ID, l.Health)
		}
		ids = append(ids, l.ID)
	}
	slices.Sort(ids)
	return ids
}

// healthEnv are the settings of the background checks in these tests: a check a second, the
// test's destination on loopback.
func healthEnv(extra ...string) []string {
	return append([]string{"HEALTH_CHECK", "true", "HEALTH_ALLOW_LOOPBACK", "true", "HEALTH_CHECK_INTERVAL", "1s",
		"HEALTH_RETRY_AFTER", "1s", "HEALTH_POLL_INTERVAL", "100ms", "HEALTH_TIMEOUT", "500ms",
		"HEALTH_HOST_CHECKS_PER_MINUTE", "10000"}, extra...)
}

// TestLinkHealthBackgroundChecks: the background checks make a link ok, broken after two
// failing checks in a row (404), ok again after one success; 410, 5xx, a name that does not
// resolve and a destination that does not answer in time break links too; HEAD answered 405
// leaves the verdict to GET; ?health= lists each state.
func TestLinkHealthBackgroundChecks(t *testing.T) {
	s := newDeployment(t).start(t, healthEnv()...)
	tn := s.signupOn("health@example.com", "enterprise")
	dst := newDestination(t)
	dst.mu.Lock()
	dst.status["/gone"], dst.status["/down"] = http.StatusGone, http.StatusServiceUnavailable
	dst.slow["/slow"] = true
	dst.head["/nohead"] = http.StatusMethodNotAllowed
	dst.mu.Unlock()

	flip := s.createLink(tn, map[string]any{"url": dst.url("/flip")})
	gone := s.createLink(tn, map[string]any{"url": dst.url("/gone")})
	down := s.createLink(tn, map[string]any{"url": dst.url("/down")})
	slow := s.createLink(tn, map[string]any{"url": dst.url("/slow")})
	nohead := s.createLink(tn, map[string]any{"url": dst.url("/nohead")})
	dns := s.createLink(tn, map[string]any{"url": "https://nowhere.invalid/page"})
	// A new link has no health until its first check.
	if h := s.linkHealth(tn, flip.ID); h != nil && h.State == "broken" {
		t.Fatalf("new link: %+v", h)
	}

	h := s.waitHealth(tn, flip.ID, "ok", 200, 15*time.Second)
	if h.Error != "" || h.CheckedAt.IsZero() {
		t.Errorf("ok link: %+v", h)
	}
	s.waitHealth(tn, nohead.ID, "ok", 200, 15*time.Second)
	if dst.count("HEAD", "/nohead") == 0 || dst.count("GET", "/nohead") == 0 {
		t.Errorf("HEAD 405: %d HEAD, %d GET, want both", dst.count("HEAD", "/nohead"), dst.count("GET", "/nohead"))
	}
	if dst.count("GET", "/flip") != 0 {
		t.Errorf("HEAD answered 200 and GET was asked too (%d)", dst.count("GET", "/flip"))
	}

	dst.set("/flip", http.StatusNotFound)
	h = s.waitHealth(tn, flip.ID, "broken", 404, 15*time.Second)
	if h.Error != "status" {
		t.Errorf("404: %+v", h)
	}
	if n := dst.count("GET", "/flip"); n < 2 {
		t.Errorf("broken after %d GETs answered 404, want two failing checks", n)
	}
	if h := s.waitHealth(tn, gone.ID, "broken", 410, 15*time.Second); h.Error != "status" {
		t.Errorf("410: %+v", h)
	}
	s.waitHealth(tn, down.ID, "broken", 503, 15*time.Second)
	if h := s.waitHealth(tn, dns.ID, "broken", 0, 15*time.Second); h.Error != "dns" || h.Status != nil {
		t.Errorf(".invalid: %+v", h)
	}
	if h := s.waitHealth(tn, slow.ID, "broken", 0, 15*time.Second); h.Error != "timeout" {
		t.Errorf("slow: %+v", h)
	}

	broken := []int64{flip.ID, gone.ID, down.ID, slow.ID, dns.ID}
	slices.Sort(broken)
	if got := s.healthIDs(tn, "broken"); !slices.Equal(got, broken) {
		t.Errorf("?health=broken: %v, want %v", got, broken)
	}
	// The filter with the other orders and filters of the listing.
	for _, more := range []string{"&sort=visits", "&sort=-visits", "&sort=created", "&q=127.0.0.1&sort=-visits", "&limit=2"} {
		want := broken
		if more == "&limit=2" {
			want = broken[len(broken)-2:]
		}
		if more == "&q=127.0.0.1&sort=-visits" {
			want = []int64{flip.ID, gone.ID, down.ID, slow.ID}
			slices.Sort(want)
		}
		if got := s.healthIDs(tn, "broken", more); !slices.Equal(got, want) {
			t.Errorf("?health=broken%s: %v, want %v", more, got, want)
		}
	}
	// Page by page, in both kinds of order.
	for _, sort := range []string{"-created", "created", "-visits", "visits"} {
		var all []int64
		cursor := ""
		for range 10 {
			r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links?health=broken&limit=2&sort=%s&cursor=%s", tn.WorkspaceID, sort, url.QueryEscape(cursor)), tn.Key, nil)
			page := answer[struct {
				Links      []healthLink
				NextCursor string `json:"next_cursor"`
			}](t, r, http.StatusOK, "a page of broken links")
			for _, l := range page.Links {
				all = append(all, l.ID)
			}
			if cursor = page.NextCursor; cursor == "" {
				break
			}
		}
		slices.Sort(all)
		if !slices.Equal(all, broken) {
			t.Errorf("?health=broken&sort=%s page by page: %v, want %v", sort, all, broken)
		}
	}
	r := s.do("PATCH", fmt.Sprintf("/api/v1/workspaces/%d/links/%d", tn.WorkspaceID, down.ID), tn.Key, map[string]any{"tags": []string{"shop"}})
	answer[healthLink](t, r, http.StatusOK, "tag a link")
	if got := s.healthIDs(tn, "broken", "&tag=shop"); !slices.Equal(got, []int64{down.ID}) {
		t.Errorf("?health=broken&tag=shop: %v, want %v", got, []int64{down.ID})
	}
	if got := s.healthIDs(tn, "ok"); !slices.Equal(got, []int64{nohead.ID}) {
		t.Errorf("?health=ok: %v, want %v", got, []int64{nohead.ID})
	}
	r = s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links?health=sick", tn.WorkspaceID), tn.Key, nil)
	if r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), `"value_invalid"`) {
		t.Errorf("?health=sick: %d %s", r.Status, r.Body)
	}

	// One success mends.
	dst.set("/flip", http.StatusOK)
	if h := s.waitHealth(tn, flip.ID, "ok", 200, 15*time.Second); h.Error != "" {
		t.Errorf("mended: %+v", h)
	}
	// A changed destination has no health until it is checked.
	r = s.do("PATCH", fmt.Sprintf("/api/v1/workspaces/%d/links/%d", tn.WorkspaceID, gone.ID), tn.Key,
		map[string]any{"url": dst.url("/new-place")})
	if l := answer[healthLink](t, r, http.StatusOK, "edit destination"); l.Health != nil && l.Health.State == "broken" {
		t.Errorf("a new destination keeps the old one's health: %+v", l.Health)
	}
	s.waitHealth(tn, gone.ID, "ok", 200, 15*time.Second)
}

// TestLinkHealthCheckNow: POST …/links/{id}/check checks at once and answers the link; two
// failing checks in a row make it broken, one success ok; other workspaces' links are not
// found; a workspace's checks an hour are counted.
func TestLinkHealthCheckNow(t *testing.T) {
	s := newDeployment(t).start(t, "HEALTH_ALLOW_LOOPBACK", "true", "HEALTH_CHECKS_NOW_PER_HOUR", "8")
	tn := s.signup("checknow@example.com")
	other := s.signup("checknow-other@example.com")
	dst := newDestination(t)
	l := s.createLink(tn, map[string]any{"url": dst.url("/page")})
	check := func(who tenant, id int64) (int, healthLink, string) {
		r := s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/links/%d/check", who.WorkspaceID, id), who.Key, nil)
		var out healthLink
		if r.Status == http.StatusOK {
			r.json(t, &out)
		}
		return r.Status, out, string(r.Body)
	}
	status, got, body := check(tn, l.ID)
	if status != http.StatusOK || got.Health == nil || got.Health.State != "ok" || *got.Health.Status != 200 || got.ID != l.ID {
		t.Fatalf("check: %d %s", status, body)
	}
	dst.set("/page", http.StatusNotFound)
	if _, got, body = check(tn, l.ID); got.Health == nil || got.Health.State != "ok" || got.Health.Error != "status" {
		t.Errorf("one failure: %s, want still ok with the failure shown", body)
	}
	if _, got, body = check(tn, l.ID); got.Health == nil || got.Health.State != "broken" || *got.Health.Status != 404 {
		t.Errorf("two failures: %s, want broken", body)
	}
	dst.set("/page", http.StatusOK)
	if _, got, body = check(tn, l.ID); got.Health == nil || got.Health.State != "ok" {
		t.Errorf("mended: %s", body)
	}
	// A certificate no one vouches for: broken, tls.
	tlsDst := httptest.NewTLSServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	t.Cleanup(tlsDst.Close)
	tl := s.createLink(tn, map[string]any{"url": tlsDst.URL + "/secure"})
	check(tn, tl.ID)
	if _, got, body = check(tn, tl.ID); got.Health == nil || got.Health.State != "broken" || got.Health.Error != "tls" || got.Health.Status != nil {
		t.Errorf("self-signed destination: %s, want broken, tls", body)
	}
	if status, _, body = check(other, l.ID); status != http.StatusNotFound {
		t.Errorf("another workspace's link: %d %s", status, body)
	}
	if status, _, _ = check(tn, 999999999); status != http.StatusNotFound {
		t.Errorf("missing link: %d", status)
	}
	// Six checks so far; two more pass, the ninth is refused.
	for i := range 3 {
		status, _, body = check(tn, l.ID)
		if want := map[bool]int{true: http.StatusTooManyRequests, false: http.StatusOK}[i == 2]; status != want {
			t.Errorf("check %d: %d %s, want %d", 7+i, status, body, want)
		}
	}
	// A key that only reads cannot ask for a check.
	r := s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/api-keys", tn.WorkspaceID), tn.Token,
		map[string]any{"name": "reader", "scopes": []string{"links:read"}})
	reader := answer[struct{ Key string }](t, r, http.StatusCreated, "create a read key").Key
	r = s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/links/%d/check", tn.WorkspaceID, l.ID), reader, nil)
	if r.Status != http.StatusForbidden {
		t.Errorf("read-only key: %d %s", r.Status, r.Body)
	}
}

// TestLinkHealthAddressGuard: the checker never connects to a private, loopback, link-local
// or metadata address, nor follows a redirect to one: such a link fails with error "refused"
// (and, twice in a row, is broken: visitors elsewhere cannot reach it either).
func TestLinkHealthAddressGuard(t *testing.T) {
	d := newDeployment(t)
	s := d.start(t) // no loopback allowance
	tn := s.signup("guard@example.com")
	dst := newDestination(t)
	l := s.createLink(tn, map[string]any{"url": dst.url("/inside")})
	meta := s.createLink(tn, map[string]any{"url": "http://169.254.169.254/latest/meta-data/"})
	for _, id := range []int64{l.ID, l.ID, meta.ID, meta.ID} {
		r := s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/links/%d/check", tn.WorkspaceID, id), tn.Key, nil)
		if r.Status != http.StatusOK {
			t.Fatalf("check: %d %s", r.Status, r.Body)
		}
	}
	for _, id := range []int64{l.ID, meta.ID} {
		if h := s.linkHealth(tn, id); h == nil || h.State != "broken" || h.Error != "refused" || h.Status != nil {
			t.Errorf("link %d: %+v, want broken, refused", id, h)
		}
	}
	if n := dst.count("HEAD", "/inside") + dst.count("GET", "/inside"); n != 0 {
		t.Errorf("the checker reached a loopback address %d times", n)
	}
	s.stop()

	// With loopback allowed (tests), a redirect to a private or metadata address is refused
	// at its hop.
	s = d.start(t, "HEALTH_ALLOW_LOOPBACK", "true")
	dst.mu.Lock()
	dst.redirect["/to-private"] = "http://10.0.0.1/admin"
	dst.redirect["/to-metadata"] = "http://169.254.169.254/latest/meta-data/"
	dst.mu.Unlock()
	for _, p := range []string{"/to-private", "/to-metadata"} {
		l := s.createLink(tn, map[string]any{"url": dst.url(p)})
		r := s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/links/%d/check", tn.WorkspaceID, l.ID), tn.Key, nil)
		if h := answer[healthLink](t, r, http.StatusOK, "check").Health; h != nil || dst.count("HEAD", p) != 1 {
			// One failure: no health shown yet, the redirect asked once.
			t.Errorf("%s: %+v, %d requests", p, h, dst.count("HEAD", p))
		}
		r = s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/links/%d/check", tn.WorkspaceID, l.ID), tn.Key, nil)
		if h := answer[healthLink](t, r, http.StatusOK, "check").Health; h == nil || h.State != "broken" || h.Error != "refused" {
			t.Errorf("%s: %+v, want broken, refused", p, h)
		}
	}
}

// TestLinkHealthHostBudget: many links on one host are not all checked at once: the host gets
// HEALTH_HOST_CHECKS_PER_MINUTE checks a minute, the others wait.
func TestLinkHealthHostBudget(t *testing.T) {
	s := newDeployment(t).start(t, healthEnv("HEALTH_HOST_CHECKS_PER_MINUTE", "3", "HEALTH_CHECK_INTERVAL", "1h")...)
	tn := s.signup("budget@example.com")
	dst := newDestination(t)
	var paths []string
	for i := range 12 {
		p := fmt.Sprintf("/many/%d", i)
		paths = append(paths, p)
		s.createLink(tn, map[string]any{"url": dst.url(p)})
	}
	eventually(t, 10*time.Second, "the first checks", func() bool { return dst.pathsHit(paths) >= 3 })
	// The other 9 were claimed and put off for the spent budget (for a third of a minute at
	// least), and a round finished after that: the runner had its chance to check more.
	run := s.app.HealthRunner()
	eventually(t, 20*time.Second, "the other links put off", func() bool { return run.Progress().PutOff >= 9 })
	afterRounds(t, "health rounds", func() int64 { return run.Progress().Rounds })
	if n := dst.pathsHit(paths); n != 3 {
		t.Errorf("%d of 12 links on one host checked within seconds, want the budget's 3", n)
	}
	if ok := s.healthIDs(tn, "ok"); len(ok) != 3 {
		t.Errorf("%d links ok, want 3", len(ok))
	}
}

// TestLinkHealthTwoNodes: two nodes check together and never check a link twice in a round.
func TestLinkHealthTwoNodes(t *testing.T) {
	d := newSerialDeployment(t) // alone: what it counts are requests, which a starved node repeats
	// A check that ran out of time would be a second request (GET after HEAD, or the retry):
	// this test is about the two nodes, so the destination has all the time a loaded machine
	// needs.
	env := healthEnv("HEALTH_CHECK_INTERVAL", "1h", "HEALTH_CONCURRENCY", "3", "HEALTH_TIMEOUT", "5s")
	s1, s2 := d.start(t, env...), d.start(t, env...)
	tn := s1.signup("twonodes@example.com")
	dst := newDestination(t)
	var paths []string
	for i := range 30 {
		p := fmt.Sprintf("/node/%d", i)
		paths = append(paths, p)
		s := s1
		if i%2 == 1 {
			s = s2
		}
		s.createLink(tn, map[string]any{"url": dst.url(p)})
	}
	eventually(t, 20*time.Second, "every link checked", func() bool { return len(s2.healthIDs(tn, "ok")) == 30 })
	// A round of each node that began after every link was ok has finished: a second check
	// would have been made by now.
	afterRounds(t, "health rounds of the first node", func() int64 { return s1.app.HealthRunner().Progress().Rounds })
	afterRounds(t, "health rounds of the second node", func() int64 { return s2.app.HealthRunner().Progress().Rounds })
	for _, p := range paths {
		if n := dst.count("HEAD", p) + dst.count("GET", p); n != 1 {
			t.Errorf("%s asked %d times, want once", p, n)
		}
	}
}

// TestLinkHealthDigest: the owner gets one mail listing the newly broken links; a link broken
// later the same day waits for the next digest, and a restart does not send the digest again.
func TestLinkHealthDigest(t *testing.T) {
	d := newDeployment(t)
	s := d.start(t, healthEnv()...)
	tn := s.signup("digest@example.com")
	dst := newDestination(t)
	dst.set("/a", http.StatusNotFound)
	dst.set("/b", http.StatusInternalServerError)
	a := s.createLink(tn, map[string]any{"url": dst.url("/a")})
	s.createLink(tn, map[string]any{"url": dst.url("/ok")})
	// An owner who reads Chinese gets the digest in Chinese.
	zh := s.signup("digest-zh@example.com")
	if r := s.do("PATCH", "/api/v1/me", zh.Token, map[string]any{"language": "zh"}); r.Status != http.StatusOK {
		t.Fatalf("language zh: %d %s", r.Status, r.Body)
	}
	dst.set("/zh", http.StatusNotFound)
	s.createLink(zh, map[string]any{"url": dst.url("/zh")})
	msg := s.mailbox.WaitSubject(t, "digest@example.com", "1 link is broken")
	if !strings.Contains(msg.Body, dst.url("/a")) || !strings.Contains(msg.Body, "answers 404") ||
		!strings.Contains(msg.Body, "/"+codeOf(t, s, tn, a.ID)) || strings.Contains(msg.Body, "/ok") {
		t.Errorf("digest:\n%s", msg.Body)
	}
	if msg := s.mailbox.WaitSubject(t, "digest-zh@example.com", "1 个链接失效"); !strings.Contains(msg.Body, "返回 404") ||
		!strings.Contains(msg.Body, dst.url("/zh")) || strings.Contains(msg.Body, dst.url("/a")) {
		t.Errorf("the Chinese digest:\n%s", msg.Body)
	}
	b := s.createLink(tn, map[string]any{"url": dst.url("/b")})
	s.waitHealth(tn, b.ID, "broken", 500, 15*time.Second)
	// A digest poll that began after the link broke has finished (no digest: the day is
	// spent), and one on the restarted node (which looks for digests due at its first round).
	afterRounds(t, "digest polls", func() int64 { return s.app.HealthRunner().Progress().DigestPolls })
	s.stop()
	s = d.start(t, healthEnv()...)
	afterRounds(t, "digest polls after the restart", func() int64 { return s.app.HealthRunner().Progress().DigestPolls })
	// The verification mail and one digest.
	if n := s.mailbox.Count("digest@example.com"); n != 2 {
		t.Errorf("%d mails to the owner, want the verification and one digest", n)
	}
}

// afterRounds waits until count, the rounds some background loop has finished, has grown by
// two from now: a whole round began after the call (the other may have been under way). Run
// it after an event to know the loop had its chance to act on it.
func afterRounds(t testing.TB, what string, count func() int64) {
	t.Helper()
	from := count()
	eventually(t, 30*time.Second, "two more "+what, func() bool { return count() >= from+2 })
}

// codeOf is the code of link id.
func codeOf(t *testing.T, s *server, tn tenant, id int64) string {
	t.Helper()
	r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links/%d", tn.WorkspaceID, id), tn.Key, nil)
	l := answer[linkJSON](t, r, http.StatusOK, "get link")
	u, err := url.Parse(l.ShortURL)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimPrefix(u.Path, "/")
}

// TestLinkHealthDigestOnlyNew: with digests a few seconds apart, a digest lists only the links
// broken since the one before, and none is sent while nothing newly broke.
func TestLinkHealthDigestOnlyNew(t *testing.T) {
	s := newDeployment(t).start(t, healthEnv("HEALTH_DIGEST_INTERVAL", "2s")...)
	tn := s.signup("digests@example.com")
	dst := newDestination(t)
	dst.set("/first", http.StatusGone)
	dst.set("/second", http.StatusBadGateway)
	s.createLink(tn, map[string]any{"url": dst.url("/first")})
	first := s.mailbox.WaitSubject(t, "digests@example.com", "1 link is broken")
	firstAt := time.Now() // after the digest was recorded as sent
	if !strings.Contains(first.Body, dst.url("/first")) || !strings.Contains(first.Body, "answers 410") {
		t.Errorf("first digest:\n%s", first.Body)
	}
	// Two intervals with nothing newly broken: still the verification and the one digest,
	// after a digest poll that began two intervals after the first digest has finished.
	polls := func() int64 { return s.app.HealthRunner().Progress().DigestPolls }
	from := int64(-1)
	eventually(t, 30*time.Second, "a digest poll two intervals on", func() bool {
		if from < 0 && time.Since(firstAt) >= 4*time.Second {
			from = polls()
		}
		return from >= 0 && polls() >= from+2
	})
	if n := s.mailbox.Count("digests@example.com"); n != 2 {
		t.Fatalf("%d mails, want no digest while nothing newly broke", n)
	}
	s.createLink(tn, map[string]any{"url": dst.url("/second")})
	second := s.mailbox.WaitSubject(t, "digests@example.com", "1 link is broken")
	if !strings.Contains(second.Body, dst.url("/second")) || strings.Contains(second.Body, dst.url("/first")) {
		t.Errorf("second digest, want only the newly broken link:\n%s", second.Body)
	}
}
