package e2e

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/testenv"
)

// ownRedisFixture is two nodes on a Redis of the test's own, a tenant on a plan that may edit
// targets, and its links, each cached on both nodes.
type ownRedisFixture struct {
	rs   *testenv.RedisServer
	d    *deployment
	a, b *server
	tn   tenant
}

func newOwnRedisFixture(t *testing.T, d *deployment, email string) *ownRedisFixture {
	t.Helper()
	f := &ownRedisFixture{rs: testenv.NewRedisServer(t), d: d}
	f.d.env["REDIS_URL"] = f.rs.URL()
	f.a, f.b = f.d.start(t), f.d.start(t)
	f.tn = f.a.signup(email)
	f.a.setPlan(f.tn, "enterprise") // edits of the target
	return f
}

// cached creates a link of tn to url and has both nodes cache it.
func (f *ownRedisFixture) cached(t *testing.T, tn tenant, url string) linkJSON {
	t.Helper()
	l := f.a.createLink(tn, map[string]any{"url": url})
	for _, s := range []*server{f.a, f.b} {
		if r := s.visit("GET", "/"+l.Code); r.Status != http.StatusFound {
			t.Fatalf("%s before: %d", l.Code, r.Status)
		}
	}
	return l
}

// TestRedisPausedDuringChanges: with Redis refusing writes for 6 s (CLIENT PAUSE … WRITE),
// edits, a disable, a deletion and a workspace deletion are acknowledged, then take effect on
// both nodes within a few seconds of Redis answering again, though both had the old versions
// cached and Redis still served them to readers.
func TestRedisPausedDuringChanges(t *testing.T) {
	// Not parallel: the changes must all fit in the pause, which a busy machine stretches (they
	// took more than 2.5 s beside a busy core once).
	const pause = 6 * time.Second
	f := newOwnRedisFixture(t, newSerialDeployment(t), "pause@example.com")
	rs, d, a, b, tn := f.rs, f.d, f.a, f.b, f.tn
	other := a.signup("pause-other@example.com")
	edited := f.cached(t, tn, "https://example.com/before")
	disabled := f.cached(t, tn, "https://example.com/disabled")
	deleted := f.cached(t, tn, "https://example.com/deleted")
	inGone := f.cached(t, other, "https://example.com/gone-workspace")

	if err := rs.Do("CLIENT", "PAUSE", int(pause.Milliseconds()), "WRITE"); err != nil {
		t.Fatal(err)
	}
	paused := time.Now()
	ws := "/api/v1/workspaces/" + itoa(tn.WorkspaceID) + "/links/"
	if r := a.do("PATCH", ws+itoa(edited.ID), tn.Key, map[string]any{"url": "https://example.com/after"}); r.Status != http.StatusOK {
		t.Fatalf("edit: %d %s", r.Status, r.Body)
	}
	if r := a.do("PATCH", ws+itoa(disabled.ID), tn.Key, map[string]any{"status": "disabled"}); r.Status != http.StatusOK {
		t.Fatalf("disable: %d %s", r.Status, r.Body)
	}
	if r := a.do("DELETE", ws+itoa(deleted.ID), tn.Key, nil); r.Status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	if r := a.do("DELETE", "/api/v1/workspaces/"+itoa(other.WorkspaceID), other.Token, nil); r.Status != http.StatusNoContent {
		t.Fatalf("delete workspace: %d %s", r.Status, r.Body)
	}
	if time.Since(paused) > pause {
		t.Fatal("the changes took longer than the pause; the test proves nothing")
	}
	// The measure below starts when Redis answers writes again: a write, held until the pause
	// ends, is answered then.
	if err := rs.Do("SET", "pause-probe", "1"); err != nil {
		t.Fatal(err)
	}

	// The measure: within a few seconds of Redis answering again, on every node.
	for _, s := range []*server{a, b} {
		eventually(t, 4*time.Second, "the edit", func() bool {
			return s.visit("GET", "/"+edited.Code).Header.Get("Location") == "https://example.com/after"
		})
		eventually(t, 4*time.Second, "the disable", func() bool { return s.visit("GET", "/"+disabled.Code).Status == http.StatusForbidden })
		eventually(t, 4*time.Second, "the deletion", func() bool { return s.visit("GET", "/"+deleted.Code).Status == http.StatusNotFound })
		eventually(t, 4*time.Second, "the workspace deletion", func() bool { return s.visit("GET", "/"+inGone.Code).Status == http.StatusNotFound })
	}
	// And they stay so: a node that loads the link afresh from Redis finds the new version.
	c3 := d.start(t)
	eventually(t, 3*time.Second, "a third node reads the new versions from Redis", func() bool {
		return c3.visit("GET", "/"+edited.Code).Header.Get("Location") == "https://example.com/after" &&
			c3.visit("GET", "/"+disabled.Code).Status == http.StatusForbidden
	})
}

// TestRedisRestartedDuringChanges: Redis stops after a snapshot that holds the links cached,
// an edit and a disable are made while it is down, and it comes back from that snapshot with
// the old versions. Both nodes serve the new versions while it is down and within a few seconds
// of its return.
func TestRedisRestartedDuringChanges(t *testing.T) {
	f := newOwnRedisFixture(t, newDeployment(t), "restart@example.com")
	rs, a, b, tn := f.rs, f.a, f.b, f.tn
	edited := f.cached(t, tn, "https://example.com/before")
	disabled := f.cached(t, tn, "https://example.com/disabled")
	if err := rs.Do("SAVE"); err != nil {
		t.Fatal(err)
	}
	resyncs := []int64{a.app.Resyncs(), b.app.Resyncs()}
	_ = rs.Do("SHUTDOWN", "NOSAVE") // the connection closes as it answers

	ws := "/api/v1/workspaces/" + itoa(tn.WorkspaceID) + "/links/"
	if r := a.do("PATCH", ws+itoa(edited.ID), tn.Key, map[string]any{"url": "https://example.com/after"}); r.Status != http.StatusOK {
		t.Fatalf("edit with Redis down: %d %s", r.Status, r.Body)
	}
	if r := a.do("PATCH", ws+itoa(disabled.ID), tn.Key, map[string]any{"status": "disabled"}); r.Status != http.StatusOK {
		t.Fatalf("disable with Redis down: %d %s", r.Status, r.Body)
	}
	check := func(when string) {
		t.Helper()
		for _, s := range []*server{a, b} {
			eventually(t, 4*time.Second, when+": the edit", func() bool {
				return s.visit("GET", "/"+edited.Code).Header.Get("Location") == "https://example.com/after"
			})
			eventually(t, 4*time.Second, when+": the disable", func() bool {
				return s.visit("GET", "/"+disabled.Code).Status == http.StatusForbidden
			})
		}
	}
	check("Redis down")

	rs.Start() // from the snapshot: the old versions are back in Redis
	check("Redis back from an old snapshot")
	resynced(t, resyncs, a, b) // the nodes resubscribe and reload from Redis
	check("after the nodes reloaded")
}

// resynced waits until each node has subscribed to the event bus again since it handled
// before[i] resyncs (dropping its copies), then for cache sync rounds that began after that.
func resynced(t *testing.T, before []int64, nodes ...*server) {
	t.Helper()
	for i, s := range nodes {
		eventually(t, 15*time.Second, fmt.Sprintf("node %d subscribed again", i), func() bool { return s.app.Resyncs() > before[i] })
		afterRounds(t, "cache sync rounds after the resubscription", s.app.CacheSyncRounds)
	}
}

// TestRedisRefusesWrites: a Redis that serves reads but refuses writes (memory full with
// noeviction, a read-only replica after a failover) still holds the old version; an
// acknowledged disable holds on both nodes all the same, read past Redis, and Redis gets the
// new version once it takes writes again.
func TestRedisRefusesWrites(t *testing.T) {
	f := newOwnRedisFixture(t, newDeployment(t), "oom@example.com")
	rs, d, a, b, tn := f.rs, f.d, f.a, f.b, f.tn
	l := f.cached(t, tn, "https://example.com/x")
	if err := rs.Do("CONFIG", "SET", "maxmemory-policy", "noeviction"); err != nil {
		t.Fatal(err)
	}
	if err := rs.Do("CONFIG", "SET", "maxmemory", "1"); err != nil {
		t.Fatal(err)
	}
	ws := "/api/v1/workspaces/" + itoa(tn.WorkspaceID) + "/links/"
	if r := a.do("PATCH", ws+itoa(l.ID), tn.Key, map[string]any{"status": "disabled"}); r.Status != http.StatusOK {
		t.Fatalf("disable: %d %s", r.Status, r.Body)
	}
	for i, s := range []*server{a, b} {
		eventually(t, 3*time.Second, fmt.Sprintf("node %d refuses the disabled link", i), func() bool {
			return s.visit("GET", "/"+l.Code).Status == http.StatusForbidden
		})
	}
	for _, s := range []*server{a, b} {
		afterRounds(t, "cache sync rounds while Redis still refuses", s.app.CacheSyncRounds)
	}
	for i, s := range []*server{a, b} {
		if r := s.visit("GET", "/"+l.Code); r.Status != http.StatusForbidden {
			t.Errorf("node %d later: %d %q", i, r.Status, r.Header.Get("Location"))
		}
	}
	if err := rs.Do("CONFIG", "SET", "maxmemory", "0"); err != nil {
		t.Fatal(err)
	}
	c3 := d.start(t) // reads Redis afresh, possibly before the syncers have written it
	eventually(t, 3*time.Second, "Redis has the disabled version", func() bool {
		return c3.visit("GET", "/"+l.Code).Status == http.StatusForbidden
	})
}

// TestRedisBackFromSnapshot: Redis took a disable, then crashed and came back from a snapshot
// taken before it: the nodes see a new server and write the changes of the last TTL again.
func TestRedisBackFromSnapshot(t *testing.T) {
	f := newOwnRedisFixture(t, newDeployment(t), "snap@example.com")
	rs, a, b, tn := f.rs, f.a, f.b, f.tn
	l := f.cached(t, tn, "https://example.com/x")
	if err := rs.Do("SAVE"); err != nil { // the periodic snapshot
		t.Fatal(err)
	}
	ws := "/api/v1/workspaces/" + itoa(tn.WorkspaceID) + "/links/"
	if r := a.do("PATCH", ws+itoa(l.ID), tn.Key, map[string]any{"status": "disabled"}); r.Status != http.StatusOK {
		t.Fatalf("disable: %d %s", r.Status, r.Body)
	}
	for _, s := range []*server{a, b} {
		eventually(t, 4*time.Second, "disable", func() bool { return s.visit("GET", "/"+l.Code).Status == http.StatusForbidden })
	}
	for _, s := range []*server{a, b} {
		afterRounds(t, "cache sync rounds", s.app.CacheSyncRounds) // the feed was read and applied
	}
	resyncs := []int64{a.app.Resyncs(), b.app.Resyncs()}
	_ = rs.Do("SHUTDOWN", "NOSAVE") // a crash
	rs.Start()                      // back from the snapshot, with the link enabled
	resynced(t, resyncs, a, b)      // the nodes resubscribe, drop their copies and read Redis
	for i, s := range []*server{a, b} {
		if r := s.visit("GET", "/"+l.Code); r.Status != http.StatusForbidden {
			t.Errorf("node %d serves the disabled link again: %d %q", i, r.Status, r.Header.Get("Location"))
		}
	}
}

// TestCreatesWhileRedisStalls: with Redis taking no writes (CLIENT PAUSE … WRITE, as while a
// failover is under way), creates are still acknowledged one after another without waiting on
// the cache; each new link redirects on the node that made it at once, even an alias whose
// miss Redis still holds, and on the other node within a few seconds of Redis taking writes
// again (the change that Redis missed is written by the cache sync, not left to expire).
func TestCreatesWhileRedisStalls(t *testing.T) {
	// Not parallel: it counts the creates that fit in two seconds.
	f := newOwnRedisFixture(t, newSerialDeployment(t), "stall-creates@example.com")
	rs, a, b, tn := f.rs, f.a, f.b, f.tn
	links := "/api/v1/workspaces/" + itoa(tn.WorkspaceID) + "/links"
	f.cached(t, tn, "https://example.com/warm") // the cache writer has run once
	// A visitor tried the alias before it existed: Redis remembers the miss for 30 s.
	for _, s := range []*server{a, b} {
		if r := s.visit("GET", "/stall-alias"); r.Status != http.StatusNotFound {
			t.Fatalf("the alias before it exists: %d", r.Status)
		}
	}

	const pause = 4 * time.Second
	if err := rs.Do("CLIENT", "PAUSE", pause.Milliseconds(), "WRITE"); err != nil {
		t.Fatal(err)
	}
	paused := time.Now()
	alias := a.createLink(tn, map[string]any{"url": "https://example.com/alias", "alias": "stall-alias"})
	if r := a.visit("GET", "/stall-alias"); r.Status != http.StatusFound || r.Header.Get("Location") != "https://example.com/alias" {
		t.Errorf("the alias on its node while Redis is paused: %d %q", r.Status, r.Header.Get("Location"))
	}
	// One create after another for two seconds: each waited on a cache write of 500 ms or so
	// before (go-redis's read timeout), so a handful fit; without that wait, dozens.
	var made []linkJSON
	for time.Since(paused) < 2*time.Second {
		r := a.do("POST", links, tn.Key, map[string]any{"url": "https://example.com/stalled/" + itoa(int64(len(made)))})
		if r.Status != http.StatusCreated {
			t.Fatalf("create while Redis is paused: %d %s", r.Status, r.Body)
		}
		var l linkJSON
		r.json(t, &l)
		made = append(made, l)
	}
	if len(made) < 12 {
		t.Errorf("%d creates acknowledged in 2 s with Redis paused; want 12 or more", len(made))
	}
	if time.Since(paused) > pause {
		t.Fatal("the creates took longer than the pause; the test proves nothing")
	}
	t.Logf("%d creates in 2 s with Redis paused", len(made))

	for _, l := range append(made, alias) {
		if r := a.visit("GET", "/"+l.Code); r.Status != http.StatusFound || r.Header.Get("Location") != l.URL {
			t.Errorf("%s on its node: %d %q, want %s", l.Code, r.Status, r.Header.Get("Location"), l.URL)
		}
	}
	time.Sleep(time.Until(paused.Add(pause)))
	eventually(t, 4*time.Second, "the other node serves the alias once Redis takes writes", func() bool {
		return b.visit("GET", "/stall-alias").Header.Get("Location") == "https://example.com/alias"
	})
	for _, l := range append(made, alias) {
		for i, s := range []*server{a, b} {
			if r := s.visit("GET", "/"+l.Code); r.Status != http.StatusFound || r.Header.Get("Location") != l.URL {
				t.Errorf("%s on node %d after the pause: %d %q, want %s", l.Code, i, r.Status, r.Header.Get("Location"), l.URL)
			}
		}
	}
}
