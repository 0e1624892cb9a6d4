package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/testenv"
)

func TestBatchCreate(t *testing.T) {
	s := newDeployment(t).start(t)
	tn := s.signupOn("batch@example.com", "enterprise")
	path := fmt.Sprintf("/api/v1/workspaces/%d/links/batch", tn.WorkspaceID)
	r := s.do("POST", path, tn.Key, map[string]any{"links": []map[string]any{
		{"url": "https://example.com/1"},
		{"url": "javascript:alert(1)"},
		{"url": "https://example.com/2", "alias": "dup"},
		{"url": "https://example.com/3", "alias": "dup"},
		{"url": "https://example.com/4", "alias": "api"},
		{"url": "https://example.com/5", "title": "five"},
	}})
	if r.Status != http.StatusOK {
		t.Fatalf("batch: %d %s", r.Status, r.Body)
	}
	var out struct {
		Results []struct {
			Link  *linkJSON
			Error *struct{ Code, Message string }
		}
	}
	r.json(t, &out)
	want := []string{"", "invalid", "", "conflict", "invalid", ""}
	if len(out.Results) != len(want) {
		t.Fatalf("got %d results, want %d", len(out.Results), len(want))
	}
	for i, w := range want {
		res := out.Results[i]
		switch {
		case w == "" && (res.Link == nil || res.Error != nil):
			t.Errorf("row %d: want a link, got %+v", i, res)
		case w != "" && (res.Error == nil || res.Error.Code != w || res.Link != nil):
			t.Errorf("row %d: want error %s, got %+v", i, w, res)
		}
	}
	if out.Results[5].Link.Title != "five" || out.Results[0].Link.URL != "https://example.com/1" {
		t.Fatalf("rows out of order: %+v", out.Results)
	}
	// Every acknowledged row redirects.
	for _, i := range []int{0, 2, 5} {
		if r := s.visit("GET", "/"+out.Results[i].Link.Code); r.Status != http.StatusFound {
			t.Fatalf("row %d does not redirect: %d", i, r.Status)
		}
	}

	big := make([]map[string]any, 1001)
	for i := range big {
		big[i] = map[string]any{"url": "https://example.com/"}
	}
	if r := s.do("POST", path, tn.Key, map[string]any{"links": big}); r.Status != http.StatusBadRequest || r.errorCode(t) != "invalid" {
		t.Fatalf("1001 links: %d %s", r.Status, r.Body)
	}
	if r := s.do("POST", path, tn.Key, map[string]any{"links": big[:1000]}); r.Status != http.StatusOK {
		t.Fatalf("1000 links: %d", r.Status)
	}
}

func TestAliasRules(t *testing.T) {
	s := newDeployment(t).start(t)
	tn := s.signup("alias@example.com")
	create := func(body map[string]any) response {
		return s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/links", tn.WorkspaceID), tn.Key, body)
	}
	issued := s.createLink(tn, map[string]any{"url": "https://example.com/a"})
	if r := create(map[string]any{"url": "https://example.com/b", "alias": issued.Code}); r.Status != http.StatusConflict || r.errorCode(t) != "conflict" {
		t.Fatalf("alias equal to an issued code: %d %s", r.Status, r.Body)
	}
	s.createLink(tn, map[string]any{"url": "https://example.com/c", "alias": "Taken"})
	if r := create(map[string]any{"url": "https://example.com/d", "alias": "Taken"}); r.Status != http.StatusConflict {
		t.Fatalf("alias taken: %d %s", r.Status, r.Body)
	}
	// Aliases are case-sensitive, like codes.
	s.createLink(tn, map[string]any{"url": "https://example.com/e", "alias": "taken"})
	// A code-shaped alias is fine while its ID is unissued, and that ID is then never issued.
	shaped := s.createLink(tn, map[string]any{"url": "https://example.com/f", "alias": "Zz9Zz9"})
	if shaped.Code != "Zz9Zz9" {
		t.Fatalf("code-shaped alias: %+v", shaped)
	}
	if r := s.visit("GET", "/Zz9Zz9"); r.Status != http.StatusFound {
		t.Fatalf("code-shaped alias does not redirect: %d", r.Status)
	}
}

func TestDedupeListLookup(t *testing.T) {
	s := newDeployment(t).start(t)
	tn := s.signup("list@example.com")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", tn.WorkspaceID)
	first := s.createLink(tn, map[string]any{"url": "https://example.com/same", "title": "Quarterly report"})
	r := s.do("POST", ws+"/links", tn.Key, map[string]any{"url": "https://EXAMPLE.com/same", "dedupe": true})
	var again linkJSON
	r.json(t, &again)
	if r.Status != http.StatusOK || again.ID != first.ID {
		t.Fatalf("dedupe: %d, id %d want %d", r.Status, again.ID, first.ID)
	}
	if other := s.createLink(tn, map[string]any{"url": "https://example.com/same"}); other.ID == first.ID {
		t.Fatal("without dedupe a new link must be made")
	}
	for i := range 7 {
		s.createLink(tn, map[string]any{"url": fmt.Sprintf("https://example.net/page/%d", i)})
	}
	var seen []int64
	cursor := ""
	for page := 0; ; page++ {
		r := s.do("GET", ws+"/links?limit=4&cursor="+cursor, tn.Key, nil)
		var out struct {
			Links      []linkJSON
			NextCursor string `json:"next_cursor"`
		}
		r.json(t, &out)
		for _, l := range out.Links {
			seen = append(seen, l.ID)
		}
		if out.NextCursor == "" {
			break
		}
		cursor = out.NextCursor
		if page > 5 {
			t.Fatal("pagination does not end")
		}
	}
	if len(seen) != 9 {
		t.Fatalf("paged through %d links, want 9", len(seen))
	}
	for i := 1; i < len(seen); i++ {
		if seen[i] >= seen[i-1] {
			t.Fatalf("not newest first: %v", seen)
		}
	}
	var found struct{ Links []linkJSON }
	s.do("GET", ws+"/links?q=quarterly", tn.Key, nil).json(t, &found)
	if len(found.Links) != 1 || found.Links[0].ID != first.ID {
		t.Fatalf("search by title: %+v", found.Links)
	}
	s.do("GET", ws+"/links?q=example.net/page/3", tn.Key, nil).json(t, &found)
	if len(found.Links) != 1 {
		t.Fatalf("search by url: %+v", found.Links)
	}
	s.do("GET", ws+"/links?q="+first.Code, tn.Key, nil).json(t, &found)
	if len(found.Links) != 1 || found.Links[0].ID != first.ID {
		t.Fatalf("search by code: %+v", found.Links)
	}

	for _, q := range []string{"short_url=http://sho.rt/" + first.Code, "code=" + first.Code, "short_url=http://sho.rt/" + first.Code + "%2B"} {
		var l linkJSON
		r := s.do("GET", ws+"/links/lookup?"+q, tn.Key, nil)
		r.json(t, &l)
		if r.Status != http.StatusOK || l.ID != first.ID || l.URL != "https://example.com/same" {
			t.Fatalf("lookup %s: %d %s", q, r.Status, r.Body)
		}
	}
	if r := s.do("GET", ws+"/links/lookup?code=zzzzzz", tn.Key, nil); r.Status != http.StatusNotFound {
		t.Fatalf("lookup of unknown code: %d", r.Status)
	}

	// Dedupe hands out only working links, and never stands in for a requested alias.
	dead := s.createLink(tn, map[string]any{"url": "https://example.com/dead"})
	if r := s.do("PATCH", fmt.Sprintf("%s/links/%d", ws, dead.ID), tn.Key, map[string]any{"status": "disabled"}); r.Status != http.StatusOK {
		t.Fatalf("disable: %d %s", r.Status, r.Body)
	}
	r = s.do("POST", ws+"/links", tn.Key, map[string]any{"url": "https://example.com/dead", "dedupe": true})
	var fresh linkJSON
	r.json(t, &fresh)
	if r.Status != http.StatusCreated || fresh.ID == dead.ID || fresh.Status != "active" {
		t.Fatalf("dedupe against a disabled link: %d %s", r.Status, r.Body)
	}
	r = s.do("POST", ws+"/links", tn.Key, map[string]any{"url": "https://example.com/same", "alias": "same-again", "dedupe": true})
	var aliased linkJSON
	r.json(t, &aliased)
	if r.Status != http.StatusCreated || aliased.Code != "same-again" {
		t.Fatalf("dedupe with an alias: %d %s", r.Status, r.Body)
	}

	// The list filtered by status.
	var disabled struct{ Links []linkJSON }
	s.do("GET", ws+"/links?status=disabled", tn.Key, nil).json(t, &disabled)
	if len(disabled.Links) != 1 || disabled.Links[0].ID != dead.ID {
		t.Fatalf("status=disabled: %+v", disabled.Links)
	}
	var active struct{ Links []linkJSON }
	s.do("GET", ws+"/links?status=active&q=example.com/dead", tn.Key, nil).json(t, &active)
	if len(active.Links) != 1 || active.Links[0].ID != fresh.ID {
		t.Fatalf("status=active with a search: %+v", active.Links)
	}
	if r := s.do("GET", ws+"/links?status=gone", tn.Key, nil); r.Status != http.StatusBadRequest {
		t.Fatalf("status=gone: %d %s", r.Status, r.Body)
	}
}

// TestLinksByDomain: the list filtered by domain, the service's own or a verified custom one,
// by host name; any other host is refused.
func TestLinksByDomain(t *testing.T) {
	ns := startDNS(t)
	s := newDeployment(t).start(t, "DNS_RESOLVER", ns.Addr)
	tn := s.signupOn("bydomain@example.com", "enterprise")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", tn.WorkspaceID)
	d := s.addDomain(tn, "go.example.com")
	ns.set(d.Verification.Name, d.Verification.Value)
	if got := s.verifyDomain(tn, d.ID); !got.Verified {
		t.Fatalf("not verified: %+v", got)
	}
	pending := s.addDomain(tn, "later.example.com")
	own := s.createLink(tn, map[string]any{"url": "https://example.com/own"})
	custom := s.createLink(tn, map[string]any{"url": "https://example.com/custom", "domain": "go.example.com"})

	for _, c := range []struct {
		query string
		want  []int64
	}{
		{"", []int64{custom.ID, own.ID}},
		{"?domain=", []int64{custom.ID, own.ID}},
		{"?domain=" + shortHost, []int64{own.ID}},
		{"?domain=GO.example.com", []int64{custom.ID}},
		{"?domain=go.example.com&q=own", nil},
		{"?domain=go.example.com&status=active", []int64{custom.ID}},
	} {
		var page struct{ Links []linkJSON }
		r := s.do("GET", ws+"/links"+c.query, tn.Key, nil)
		r.json(t, &page)
		var ids []int64
		for _, l := range page.Links {
			ids = append(ids, l.ID)
		}
		if r.Status != http.StatusOK || fmt.Sprint(ids) != fmt.Sprint(c.want) {
			t.Errorf("links%s: %d %v, want %v", c.query, r.Status, ids, c.want)
		}
	}
	for _, h := range []string{"nope.example.net", pending.Hostname} {
		if r := s.do("GET", ws+"/links?domain="+h, tn.Key, nil); r.Status != http.StatusBadRequest || r.errorCode(t) != "invalid" {
			t.Errorf("domain=%s: %d %s", h, r.Status, r.Body)
		}
	}
}

// TestShutdownKeepsAcknowledgedCreates closes a server while creates are in flight: every
// create that was answered 201 must be in PostgreSQL afterwards.
func TestShutdownKeepsAcknowledgedCreates(t *testing.T) {
	d := newDeployment(t)
	s := d.start(t)
	tn := s.signup("drain@example.com")
	var mu sync.Mutex
	var acked []int64
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				req, _ := http.NewRequest("POST", fmt.Sprintf("%s/api/v1/workspaces/%d/links", s.base, tn.WorkspaceID),
					strings.NewReader(`{"url":"https://example.com/drain"}`))
				req.Header.Set("Authorization", "Bearer "+tn.Key)
				req.Header.Set("Content-Type", "application/json")
				res, err := noRedirect.Do(req)
				if err != nil {
					return // the server is gone
				}
				checkAccepted(t, req, []byte(`{"url":"https://example.com/drain"}`), res.StatusCode)
				var l linkJSON
				if res.StatusCode == http.StatusCreated {
					response{Body: readAll(res)}.json(t, &l)
					mu.Lock()
					acked = append(acked, l.ID)
					mu.Unlock()
				} else {
					_ = res.Body.Close()
				}
			}
		}()
	}
	// Creates under way when the server stops: some acknowledged already (a busy machine may
	// take a while for the first), more in flight.
	testenv.Eventually(t, 20*time.Second, "a first create acknowledged", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(acked) > 0
	})
	time.Sleep(300 * time.Millisecond)
	s.stop()
	close(stop)
	wg.Wait()
	if len(acked) == 0 {
		t.Fatal("no create was acknowledged before shutdown")
	}
	ctx := context.Background()
	conn := d.conn(t)
	var n int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM links WHERE id = ANY($1)`, acked).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != len(acked) {
		t.Fatalf("%d creates acknowledged, only %d in the database", len(acked), n)
	}
}

// TestWorksWithoutRedis runs a node whose Redis is unreachable: sign-up, creates and
// redirects keep working from PostgreSQL and the in-process cache.
func TestWorksWithoutRedis(t *testing.T) {
	s := newDeployment(t).start(t, "REDIS_URL", "redis://127.0.0.1:1/0")
	tn := s.signup("noredis@example.com")
	l := s.createLink(tn, map[string]any{"url": "https://example.com/no-redis"})
	for range 2 {
		if r := s.visit("GET", "/"+l.Code); r.Status != http.StatusFound {
			t.Fatalf("redirect without redis: %d", r.Status)
		}
	}
	if r := s.do("GET", "/readyz", "", nil); r.Status != http.StatusOK || !strings.Contains(string(r.Body), `"redis":"degraded"`) {
		t.Fatalf("readyz: %d %s", r.Status, r.Body)
	}
}

func TestOperations(t *testing.T) {
	s := newDeployment(t).start(t, "METRICS_ADDR", "127.0.0.1:0")
	if r := s.do("GET", "/healthz", "", nil); r.Status != http.StatusOK {
		t.Fatalf("healthz: %d", r.Status)
	}
	if r := s.do("GET", "/readyz", "", nil); r.Status != http.StatusOK || !strings.Contains(string(r.Body), `"postgres":"ok"`) {
		t.Fatalf("readyz: %d %s", r.Status, r.Body)
	}
	s.visit("GET", "/missing-link")
	// An absolute-form request line has an empty path: the home page, not a crash.
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	_, _ = fmt.Fprintf(conn, "GET http://%s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", shortHost, shortHost)
	status, _ := bufio.NewReader(conn).ReadString('\n')
	_ = conn.Close()
	if !strings.Contains(status, " 200 ") {
		t.Errorf("absolute-form request: %q", status)
	}
	// Made-up method names share one label value.
	s.do("FOO1", "/api/v1/me", "", nil)
	r := s.metrics()
	if strings.Contains(string(r.Body), `method="FOO1"`) || !strings.Contains(string(r.Body), `method="other"`) {
		t.Errorf("method label: a series per method name")
	}
	if r.Status != http.StatusOK || !strings.Contains(string(r.Body), `shortlink_redirects_total{outcome="missing"}`) {
		t.Fatalf("metrics: %d", r.Status)
	}
	if r := s.do("GET", "/", "", nil); r.Status != http.StatusOK || !strings.Contains(string(r.Body), "Shortlink") {
		t.Fatalf("web app: %d", r.Status)
	}
}

func readAll(res *http.Response) []byte {
	defer func() { _ = res.Body.Close() }()
	b, _ := io.ReadAll(res.Body)
	return b
}

// TestConcurrentDedupe: identical dedupe creates sent at once to one node make one link.
func TestConcurrentDedupe(t *testing.T) {
	s := newDeployment(t).start(t)
	tn := s.signup("dedupe-race@example.com")
	path := fmt.Sprintf("/api/v1/workspaces/%d/links", tn.WorkspaceID)
	for round := range 5 {
		url := fmt.Sprintf("https://example.com/race/%d", round)
		ids := make([]int64, 8)
		var wg sync.WaitGroup
		for i := range ids {
			wg.Go(func() {
				r := s.do("POST", path, tn.Key, map[string]any{"url": url, "dedupe": true})
				var l linkJSON
				if err := json.Unmarshal(r.Body, &l); err != nil || (r.Status != http.StatusCreated && r.Status != http.StatusOK) {
					t.Errorf("create: %d %s", r.Status, r.Body)
				}
				ids[i] = l.ID
			})
		}
		wg.Wait()
		for _, id := range ids {
			if id != ids[0] {
				t.Fatalf("round %d: concurrent dedupe creates made different links: %v", round, ids)
			}
		}
	}
}

// TestCodeShapedAliasBound: a workspace may hold only so many aliases shaped like generated
// codes (every node keeps their IDs in memory); other aliases and other workspaces are not
// held back, and the aliases made resolve on a node started afterwards.
func TestCodeShapedAliasBound(t *testing.T) {
	d := newDeployment(t)
	d.env["CODE_ALIASES_PER_WORKSPACE"] = "3"
	a := d.start(t)
	tn := a.signup("shaped@example.com")
	other := a.signup("shaped-other@example.com")
	create := func(tn tenant, alias string) response {
		return a.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/links", tn.WorkspaceID), tn.Key,
			map[string]any{"url": "https://example.com/" + alias, "alias": alias})
	}
	shaped := []string{"Qq1Ww2", "Ee3Rr4", "Tt5Yy6"}
	for _, alias := range shaped {
		if r := create(tn, alias); r.Status != http.StatusCreated {
			t.Fatalf("%s: %d %s", alias, r.Status, r.Body)
		}
	}
	if r := create(tn, "Uu7Ii8"); r.Status != http.StatusForbidden || r.errorCode(t) != "quota_exceeded" {
		t.Errorf("one code-shaped alias too many: %d %s", r.Status, r.Body)
	}
	for _, alias := range []string{"Uu7Ii8x", "Uu7-i8"} {
		if r := create(tn, alias); r.Status != http.StatusCreated {
			t.Errorf("alias %s, not code-shaped: %d %s", alias, r.Status, r.Body)
		}
	}
	if r := create(other, "Oo9Pp0"); r.Status != http.StatusCreated {
		t.Errorf("another workspace's code-shaped alias: %d %s", r.Status, r.Body)
	}
	b := d.start(t)
	for _, alias := range append(shaped, "Oo9Pp0") {
		if r := b.visit("GET", "/"+alias); r.Status != http.StatusFound {
			t.Errorf("%s on a node started later: %d", alias, r.Status)
		}
	}
}

// TestOwnedWorkspacesBound: an account owns at most account.MaxOwnedWorkspaces workspaces, so
// the per-workspace bound on code-shaped aliases bounds an account's too.
func TestOwnedWorkspacesBound(t *testing.T) {
	s := newDeployment(t).start(t)
	tn := s.signup("many-workspaces@example.com")
	for i := 1; i < account.MaxOwnedWorkspaces; i++ {
		if r := s.do("POST", "/api/v1/workspaces", tn.Token, map[string]any{"name": fmt.Sprintf("w%d", i)}); r.Status != http.StatusCreated {
			t.Fatalf("workspace %d: %d %s", i, r.Status, r.Body)
		}
	}
	r := s.do("POST", "/api/v1/workspaces", tn.Token, map[string]any{"name": "one too many"})
	if r.Status != http.StatusForbidden || r.errorCode(t) != "quota_exceeded" {
		t.Fatalf("one workspace too many: %d %s", r.Status, r.Body)
	}
	if r := s.do("DELETE", fmt.Sprintf("/api/v1/workspaces/%d", tn.WorkspaceID), tn.Token, nil); r.Status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	if r := s.do("POST", "/api/v1/workspaces", tn.Token, map[string]any{"name": "after a deletion"}); r.Status != http.StatusCreated {
		t.Errorf("after deleting one: %d %s", r.Status, r.Body)
	}
}
