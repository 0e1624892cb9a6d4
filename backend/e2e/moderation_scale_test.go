package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/moderation"
	"github.com/shortlink/shortlink/backend/testenv"
	"github.com/shortlink/shortlink/worker/review"
)

// The web of the scale test: a shop whose links differ only in tracking parameters, a blog's
// posts, a bank look-alike and a WeChat Pay phishing page with a per-link id.
const (
	scaleBankPage = `<!doctype html><html><head><title>ICBC 中国工商银行 网上银行登录</title></head>
<body><h1>中国工商银行</h1><p>您的网银已过期，请登录完成升级。</p>
<form action="/login" method="post"><input name="card" placeholder="卡号"><input name="pwd" type="password" placeholder="登录密码">
<button>登录</button></form></body></html>`
	scaleWeChatPayPage = `<!doctype html><html><head><title>微信支付 - 安全验证</title></head>
<body><h1>微信支付</h1><p>您的账户存在风险，请验证身份后恢复支付功能。</p>
<form action="/verify" method="post"><input name="phone" placeholder="手机号"><input name="zfmm" type="password" placeholder="支付密码">
<button>验证</button></form></body></html>`
)

func scaleBlogPost(path string) string {
	return `<!doctype html><html><head><title>Quiet Blog: ` + path + `</title></head><body><h1>Notes from the garden</h1>
<p>This week the tomatoes came in and the beans climbed the fence. Post ` + path + `.</p></body></html>`
}

// judgeByPassword is the scale test's model: a page that asks any visitor for a password is
// phishing, anything else benign. It judges from what it is sent, not from the URL.
func judgeByPassword(c testenv.ChatCall) (int, string) {
	for _, tx := range c.Texts {
		if strings.HasPrefix(tx, "Visitor: ") && strings.Contains(tx, "asks for a password") {
			return http.StatusOK, verdictJSON(0.95, "phishing", "asks for a password on a copy of a bank's or payment page")
		}
	}
	return http.StatusOK, verdictJSON(0.05, "benign", "an ordinary page")
}

// TestModerationAtScale: one batch of 1,000 links to four destinations is decided by the real
// worker (Chromium, the local model server) with at most 100 model calls, the phishing ones
// banned (how fast is BenchmarkModerationAtScale's to measure, docs/benchmarks.md):
// links to one page share its review, a domain found phishing has the links of the batch still
// queued banned on its record, a domain that keeps passing has a sample of its new links
// reviewed. A shared verdict never crosses a different path or a non-tracking parameter, and
// never names another workspace's link; a phishing domain's link made afterwards is held (the
// warning page) from its creation until its own review bans it; a page that changes after its
// domain earned trust is caught at its link's first visits.
func TestModerationAtScale(t *testing.T) {
	sites, browser := moderationRig(t)
	sites.html(t, "corner-shop.test", shopPage)
	var blogPhished atomic.Bool
	sites.handle(t, "quiet-blog.test", func(w http.ResponseWriter, r *http.Request) {
		if blogPhished.Load() && r.URL.Path == "/posts/3" {
			writeHTML(w, scaleBankPage)
			return
		}
		writeHTML(w, scaleBlogPost(r.URL.Path))
	})
	sites.html(t, "icbc-online-verify.test", scaleBankPage)
	sites.html(t, "wxpay-safe.test", scaleWeChatPayPage)
	model := testenv.NewChatModel(t, judgeByPassword)

	d := newDeployment(t)
	a := d.start(t)
	owner := a.signup("owner@example.com")
	other := a.signup("other@example.com")
	a.setPlan(owner, "enterprise")
	ms := moderationStores(t, d)

	kinds := []struct {
		host    string
		url     func(i int) string
		phished bool
	}{
		{"corner-shop.test", func(i int) string {
			return fmt.Sprintf("http://corner-shop.test/?utm_source=sms&utm_campaign=c%d&fbclid=f%d", i, i)
		}, false},
		{"quiet-blog.test", func(i int) string { return fmt.Sprintf("http://quiet-blog.test/posts/%d?ref=feed%d", i%40, i) }, false},
		{"icbc-online-verify.test", func(i int) string { return fmt.Sprintf("http://icbc-online-verify.test/?gclid=g%d", i) }, true},
		{"wxpay-safe.test", func(i int) string { return fmt.Sprintf("http://wxpay-safe.test/pay?id=%08d", i*7919) }, true},
	}
	const n = 1000
	batch := make([]map[string]any, n)
	for i := range batch {
		batch[i] = map[string]any{"url": kinds[i%len(kinds)].url(i / len(kinds))}
	}
	start := time.Now()
	r := a.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/links/batch", owner.WorkspaceID), owner.Token, map[string]any{"links": batch})
	type result struct {
		Link *struct {
			ID   int64  `json:"id"`
			Code string `json:"code"`
		} `json:"link"`
	}
	res := answer[struct{ Results []result }](t, r, http.StatusOK, "the batch")
	if len(res.Results) != n {
		t.Fatalf("the batch made %d links", len(res.Results))
	}
	ids := make([]int64, n)
	for i, x := range res.Results {
		if x.Link == nil {
			t.Fatalf("link %d of the batch was not made", i)
		}
		ids[i] = x.Link.ID
	}
	t.Logf("the batch of %d links made in %v", n, time.Since(start).Round(time.Millisecond))

	ms.runWorker(t, review.Options{Browser: browser, Scorer: modelScorer(t, model, 20*time.Second), Concurrency: 2,
		VerdictTTL: time.Hour})
	// How fast is BenchmarkModerationAtScale's to measure: the wait only stops a hang.
	var decided, banned int
	var firstBan time.Duration
	eventually(t, scaleHang, "every link of the batch decided", func() bool {
		time.Sleep(200 * time.Millisecond)
		_ = ms.db.Pool.QueryRow(t.Context(), `SELECT count(*), count(*) FILTER (WHERE state = 'banned') FROM link_moderation
			WHERE link_id = ANY($1)`, ids).Scan(&decided, &banned)
		if banned > 0 && firstBan == 0 {
			firstBan = time.Since(start)
		}
		return decided == n
	})
	elapsed := time.Since(start)
	calls := len(model.Calls())
	var browsed int
	if err := ms.db.Pool.QueryRow(t.Context(), `SELECT count(*) FROM link_reviews WHERE shared_how = ''`).Scan(&browsed); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d links decided in %v (%.0f per minute), the first banned after %v: %d opened the browser, %d model calls",
		n, elapsed.Round(time.Millisecond), float64(n)/elapsed.Minutes(), firstBan.Round(time.Millisecond), browsed, calls)
	if firstBan == 0 {
		t.Errorf("no link of the batch was banned")
	}
	if calls > 100 {
		t.Errorf("%d model calls for %d links, want at most 100", calls, n)
	}
	reportScale(t, scaleTimes{FirstBan: firstBan, AllDecided: elapsed, Links: n, ModelCalls: calls, Browsed: browsed})
	for i, id := range ids {
		k := kinds[i%len(kinds)]
		var state, status string
		if err := ms.db.Pool.QueryRow(t.Context(), `SELECT lm.state, l.status FROM link_moderation lm JOIN links l ON l.id = lm.link_id
			WHERE lm.link_id = $1`, id).Scan(&state, &status); err != nil {
			t.Fatal(err)
		}
		if k.phished && (state != "banned" || status != "banned") || !k.phished && state != "passed" {
			t.Errorf("link %d to %s: %s, %s", id, batch[i]["url"], state, status)
		}
	}

	// What the owner is told: a link that took a review of its workspace names it.
	shop := a.getLink(owner, ids[len(kinds)*10])
	var shared struct {
		Moderation struct {
			ReusedFrom *struct {
				ReviewID   *int64     `json:"review_id"`
				LinkID     *int64     `json:"link_id"`
				ReviewedAt *time.Time `json:"reviewed_at"`
			} `json:"reused_from"`
		} `json:"moderation"`
	}
	readShared := func(tn tenant, id int64) {
		t.Helper()
		shared.Moderation.ReusedFrom = nil
		r := a.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links/%d", tn.WorkspaceID, id), tn.Token, nil)
		shared = answer[struct {
			Moderation struct {
				ReusedFrom *struct {
					ReviewID   *int64     `json:"review_id"`
					LinkID     *int64     `json:"link_id"`
					ReviewedAt *time.Time `json:"reviewed_at"`
				} `json:"reused_from"`
			} `json:"moderation"`
		}](t, r, http.StatusOK, "a link")
	}
	readShared(owner, shop.ID)
	if rf := shared.Moderation.ReusedFrom; rf == nil || rf.ReviewID == nil || rf.LinkID == nil || rf.ReviewedAt == nil {
		t.Errorf("a shop link's reused_from: %+v", rf)
	}

	// A shared verdict never crosses a different path or a non-tracking parameter; another
	// workspace is told only that a shared review was reused, and when.
	before := len(callsAbout(model, "corner-shop.test"))
	same := a.createLink(other, map[string]any{"url": "http://corner-shop.test/?utm_medium=email&mc_cid=1"})
	param := a.createLink(other, map[string]any{"url": "http://corner-shop.test/?session=1"})
	path := a.createLink(other, map[string]any{"url": "http://corner-shop.test/basket"})
	for _, l := range []linkJSON{same, param, path} {
		a.waitReviewed(other, l.ID, time.Minute)
	}
	readShared(other, same.ID)
	if rf := shared.Moderation.ReusedFrom; rf == nil || rf.ReviewID != nil || rf.LinkID != nil || rf.ReviewedAt == nil {
		t.Errorf("another workspace's link to the same page: reused_from %+v, want only when", rf)
	}
	for _, l := range []linkJSON{param, path} {
		readShared(other, l.ID)
		var how string
		if err := ms.db.Pool.QueryRow(t.Context(), `SELECT shared_how FROM link_reviews WHERE link_id = $1 ORDER BY id DESC LIMIT 1`,
			l.ID).Scan(&how); err != nil {
			t.Fatal(err)
		}
		if how == "destination" || shared.Moderation.ReusedFrom != nil && how != "domain" {
			t.Errorf("%s took a shared verdict (%q, %+v)", l.URL, how, shared.Moderation.ReusedFrom)
		}
	}
	if got := len(callsAbout(model, "corner-shop.test")) - before; got != 2 {
		t.Errorf("%d model calls for the other path and the other parameter, want 2", got)
	}
	var crossed int
	if err := ms.db.Pool.QueryRow(t.Context(), `SELECT count(*) FROM link_reviews r JOIN link_reviews s ON s.id = r.shared_from
		WHERE r.shared_how = 'destination' AND r.destination <> s.destination`).Scan(&crossed); err != nil || crossed != 0 {
		t.Errorf("%d reviews shared across destinations (%v)", crossed, err)
	}

	// The phishing domain's new link, in another workspace, is held: the warning page from its
	// creation, then its own review in the browser, served first, bans it.
	made := time.Now()
	phish := a.createLink(other, map[string]any{"url": "http://wxpay-safe.test/pay?id=new-victim"})
	if phish.Status != "held" {
		t.Errorf("the phishing domain's new link as made: status %q, want held", phish.Status)
	}
	if r := a.visit("GET", "/"+phish.Code); r.Status != http.StatusForbidden || !strings.Contains(string(r.Body), "held for a safety check") {
		t.Errorf("the phishing domain's new link, just made: %d %.200s", r.Status, r.Body)
	}
	if l := a.waitReviewed(other, phish.ID, time.Minute); l.Moderation.State != "banned" || l.Status != "banned" {
		t.Errorf("the held link's review: %s, %+v", l.Status, l.Moderation)
	}
	t.Logf("the phishing domain's held link was banned by its own review %v after it was made", time.Since(made).Round(time.Millisecond))
	var heldTrigger, heldHow string
	if err := ms.db.Pool.QueryRow(t.Context(), `SELECT trigger, shared_how FROM link_reviews WHERE link_id = $1 ORDER BY id DESC LIMIT 1`,
		phish.ID).Scan(&heldTrigger, &heldHow); err != nil || heldTrigger != "held" || heldHow != "" {
		t.Errorf("the held link's review: trigger %q, shared %q (%v)", heldTrigger, heldHow, err)
	}

	// The blog's post 3 turns into phishing after its links passed: the first visit of one
	// of them has it reviewed again, in the browser, and banned.
	blogPhished.Store(true)
	post := ids[1+len(kinds)*3] // quiet-blog.test/posts/3
	var code string
	for i, id := range ids {
		if id == post {
			code = res.Results[i].Link.Code
		}
	}
	if st, _ := a.sendHit(code, hit{from: "10.20.30.40", ua: uaDesktop}); st != http.StatusFound {
		t.Fatalf("the blog post's first visit: %d", st)
	}
	eventually(t, time.Minute, "the changed page banned at its first visit milestone", func() bool {
		var status string
		_ = ms.db.Pool.QueryRow(t.Context(), `SELECT status FROM links WHERE id = $1`, post).Scan(&status)
		return status == "banned"
	})
	var trigger, how string
	if err := ms.db.Pool.QueryRow(t.Context(), `SELECT trigger, shared_how FROM link_reviews WHERE link_id = $1 ORDER BY id DESC LIMIT 1`,
		post).Scan(&trigger, &how); err != nil || trigger != "visits" || how != "" {
		t.Errorf("the review that caught the change: trigger %q, shared %q (%v)", trigger, how, err)
	}
	_ = moderation.LeadVisits
}

// TestModerationDomainDecisions: a moderator bans a whole domain from the desk; the domain's
// new links are held from their creation (the warning page) and the worker bans them without
// the browser, in any workspace, while another domain's
// link is reviewed as usual; clearing the domain has its next link reviewed. Both decisions are
// in the moderators' audit log. People who are not moderators, and API keys, cannot decide on
// domains nor read the decisions.
func TestModerationDomainDecisions(t *testing.T) {
	sites, browser := moderationRig(t)
	sites.html(t, "shady-offers.test", shopPage)
	d := newDeployment(t)
	a := d.start(t)
	owner := a.signup("owner@example.com")
	_, mod := a.moderator("mod@example.com")
	ms := moderationStores(t, d)
	ms.runWorker(t, review.Options{Browser: browser, Scorer: heuristicScorer(t), VerdictTTL: time.Hour})

	// Not a moderator: refused, whatever the workspace.
	for _, tok := range []string{owner.Token, owner.Key} {
		for _, c := range []struct{ method, path string }{
			{"POST", "/api/v1/moderation/domains/shady-offers.test/ban"},
			{"POST", "/api/v1/moderation/domains/shady-offers.test/clear"},
			{"GET", "/api/v1/moderation/domains"},
		} {
			if r := a.do(c.method, c.path, tok, map[string]any{}); r.Status != http.StatusForbidden {
				t.Errorf("%s %s as the owner: %d %s", c.method, c.path, r.Status, r.Body)
			}
		}
	}

	r := a.do("POST", "/api/v1/moderation/domains/Shady-Offers.test/ban", mod, map[string]any{"note": "reported by a bank", "category": "spam"})
	type decision struct {
		Domain, State, Note string
		Actor               *struct{ Email string }
	}
	got := answer[decision](t, r, http.StatusOK, "the ban of the domain")
	if got.Domain != "shady-offers.test" || got.State != "banned" || got.Note != "reported by a bank" || got.Actor == nil ||
		got.Actor.Email != "mod@example.com" {
		t.Errorf("the ban: %+v", got)
	}
	list := answer[struct{ Items []decision }](t, a.do("GET", "/api/v1/moderation/domains", mod, nil), http.StatusOK, "the decisions")
	if len(list.Items) != 1 || list.Items[0].Domain != "shady-offers.test" {
		t.Errorf("the decisions: %+v", list.Items)
	}

	made := time.Now()
	banned := a.createLink(owner, map[string]any{"url": "http://www.shady-offers.test/deal?id=1"})
	if r := a.visit("HEAD", "/"+banned.Code); banned.Status != "held" || r.Status != http.StatusForbidden {
		t.Errorf("the banned domain's new link just made: status %q, answered %d; want held, 403", banned.Status, r.Status)
	}
	eventually(t, 15*time.Second, "the banned domain's new link banned", func() bool {
		return a.getLink(owner, banned.ID).Status == "banned"
	})
	// Banned as the moderator named the domain's ban.
	var bannedAs struct {
		Moderation struct {
			Category   string `json:"category"`
			ReasonCode string `json:"reason_code"`
			DecidedBy  string `json:"decided_by"`
		} `json:"moderation"`
	}
	a.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links/%d", owner.WorkspaceID, banned.ID), owner.Token, nil).json(t, &bannedAs)
	if m := bannedAs.Moderation; m.Category != "spam" || m.ReasonCode != "domain_banned" || m.DecidedBy != "domain" {
		t.Errorf("the link banned under the domain: %+v, want spam, domain_banned, domain", m)
	}
	t.Logf("the banned domain's new link was banned %v after it was made", time.Since(made).Round(time.Millisecond))
	if n := sites.requests("www.shady-offers.test") + sites.requests("shady-offers.test"); n != 0 {
		t.Errorf("the browser opened the banned domain %d times", n)
	}

	a.do("POST", "/api/v1/moderation/domains/shady-offers.test/clear", mod, map[string]any{})
	cleared := a.createLink(owner, map[string]any{"url": "http://shady-offers.test/"})
	if l := a.waitReviewed(owner, cleared.ID, time.Minute); l.Moderation.State != "passed" {
		t.Errorf("the cleared domain's link: %+v", l.Moderation)
	}
	if sites.requests("shady-offers.test") == 0 {
		t.Errorf("the cleared domain's link was not opened in the browser")
	}

	audit := answer[struct {
		Items []struct {
			Action, Domain string
			LinkID         int64 `json:"link_id"`
		}
	}](t, a.do("GET", "/api/v1/admin/audit", a.operatorToken(), nil), http.StatusOK, "the audit log")
	var actions []string
	for _, it := range audit.Items {
		if it.Domain != "" {
			actions = append(actions, it.Action+" "+it.Domain)
		}
	}
	if strings.Join(actions, ", ") != "clear_domain shady-offers.test, ban_domain shady-offers.test" {
		t.Errorf("the audit log's domain decisions: %v", actions)
	}
}
