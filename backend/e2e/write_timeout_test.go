package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/testenv"
)

// lockLinks holds an ACCESS EXCLUSIVE lock on the links table from a connection of its own, as a
// migration or a long maintenance statement would: every read and write of links waits. The
// returned function releases it.
func lockLinks(t *testing.T, d *deployment) (release func()) {
	t.Helper()
	ctx := context.Background()
	conn := testenv.OpenConn(t, d.env["DATABASE_URL"])
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, "LOCK TABLE links IN ACCESS EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	release = func() {
		once.Do(func() {
			_ = tx.Rollback(ctx)
			_ = conn.Close(ctx)
		})
	}
	t.Cleanup(release)
	return release
}

// acknowledged creates links one after another until stop closes, and keeps those answered 201:
// whatever happens to the database meanwhile, each of them must exist afterwards.
func acknowledged(s *server, tn tenant, stop <-chan struct{}) <-chan []linkJSON {
	out := make(chan []linkJSON, 1)
	client := &http.Client{Timeout: 20 * time.Second}
	go func() {
		var made []linkJSON
		defer func() { out <- made }()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			body, _ := json.Marshal(map[string]any{"url": "https://example.com/ack/" + itoa(int64(i))})
			req, _ := http.NewRequest("POST", s.base+"/api/v1/workspaces/"+itoa(tn.WorkspaceID)+"/links", bytes.NewReader(body))
			req.Header.Set("Authorization", "Bearer "+tn.Key)
			req.Header.Set("Content-Type", "application/json")
			res, err := client.Do(req)
			if err != nil {
				continue
			}
			var l linkJSON
			if res.StatusCode == http.StatusCreated && json.NewDecoder(res.Body).Decode(&l) == nil {
				made = append(made, l)
			}
			_ = res.Body.Close()
			time.Sleep(20 * time.Millisecond)
		}
	}()
	return out
}

// TestWritesUnderStalledPostgres: with the links table locked by another connection, every
// write route (create, create with dedupe, batch create, edit, delete) answers 503 unavailable
// with Retry-After within WRITE_TIMEOUT and a margin, rather than waiting on each step in turn;
// no create answered 201 meanwhile is lost, and writes work again once the lock is gone.
func TestWritesUnderStalledPostgres(t *testing.T) {
	const writeTimeout = time.Second
	d := newDeployment(t)
	// Set up through a server of the default deadline: a busy machine may take longer than the
	// short one to check the operator's password.
	setup := d.start(t)
	tn := setup.signupOn("stalled-writes@example.com", "enterprise") // batches and edits of the target
	edited := setup.createLink(tn, map[string]any{"url": "https://example.com/edited"})
	deleted := setup.createLink(tn, map[string]any{"url": "https://example.com/deleted"})
	s := d.start(t, "WRITE_TIMEOUT", writeTimeout.String())
	links := "/api/v1/workspaces/" + itoa(tn.WorkspaceID) + "/links"

	stop := make(chan struct{})
	made := acknowledged(s, tn, stop)
	time.Sleep(200 * time.Millisecond)
	release := lockLinks(t, d)
	writes := []struct {
		name, method, path string
		body               any
	}{
		{"create", "POST", links, map[string]any{"url": "https://example.com/stalled"}},
		{"create with dedupe", "POST", links, map[string]any{"url": "https://example.com/stalled-dedupe", "dedupe": true}},
		{"batch", "POST", links + "/batch", map[string]any{"links": []any{map[string]any{"url": "https://example.com/b1"}, map[string]any{"url": "https://example.com/b2"}}}},
		{"edit", "PATCH", links + "/" + itoa(edited.ID), map[string]any{"url": "https://example.com/changed"}},
		{"delete", "DELETE", links + "/" + itoa(deleted.ID), nil},
	}
	for _, w := range writes {
		start := time.Now()
		r := s.do(w.method, w.path, tn.Key, w.body)
		took := time.Since(start)
		if r.Status != http.StatusServiceUnavailable || r.errorCode(t) != "unavailable" || r.Header.Get("Retry-After") == "" {
			t.Errorf("%s with the links table locked: %d Retry-After %q %s", w.name, r.Status, r.Header.Get("Retry-After"), r.Body)
		}
		if took > writeTimeout+3*time.Second {
			t.Errorf("%s answered after %v; WRITE_TIMEOUT is %v", w.name, took, writeTimeout)
		}
	}
	release()
	eventually(t, 5*time.Second, "creates work again", func() bool {
		return s.do("POST", links, tn.Key, map[string]any{"url": "https://example.com/back"}).Status == http.StatusCreated
	})
	time.Sleep(200 * time.Millisecond)
	close(stop)
	for _, l := range <-made {
		if r := s.do("GET", links+"/"+itoa(l.ID), tn.Key, nil); r.Status != http.StatusOK {
			t.Errorf("link %d was acknowledged, then lost: %d %s", l.ID, r.Status, r.Body)
		}
		if r := s.visit("GET", "/"+l.Code); r.Status != http.StatusFound || r.Header.Get("Location") != l.URL {
			t.Errorf("acknowledged link %s: %d %q, want %s", l.Code, r.Status, r.Header.Get("Location"), l.URL)
		}
	}
	if r := s.visit("GET", "/"+edited.Code); r.Status != http.StatusFound {
		t.Errorf("the link whose edit timed out: %d", r.Status)
	}
}

// TestAbandonedRequestIsNoError: a client that gives up on a slow edit and a slow create (the
// links table locked) is no failure of the service: nothing is logged as an error for them, an
// info line says so, and /metrics counts them apart from the answered requests.
func TestAbandonedRequestIsNoError(t *testing.T) {
	// Not parallel: the counters it compares are the process's, which other tests' servers move.
	d := newSerialDeployment(t)
	d.logs = &logBuffer{}
	s := d.start(t, "METRICS_ADDR", "127.0.0.1:0")
	tn := s.signupOn("abandoned@example.com", "enterprise") // edits of the target
	l := s.createLink(tn, map[string]any{"url": "https://example.com/slow"})
	links := "/api/v1/workspaces/" + itoa(tn.WorkspaceID) + "/links"

	// The counters are the process's: other servers of this test binary may have counted too.
	const edit = `shortlink_api_abandoned_total{method="PATCH",route="/api/v1/workspaces/:workspace/links/:id"}`
	const create = `shortlink_api_abandoned_total{method="POST",route="/api/v1/workspaces/:workspace/links"}`
	const edit500 = `shortlink_api_request_seconds_count{method="PATCH",route="/api/v1/workspaces/:workspace/links/:id",status="500"}`
	const create500 = `shortlink_api_request_seconds_count{method="POST",route="/api/v1/workspaces/:workspace/links",status="500"}`
	m := string(s.metrics().Body)
	edits, creates := metricValue(m, edit), metricValue(m, create)
	fails := metricValue(m, edit500) + metricValue(m, create500)

	release := lockLinks(t, d)
	abandon := func(method, path string, body any) {
		t.Helper()
		b, _ := json.Marshal(body)
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, method, s.base+path, bytes.NewReader(b))
		req.Header.Set("Authorization", "Bearer "+tn.Key)
		req.Header.Set("Content-Type", "application/json")
		if res, err := http.DefaultClient.Do(req); err == nil {
			_ = res.Body.Close()
			t.Fatalf("%s %s answered %d before the client gave up", method, path, res.StatusCode)
		}
	}
	abandon("PATCH", links+"/"+itoa(l.ID), map[string]any{"url": "https://example.com/never"})
	abandon("POST", links, map[string]any{"url": "https://example.com/never"})
	eventually(t, 5*time.Second, "both abandoned requests counted", func() bool {
		m := string(s.metrics().Body)
		return metricValue(m, edit) == edits+1 && metricValue(m, create) == creates+1
	})
	release()
	if m := string(s.metrics().Body); metricValue(m, edit500)+metricValue(m, create500) != fails {
		t.Errorf("an abandoned request counted as a 500:\n%s", grepLines(m, `status="500"`))
	}
	infos := 0
	for _, line := range d.logs.lines() {
		if strings.Contains(line, "level=ERROR") {
			t.Errorf("logged as an error: %s", line)
		}
		if strings.Contains(line, "level=INFO") && strings.Contains(line, "abandoned") {
			infos++
		}
	}
	if infos != 2 {
		t.Errorf("%d info lines about abandoned requests, want 2:\n%s", infos, strings.Join(d.logs.lines(), "\n"))
	}
}

// grepLines returns the lines of s that hold sub.
func grepLines(s, sub string) string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		if strings.Contains(line, sub) {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

// metricValue is the value of the series named by its name and labels in a /metrics text; 0
// when it is absent.
func metricValue(metrics, series string) float64 {
	for _, line := range strings.Split(metrics, "\n") {
		if v, ok := strings.CutPrefix(line, series+" "); ok {
			f, _ := strconv.ParseFloat(v, 64)
			return f
		}
	}
	return 0
}

// TestCreateUnderStalledConnection: PostgreSQL stops answering altogether (a proxy that stops
// forwarding, as a hung primary or a network partition looks): the quota step, which waits on
// the database too, and the insert share one deadline, so a create answers 503 with
// Retry-After within WRITE_TIMEOUT and a margin, not after each step's own wait in turn.
func TestCreateUnderStalledConnection(t *testing.T) {
	const writeTimeout = time.Second
	d := newDeployment(t)
	proxy, through := d.cutterFor(t, "DATABASE_URL")
	// Signed up under the default deadline: a busy machine may hash a password slower than 1 s.
	tn := d.start(t).signup("stalled-connection@example.com")
	s := d.start(t, "DATABASE_URL", through, "WRITE_TIMEOUT", writeTimeout.String())
	links := "/api/v1/workspaces/" + itoa(tn.WorkspaceID) + "/links"
	// The key is known: the first create may take longer than 1 s on a busy machine (the key,
	// the quota, an ID block), and is tried again until it is in.
	eventually(t, 30*time.Second, "a create before the stall", func() bool {
		return s.do("POST", links, tn.Key, map[string]any{"url": "https://example.com/before"}).Status == http.StatusCreated
	})

	proxy.setStalled(true)
	for i := range 2 {
		start := time.Now()
		r := s.do("POST", links, tn.Key, map[string]any{"url": "https://example.com/stalled"})
		took := time.Since(start)
		if r.Status != http.StatusServiceUnavailable || r.errorCode(t) != "unavailable" || r.Header.Get("Retry-After") == "" {
			t.Errorf("create %d with PostgreSQL stalled: %d Retry-After %q %s", i, r.Status, r.Header.Get("Retry-After"), r.Body)
		}
		if took > writeTimeout+3*time.Second {
			t.Errorf("create %d answered after %v; WRITE_TIMEOUT is %v", i, took, writeTimeout)
		}
	}
	proxy.setStalled(false)
	eventually(t, 10*time.Second, "creates work again", func() bool {
		return s.do("POST", links, tn.Key, map[string]any{"url": "https://example.com/back"}).Status == http.StatusCreated
	})
}
