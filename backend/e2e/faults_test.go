package e2e

import (
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// cutter is a TCP proxy to a real server that a test can cut: open connections are closed and
// new ones refused until it is mended. It is how a test takes PostgreSQL away from one node.
// It can also stall: connections stay open, and nothing is forwarded either way until it
// flows again, as with a server that stops answering.
type cutter struct {
	ln      net.Listener
	target  string
	mu      sync.Mutex
	flowing *sync.Cond
	cut     bool
	stalled bool
	conns   map[net.Conn]bool
}

func newCutter(t *testing.T, target string) *cutter {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c := &cutter{ln: ln, target: target, conns: map[net.Conn]bool{}}
	c.flowing = sync.NewCond(&c.mu)
	go c.serve()
	t.Cleanup(func() { _ = ln.Close(); c.setCut(true) })
	return c
}

// cutterFor puts a cutter in front of the server the deployment's setting (DATABASE_URL,
// REDIS_URL) names, and returns it with the setting's value through it.
func (d *deployment) cutterFor(t *testing.T, setting string) (*cutter, string) {
	t.Helper()
	u, err := url.Parse(d.env[setting])
	if err != nil {
		t.Fatal(err)
	}
	c := newCutter(t, u.Host)
	u.Host = c.ln.Addr().String()
	return c, u.String()
}

// setStalled stops forwarding (true) or lets everything held go on (false).
func (c *cutter) setStalled(stalled bool) {
	c.mu.Lock()
	c.stalled = stalled
	c.mu.Unlock()
	c.flowing.Broadcast()
}

// pipe forwards from src to dst, holding what it read while the proxy is stalled.
func (c *cutter) pipe(dst, src net.Conn) {
	defer func() { _ = dst.Close() }()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			c.mu.Lock()
			for c.stalled && !c.cut {
				c.flowing.Wait()
			}
			c.mu.Unlock()
			if _, err := dst.Write(buf[:n]); err != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

func (c *cutter) serve() {
	for {
		in, err := c.ln.Accept()
		if err != nil {
			return
		}
		c.mu.Lock()
		if c.cut {
			c.mu.Unlock()
			_ = in.Close()
			continue
		}
		out, err := net.Dial("tcp", c.target)
		if err != nil {
			c.mu.Unlock()
			_ = in.Close()
			continue
		}
		c.conns[in], c.conns[out] = true, true
		c.mu.Unlock()
		go c.pipe(out, in)
		go c.pipe(in, out)
	}
}

func (c *cutter) setCut(cut bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cut = cut
	if cut {
		for conn := range c.conns {
			_ = conn.Close()
		}
		clear(c.conns)
		c.flowing.Broadcast()
	}
}

// TestPostgresDown takes PostgreSQL away from a running node: cached links keep redirecting,
// creates answer 503 in the error shape, readiness fails; when it is back, creates work again.
func TestPostgresDown(t *testing.T) {
	d := newDeployment(t)
	proxy, through := d.cutterFor(t, "DATABASE_URL")
	s := d.start(t, "DATABASE_URL", through)
	tn := s.signup("pgdown@example.com")
	l := s.createLink(tn, map[string]any{"url": "https://example.com/cached"})
	if r := s.visit("GET", "/"+l.Code); r.Status != http.StatusFound {
		t.Fatalf("before: %d", r.Status)
	}

	proxy.setCut(true)
	if r := s.visit("GET", "/"+l.Code); r.Status != http.StatusFound || r.Header.Get("Location") != "https://example.com/cached" {
		t.Errorf("cached link with PostgreSQL down: %d %q", r.Status, r.Header.Get("Location"))
	}
	links := "/api/v1/workspaces/" + itoa(tn.WorkspaceID) + "/links"
	for range 3 { // the first requests meet connections that were cut, later ones refused ones
		r := s.do("POST", links, tn.Key, map[string]any{"url": "https://example.com/new"})
		if r.Status != http.StatusServiceUnavailable || r.errorCode(t) != "unavailable" {
			t.Errorf("create with PostgreSQL down: %d %s", r.Status, r.Body)
		}
	}
	if r := s.do("POST", links+"/batch", tn.Key, map[string]any{"links": []any{map[string]any{"url": "https://example.com/b"}}}); (r.Status != http.StatusOK && r.Status != http.StatusServiceUnavailable) || !strings.Contains(string(r.Body), `"code":"unavailable"`) {
		t.Errorf("batch with PostgreSQL down: %d %s", r.Status, r.Body)
	}
	// The node stays in rotation: its cached links keep redirecting while creates answer 503.
	if r := s.do("GET", "/readyz", "", nil); r.Status != http.StatusOK || !strings.Contains(string(r.Body), `"postgres":"down"`) {
		t.Errorf("readyz with PostgreSQL down: %d %s", r.Status, r.Body)
	}

	proxy.setCut(false)
	eventually(t, 5_000_000_000, "creates work again", func() bool {
		return s.do("POST", links, tn.Key, map[string]any{"url": "https://example.com/back"}).Status == http.StatusCreated
	})
	if r := s.do("GET", "/readyz", "", nil); r.Status != http.StatusOK {
		t.Errorf("readyz after: %d %s", r.Status, r.Body)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// TestRedisBlipDuringEdit: an edit made while the editing node cannot reach Redis still reaches
// the other node once Redis answers again, though that node had the old version cached.
func TestRedisBlipDuringEdit(t *testing.T) {
	d := newDeployment(t)
	proxy, through := d.cutterFor(t, "REDIS_URL")
	a := d.start(t, "REDIS_URL", through)
	b := d.start(t)
	tn := a.signupOn("blip@example.com", "enterprise") // edits of the target
	l := a.createLink(tn, map[string]any{"url": "https://example.com/before"})
	if r := b.visit("GET", "/"+l.Code); r.Header.Get("Location") != "https://example.com/before" {
		t.Fatalf("before: %d %q", r.Status, r.Header.Get("Location"))
	}

	proxy.setCut(true)
	patch := "/api/v1/workspaces/" + strconv.FormatInt(tn.WorkspaceID, 10) + "/links/" + strconv.FormatInt(l.ID, 10)
	if r := a.do("PATCH", patch, tn.Key, map[string]any{"url": "https://example.com/after"}); r.Status != http.StatusOK {
		t.Fatalf("edit during the blip: %d %s", r.Status, r.Body)
	}
	time.Sleep(300 * time.Millisecond)
	proxy.setCut(false)
	eventually(t, 3*time.Second, "the edit reaches the other node after the blip", func() bool {
		return b.visit("GET", "/"+l.Code).Header.Get("Location") == "https://example.com/after"
	})
}

// TestReadyNamesTheSlowStore: /readyz checks PostgreSQL and Redis each within its own budget, at
// once, so that a store that stalls is the one named: a stalled PostgreSQL does not make Redis
// look degraded, and a stalled Redis does not make PostgreSQL look down.
func TestReadyNamesTheSlowStore(t *testing.T) {
	d := newDeployment(t)
	pg, pgThrough := d.cutterFor(t, "DATABASE_URL")
	rd, rdThrough := d.cutterFor(t, "REDIS_URL")
	s := d.start(t, "DATABASE_URL", pgThrough, "REDIS_URL", rdThrough)
	ready := func(want string) {
		t.Helper()
		start := time.Now()
		r := s.do("GET", "/readyz", "", nil)
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("readyz took %v", took)
		}
		if r.Status != http.StatusOK || strings.TrimSpace(string(r.Body)) != want {
			t.Errorf("readyz: %d %s, want %s", r.Status, r.Body, want)
		}
	}
	ready(`{"postgres":"ok","redis":"ok"}`)

	pg.setStalled(true)
	ready(`{"postgres":"down","redis":"ok"}`)
	pg.setStalled(false)
	eventually(t, 10*time.Second, "PostgreSQL answers again", func() bool {
		return strings.Contains(string(s.do("GET", "/readyz", "", nil).Body), `"postgres":"ok"`)
	})

	rd.setStalled(true)
	ready(`{"postgres":"ok","redis":"degraded"}`)
	rd.setStalled(false)
}
