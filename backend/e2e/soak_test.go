//go:build soak

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/testenv"
)

// TestSoak runs the whole product for SOAK_DURATION (60 s by default; `make soak` runs 10
// minutes) on PostgreSQL and Redis of its own: two server processes, the moderation worker with
// its Chromium and a model server speaking the OpenAI chat API, under a mixed load — redirects
// over 100,000 links (a tenth with variants and device targets), creates one by one and in
// batches, edits, statistics reads and moderators' decisions. Meanwhile it kills one server with
// SIGKILL and starts it again, restarts Redis (which comes back empty) and restarts PostgreSQL.
//
// Then it checks that every acknowledged create and edit is there and served by both servers,
// that the visits stored are the redirects answered (less at most the documented loss of the
// killed process), and that no request failed outside the faults' windows; and it writes a
// report with a chart into SOAK_REPORT (a folder) when that is set. The load balancer in front
// of the servers is modelled as a client that sends a request refused at connect to the other
// server, as Caddy's lb_try_duration does.
func TestSoak(t *testing.T) {
	dur := 60 * time.Second
	if v := os.Getenv("SOAK_DURATION"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 30*time.Second {
			t.Fatalf("SOAK_DURATION=%q: want a duration of 30s or more", v)
		}
		dur = d
	}
	if testing.Short() {
		t.Skip("the soak run takes minutes")
	}
	rig := startSoakRig(t)
	load := rig.startLoad(dur)

	// The faults, at fixed shares of the run; each part stays down for the outage.
	outage := max(2*time.Second, dur/60)
	faults := []struct {
		at   float64
		name string
		run  func() (down, back time.Time)
	}{
		{0.2, "backend b killed (SIGKILL) and started again", func() (time.Time, time.Time) { return rig.killNode(1, outage) }},
		{0.45, "Redis restarted, empty", func() (time.Time, time.Time) { return rig.services.restart(t, "redis", outage) }},
		{0.7, "PostgreSQL restarted", func() (time.Time, time.Time) { return rig.services.restart(t, "postgres", outage) }},
	}
	for _, f := range faults {
		time.Sleep(time.Until(load.start.Add(time.Duration(f.at * float64(dur)))))
		t.Logf("%v: %s", time.Since(load.start).Round(time.Second), f.name)
		down, back := f.run()
		load.faults = append(load.faults, soakFault{Name: f.name, Down: down, Back: back})
	}
	time.Sleep(time.Until(load.start.Add(dur)))
	load.stop()
	rig.memEnd = rig.memory()
	t.Logf("load stopped after %v", time.Since(load.start).Round(time.Second))

	rep := rig.check(load)
	if dir := os.Getenv("SOAK_REPORT"); dir != "" {
		if err := rep.write(dir); err != nil {
			t.Fatalf("write the report: %v", err)
		}
		t.Logf("report written to %s", dir)
	}
	for _, line := range rep.summary() {
		t.Log(line)
	}
}

// soakRate is an operation's requests a second and the goroutines that send them.
type soakRate struct {
	rate    float64
	workers int
}

// Rates of the soak's load.
var soakRates = [numSoakOps]soakRate{
	opRedirect: {3000, 32},
	opCreate:   {200, 8},
	opBatch:    {2, 2}, // soakBatchRows links each
	opEdit:     {40, 2},
	opStats:    {20, 4},
	opModerate: {2, 1}, // a queue read, then a decision (opDecide) on a link in it
}

const (
	soakLinks     = 100_000 // links made before the load starts
	soakBatchRows = 100
	soakSites     = 10 // destination hosts shop-0.test … shop-9.test
	// soakKillLoss is the most visits a killed server may take with it (docs/architecture.md, "What a crash
	// loses"): the batch its flusher was gathering and the one it was sending.
	soakKillLoss = 2 * 1000
	// soakGrace is how long after a part came back failures still count as its fault's.
	soakGrace = 20 * time.Second
)

type soakOp int

const (
	opRedirect soakOp = iota
	opCreate
	opBatch
	opEdit
	opStats
	opModerate
	opDecide
	numSoakOps
)

var soakOpNames = [numSoakOps]string{"redirects", "creates", "batch creates", "edits", "statistics reads", "moderators' queue reads", "moderators' decisions"}

// A request's outcome.
const (
	outOK         = iota
	out5xx        // an answer of 500 or more
	outTransport  // no answer: the connection broke, or the client's timeout ran out
	outUnexpected // an answer that is neither what the request expects nor a 5xx
	numOutcomes
)

// soakRig is what the run starts: services, two servers, the worker, and the tenants.
type soakRig struct {
	t        *testing.T
	services *ownServices // nil when the run brings its own (TestChaos)
	// databaseURL is where the checks read the database.
	databaseURL string
	rates       [numSoakOps]soakRate
	d           *deployment
	nodes       [2]*process
	addrs       [2]string
	worker      *workerProcess
	owner       tenant
	modToken    string
	// seeded are the links made before the load, with every Location they may answer.
	seeded        []soakLink
	memStart      map[string]int64
	memEnd        map[string]int64
	nodeOverrides []string
	// onEditSent and onEdit, when set, are told of every edit as it is sent, and of every
	// acknowledged one: the link and its new destination.
	onEditSent, onEdit func(lk soakLink, url string)
}

// soakLink is an acknowledged link and the Locations it may answer with: its URL, the variants
// of its rules, and an edit whose answer did not arrive.
type soakLink struct {
	ID   int64
	Code string
	URLs []string
}

func startSoakRig(t *testing.T) *soakRig {
	t.Helper()
	s := startOwnServices(t)
	r := &soakRig{t: t, services: s, databaseURL: s.databaseURL, rates: soakRates}
	d := newDeploymentOn(t, s.databaseURL, s.redisURL, "soak:")
	delete(d.env, "WRITE_TIMEOUT") // the service's own deadline, as deployed
	r.start(s.databaseURL, d, nil, soakLinks)
	return r
}

// start migrates the database at migrateURL (with `shortlink migrate`), starts two servers of d
// and the worker (with workerEnv too, KEY=VALUE), signs up the tenants and makes seed links.
func (r *soakRig) start(migrateURL string, d *deployment, workerEnv []string, seed int) {
	t := r.t
	migrate := exec.Command(serverBinary(t), "migrate")
	migrate.Env = append(os.Environ(), "DATABASE_URL="+migrateURL)
	if out, err := migrate.CombinedOutput(); err != nil {
		t.Fatalf("shortlink migrate: %v\n%s", err, out)
	}
	r.d = d
	// Fixed addresses, so that a server started again answers where it did (a pod behind its
	// Service); limits far above the load, so that nothing is refused for its rate.
	r.nodeOverrides = []string{"PLAN_LIMITS", "enterprise.requests_per_minute=100000000", "SHUTDOWN_TIMEOUT", "10s"}
	for i, name := range []string{"a", "b"} {
		r.addrs[i] = fmt.Sprintf("127.0.0.1:%d", testenv.FreePort(t))
		r.nodes[i] = r.d.startProcess(t, name, append([]string{"HTTP_ADDR", r.addrs[i]}, r.nodeOverrides...)...)
	}
	api := r.nodes[0].api(r.d)
	r.owner = api.signup("owner@example.com")
	api.setPlan(r.owner, "enterprise")
	_, r.modToken = api.moderator("moderator@example.com")

	sites := newSiteServer()
	t.Cleanup(sites.close)
	for i := range soakSites {
		sites.html(t, fmt.Sprintf("shop-%d.test", i), shopPage)
	}
	model := testenv.NewChatModel(t, func(testenv.ChatCall) (int, string) {
		return http.StatusOK, verdictJSON(0.03, "benign", "an ordinary shop")
	})
	r.seed(seed)
	r.worker = startWorkerProcess(t, r.d, workerBinary(t), append([]string{"BROWSER_HOST_RULES=" + sites.hostRules(),
		"MODERATION_ALLOW_LOOPBACK=true", "OPENAI_BASE_URL=" + model.URL(), "OPENAI_API_KEY=soak-key",
		"MODERATION_MODEL=fake-vision"}, workerEnv...)...)
	// The worker has started its browser once it reviews.
	eventually(t, 60*time.Second, "the worker's first review", func() bool { return r.count(`SELECT count(*) FROM link_reviews`) > 0 })
	r.memStart = r.memory()
}

// seed makes n links (a multiple of 1000) through the batch API, a tenth of them with two
// variants and a device target.
func (r *soakRig) seed(n int) {
	t := r.t
	start := time.Now()
	api := r.nodes[0].api(r.d)
	for b := 0; b < n/1000; b++ {
		rows := make([]map[string]any, 1000)
		for i := range rows {
			n := b*1000 + i
			row := map[string]any{"url": fmt.Sprintf("http://shop-%d.test/p/%d", n%soakSites, n)}
			if n%10 == 0 {
				row["variants"] = []map[string]any{
					{"url": fmt.Sprintf("http://shop-%d.test/a/%d", n%soakSites, n), "weight": 50},
					{"url": fmt.Sprintf("http://shop-%d.test/b/%d", n%soakSites, n), "weight": 50}}
				row["device_targets"] = map[string]string{"ios": fmt.Sprintf("http://shop-%d.test/ios/%d", n%soakSites, n)}
			}
			rows[i] = row
		}
		res := api.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/links/batch", r.owner.WorkspaceID), r.owner.Key, map[string]any{"links": rows})
		if res.Status != http.StatusOK && res.Status != http.StatusCreated {
			t.Fatalf("seed batch %d: %d %.300s", b, res.Status, res.Body)
		}
		var out batchAnswer
		res.json(t, &out)
		for i, x := range out.Results {
			if x.Link == nil {
				t.Fatalf("seed row %d: %s", b*1000+i, x.Error.Message)
			}
			l := soakLink{ID: x.Link.ID, Code: x.Link.Code, URLs: []string{x.Link.URL}}
			if v, ok := rows[i]["variants"].([]map[string]any); ok {
				l.URLs = append(l.URLs, v[0]["url"].(string), v[1]["url"].(string))
			}
			r.seeded = append(r.seeded, l)
		}
	}
	t.Logf("seeded %d links in %v", len(r.seeded), time.Since(start).Round(time.Millisecond))
}

// batchAnswer is the batch API's answer.
type batchAnswer struct {
	Results []struct {
		Link  *linkJSON
		Error struct{ Code, Message string }
	}
}

// killNode kills server i with SIGKILL, leaves it down for outage, and starts it again on its
// address; it answers when the server was killed and when it was ready again.
func (r *soakRig) killNode(i int, outage time.Duration) (time.Time, time.Time) {
	p := r.nodes[i]
	down := time.Now()
	p.signal(syscall.SIGKILL)
	_ = p.wait(10 * time.Second)
	time.Sleep(outage)
	r.nodes[i] = r.d.startProcess(r.t, p.name, append([]string{"HTTP_ADDR", r.addrs[i]}, r.nodeOverrides...)...)
	return down, time.Now()
}

// count runs a counting query on the deployment's database.
func (r *soakRig) count(query string, args ...any) int64 {
	var n int64
	r.query(func(c *testenv.Conn, ctx context.Context) error { return c.QueryRow(ctx, query, args...).Scan(&n) })
	return n
}

// memory is the proportional set size, in KiB, of each part: a server, the worker with its
// browser, PostgreSQL's processes, Redis.
func (r *soakRig) memory() map[string]int64 {
	m := map[string]int64{}
	for _, p := range r.nodes {
		m["backend "+p.name] = pss(p.cmd.Process.Pid, false)
	}
	m["worker (with its Chromium)"] = pss(r.worker.cmd.Process.Pid, true)
	if r.services == nil {
		return m
	}
	if pid := r.services.pid("postgres"); pid > 0 {
		m["PostgreSQL (all its processes)"] = pss(pid, true)
	}
	if pid := r.services.pid("redis"); pid > 0 {
		m["Redis"] = pss(pid, false)
	}
	return m
}

// pss reads a process's proportional set size (KiB) from /proc, with its descendants' if asked.
func pss(pid int, family bool) int64 {
	pids := []int{pid}
	if family {
		pids = append(pids, testenv.Descendants(pid)...)
	}
	var sum int64
	for _, p := range pids {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", p))
		if err != nil {
			continue
		}
		for line := range strings.SplitSeq(string(b), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "Pss:" {
				n, _ := strconv.ParseInt(f[1], 10, 64)
				sum += n
			}
		}
	}
	return sum
}

// ownServices are PostgreSQL and Redis of the test's own (deploy/local/services.sh), which it
// may stop and start.
type ownServices struct {
	dir, script           string
	databaseURL, redisURL string
	pgRoot                string
}

func startOwnServices(t *testing.T) *ownServices {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	s := &ownServices{dir: t.TempDir(), script: filepath.Join(root, "deploy/local/services.sh")}
	cmd := exec.Command(s.script, "start", s.dir)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DATABASE_URL=") && !strings.HasPrefix(kv, "REDIS_URL=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("services.sh start: %v\n%s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command(s.script, "stop", s.dir).CombinedOutput(); err != nil {
			t.Errorf("services.sh stop: %v\n%s", err, out)
		}
	})
	for _, f := range []string{"env", "state"} {
		b, err := os.ReadFile(filepath.Join(s.dir, f))
		if err != nil {
			t.Fatal(err)
		}
		for line := range strings.SplitSeq(string(b), "\n") {
			k, v, _ := strings.Cut(strings.TrimPrefix(line, "export "), "=")
			if uq, err := strconv.Unquote(`"` + v + `"`); err == nil && !strings.Contains(v, `"`) {
				v = uq
			}
			switch k {
			case "DATABASE_URL":
				s.databaseURL = v
			case "REDIS_URL":
				s.redisURL = v
			case "PG_ROOT":
				s.pgRoot = v
			}
		}
	}
	if s.databaseURL == "" || s.redisURL == "" || s.pgRoot == "" {
		t.Fatalf("services.sh wrote no addresses to %s", s.dir)
	}
	return s
}

// restart stops one of the services (postgres or redis), leaves it down for outage, and
// starts it again; it answers when it went down and when it was back.
func (s *ownServices) restart(t *testing.T, which string, outage time.Duration) (time.Time, time.Time) {
	t.Helper()
	down := time.Now()
	if out, err := exec.Command(s.script, "down", s.dir, which).CombinedOutput(); err != nil {
		t.Fatalf("services.sh down %s: %v\n%s", which, err, out)
	}
	time.Sleep(outage - time.Since(down))
	if out, err := exec.Command(s.script, "up", s.dir, which).CombinedOutput(); err != nil {
		t.Fatalf("services.sh up %s: %v\n%s", which, err, out)
	}
	return down, time.Now()
}

// pid is the main process of a service, 0 when it is not running.
func (s *ownServices) pid(which string) int {
	file := filepath.Join(s.dir, "redis.pid")
	if which == "postgres" {
		file = filepath.Join(s.pgRoot, "pg", "postmaster.pid")
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return 0
	}
	first, _, _ := strings.Cut(string(b), "\n")
	pid, _ := strconv.Atoi(strings.TrimSpace(first))
	return pid
}

// soakFault is one fault of the run: when the part went down and when it was back, and how
// long requests failed from its start.
type soakFault struct {
	Name       string
	Down, Back time.Time
	// Window is from Down to the last failure until soakGrace after Back; Failures counts them.
	Window   time.Duration
	Failures int
}

// soakSample is when a request began and how long it took.
type soakSample struct {
	At   time.Time
	Took time.Duration
}

// soakFailure is a request that failed.
type soakFailure struct {
	At     time.Time
	Op     soakOp
	Node   string
	Status int // 0: no answer
	What   string
}

// soakLoad is the clients of the run.
type soakLoad struct {
	rig    *soakRig
	start  time.Time
	client *http.Client
	cancel context.CancelFunc
	wg     sync.WaitGroup
	next   atomic.Uint64
	down   [2]atomic.Int64 // until when (Unix ns) a server that refused a connection is skipped

	// Per second of the run: outcomes per operation, and links made.
	counts  [][numSoakOps][numOutcomes]atomic.Int64
	created []atomic.Int64
	retried atomic.Int64 // requests refused at connect and sent to the other server
	// Redirects answered with a 302, and those that failed once sent (the server may have
	// answered, and counted the visit, without the answer arriving).
	answered, unsure atomic.Int64

	mu       sync.Mutex
	failures []soakFailure
	latency  [numSoakOps][]soakSample
	links    []soakLink    // made during the run
	acked    []time.Time   // when each of links was acknowledged
	byID     map[int64]int // index in links
	faults   []soakFault
}

func (r *soakRig) startLoad(dur time.Duration) *soakLoad {
	ctx, cancel := context.WithCancel(context.Background())
	secs := int(dur/time.Second) + 120
	l := &soakLoad{
		rig: r, start: time.Now(), cancel: cancel,
		counts: make([][numSoakOps][numOutcomes]atomic.Int64, secs), created: make([]atomic.Int64, secs),
		byID: map[int64]int{},
		client: &http.Client{
			Timeout:       10 * time.Second,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
			Transport: &http.Transport{MaxIdleConnsPerHost: 64, DisableCompression: true,
				DialContext: (&net.Dialer{Timeout: 2 * time.Second}).DialContext},
		},
	}
	ops := [numSoakOps]func(*rand.Rand, int){
		opRedirect: l.redirect, opCreate: l.create, opBatch: l.batch,
		opEdit: l.edit, opStats: l.stats, opModerate: l.moderate,
	}
	for op, f := range ops {
		if f == nil {
			continue // sent by another op's loop
		}
		rate := r.rates[op]
		for w := range rate.workers {
			l.wg.Add(1)
			go l.pace(ctx, rate.rate/float64(rate.workers), w, f)
		}
	}
	return l
}

// pace calls f rate times a second until ctx ends; after a stall it carries on at the rate
// rather than catching up.
func (l *soakLoad) pace(ctx context.Context, rate float64, w int, f func(*rand.Rand, int)) {
	defer l.wg.Done()
	rng := rand.New(rand.NewPCG(uint64(w), uint64(time.Now().UnixNano())))
	every := time.Duration(float64(time.Second) / rate)
	next := time.Now().Add(time.Duration(rng.Int64N(int64(every))))
	for ctx.Err() == nil {
		if d := time.Until(next); d > 0 {
			select {
			case <-time.After(d):
			case <-ctx.Done():
				return
			}
		}
		f(rng, w)
		next = next.Add(every)
		if time.Since(next) > time.Second {
			next = time.Now()
		}
	}
}

func (l *soakLoad) stop() {
	l.cancel()
	l.wg.Wait()
}

// second is the index of t's second in the run.
func (l *soakLoad) second(t time.Time) int {
	return min(max(int(t.Sub(l.start)/time.Second), 0), len(l.counts)-1)
}

// do sends a request through the load balancer: to the servers in turn, a request refused at
// connect again to the other one. It records the outcome: ok says which statuses the request
// expects. It answers the status and the body of an expected answer (0 and nil otherwise), and
// the outcome.
func (l *soakLoad) do(op soakOp, method, path, token string, body []byte, ok ...int) (int, []byte, int) {
	start := time.Now()
	first := int(l.next.Add(1) % 2)
	var (
		res  *http.Response
		err  error
		node int
	)
	for try := range 2 {
		node = (first + try) % 2
		if try == 0 && l.down[node].Load() > time.Now().UnixNano() {
			continue
		}
		req, _ := http.NewRequest(method, "http://"+l.rig.addrs[node]+path, bytes.NewReader(body))
		if body == nil {
			req.Body = nil
		} else {
			req.Header.Set("Content-Type", "application/json")
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		} else {
			req.Host = shortHost
			req.Header.Set("User-Agent", browserUA)
		}
		res, err = l.client.Do(req)
		var op *net.OpError
		if err != nil && errors.As(err, &op) && op.Op == "dial" && try == 0 {
			l.down[node].Store(time.Now().Add(500 * time.Millisecond).UnixNano())
			l.retried.Add(1)
			continue
		}
		break
	}
	status, out := 0, []byte(nil)
	if err == nil {
		out, err = io.ReadAll(res.Body)
		_ = res.Body.Close()
		status = res.StatusCode
	}
	outcome := outOK
	switch {
	case err != nil:
		outcome = outTransport
	case status >= 500:
		outcome = out5xx
	case !slices.Contains(ok, status):
		outcome = outUnexpected
	}
	now := time.Now()
	l.counts[l.second(now)][op][outcome].Add(1)
	l.mu.Lock()
	l.latency[op] = append(l.latency[op], soakSample{start, now.Sub(start)})
	if outcome != outOK {
		f := soakFailure{At: now, Op: op, Node: string(rune('a' + node)), Status: status}
		if err != nil {
			f.What = err.Error()
		} else {
			f.What = strings.TrimSpace(string(out[:min(len(out), 200)]))
		}
		l.failures = append(l.failures, f)
	}
	l.mu.Unlock()
	if outcome != outOK {
		return 0, nil, outcome
	}
	return status, out, outOK
}

func (l *soakLoad) ws() string { return fmt.Sprintf("/api/v1/workspaces/%d", l.rig.owner.WorkspaceID) }

// redirect asks for a short link the way a browser does: nine in ten of the links made before
// the load, the others made during it.
func (l *soakLoad) redirect(rng *rand.Rand, _ int) {
	code := l.rig.seeded[rng.IntN(len(l.rig.seeded))].Code
	if rng.IntN(10) == 0 {
		l.mu.Lock()
		if n := len(l.links); n > 0 {
			code = l.links[rng.IntN(n)].Code
		}
		l.mu.Unlock()
	}
	switch _, _, outcome := l.do(opRedirect, "GET", "/"+code, "", nil, http.StatusFound); outcome {
	case outOK:
		l.answered.Add(1)
	case outTransport:
		l.unsure.Add(1)
	}
}

func (l *soakLoad) create(rng *rand.Rand, _ int) {
	u := fmt.Sprintf("http://shop-%d.test/c/%d", rng.IntN(soakSites), rng.Int64())
	body, _ := json.Marshal(map[string]any{"url": u})
	status, out, _ := l.do(opCreate, "POST", l.ws()+"/links", l.rig.owner.Key, body, http.StatusCreated)
	if status != http.StatusCreated {
		return
	}
	var lk linkJSON
	if json.Unmarshal(out, &lk) != nil || lk.ID == 0 {
		l.fail(opCreate, "a 201 without a link: %.200s", out)
		return
	}
	l.add(soakLink{ID: lk.ID, Code: lk.Code, URLs: []string{lk.URL}}, 1)
}

func (l *soakLoad) batch(rng *rand.Rand, _ int) {
	rows := make([]map[string]any, soakBatchRows)
	for i := range rows {
		rows[i] = map[string]any{"url": fmt.Sprintf("http://shop-%d.test/b/%d", rng.IntN(soakSites), rng.Int64())}
	}
	body, _ := json.Marshal(map[string]any{"links": rows})
	status, out, _ := l.do(opBatch, "POST", l.ws()+"/links/batch", l.rig.owner.Key, body, http.StatusOK, http.StatusCreated)
	if status == 0 {
		return
	}
	var a batchAnswer
	if json.Unmarshal(out, &a) != nil || len(a.Results) != soakBatchRows {
		l.fail(opBatch, "a batch answer without its rows: %.200s", out)
		return
	}
	for _, x := range a.Results {
		if x.Link == nil {
			l.fail(opBatch, "a row refused: %s %s", x.Error.Code, x.Error.Message)
			continue
		}
		l.add(soakLink{ID: x.Link.ID, Code: x.Link.Code, URLs: []string{x.Link.URL}}, 1)
	}
}

// edit changes the destination of a link made during the run. Worker w edits only the links
// whose ID is w modulo the edit workers, so that each link's edits come one after the other.
func (l *soakLoad) edit(rng *rand.Rand, w int) {
	n := l.rig.rates[opEdit].workers
	var lk soakLink
	l.mu.Lock()
	for range 20 {
		if len(l.links) == 0 {
			break
		}
		if c := l.links[rng.IntN(len(l.links))]; int(c.ID%int64(n)) == w {
			lk = c
			break
		}
	}
	l.mu.Unlock()
	if lk.ID == 0 {
		return
	}
	u := fmt.Sprintf("http://shop-%d.test/e/%d/%d", rng.IntN(soakSites), lk.ID, rng.Int64())
	body, _ := json.Marshal(map[string]any{"url": u})
	if l.rig.onEditSent != nil {
		l.rig.onEditSent(lk, u)
	}
	status, _, _ := l.do(opEdit, "PATCH", fmt.Sprintf("%s/links/%d", l.ws(), lk.ID), l.rig.owner.Key, body, http.StatusOK)
	l.mu.Lock()
	i := l.byID[lk.ID]
	if status == http.StatusOK {
		l.links[i].URLs = []string{u}
	} else {
		// Not acknowledged: it may or may not have been written.
		l.links[i].URLs = append(l.links[i].URLs, u)
	}
	l.mu.Unlock()
	if status == http.StatusOK && l.rig.onEdit != nil {
		l.rig.onEdit(lk, u)
	}
}

// stats reads a link's statistics or the workspace's dashboard.
func (l *soakLoad) stats(rng *rand.Rand, _ int) {
	path := l.ws() + "/stats"
	if rng.IntN(2) == 0 {
		path = fmt.Sprintf("%s/links/%d/stats", l.ws(), l.rig.seeded[rng.IntN(len(l.rig.seeded))].ID)
	}
	l.do(opStats, "GET", path, l.rig.owner.Key, nil, http.StatusOK)
}

// moderate reads the moderators' queue of links waiting for their first review and approves
// one of them.
func (l *soakLoad) moderate(rng *rand.Rand, _ int) {
	status, out, _ := l.do(opModerate, "GET", "/api/v1/moderation/queue?state=pending&limit=20", l.rig.modToken, nil, http.StatusOK)
	if status == 0 {
		return
	}
	var q struct {
		Items []struct {
			Link struct{ ID int64 } `json:"link"`
		} `json:"items"`
	}
	_ = json.Unmarshal(out, &q)
	if len(q.Items) == 0 {
		return
	}
	id := q.Items[rng.IntN(len(q.Items))].Link.ID
	// The worker may have decided the link meanwhile: 409 is an answer too.
	l.do(opDecide, "POST", fmt.Sprintf("/api/v1/moderation/links/%d/decision", id), l.rig.modToken,
		[]byte(`{"action":"approve","note":"checked by hand"}`), http.StatusOK, http.StatusConflict)
}

// add records an acknowledged link.
func (l *soakLoad) add(lk soakLink, n int64) {
	l.created[l.second(time.Now())].Add(n)
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, dup := l.byID[lk.ID]; dup {
		l.failures = append(l.failures, soakFailure{At: time.Now(), Op: opCreate, What: fmt.Sprintf("link %d acknowledged twice", lk.ID)})
		return
	}
	l.byID[lk.ID] = len(l.links)
	l.links = append(l.links, lk)
	l.acked = append(l.acked, time.Now())
}

// fail records a failure found in an answer that was otherwise fine.
func (l *soakLoad) fail(op soakOp, format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.failures = append(l.failures, soakFailure{At: time.Now(), Op: op, What: fmt.Sprintf(format, args...), Status: -1})
}
