package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/browsertest"
	"github.com/shortlink/shortlink/backend/moderation"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/redis"
	"github.com/shortlink/shortlink/backend/testenv"
	"github.com/shortlink/shortlink/worker/browse"
	"github.com/shortlink/shortlink/worker/review"
	"github.com/shortlink/shortlink/worker/score"
)

// The moderation worker's tests (moderation_worker_test.go) share, per test binary, one local
// web server for the destinations of their links (siteServer: it answers by host name) and one
// moderation browser — real Chromium through playwright-go — whose BROWSER_HOST_RULES map every
// *.test host to that server, with loopback allowed (MODERATION_ALLOW_LOOPBACK).
var modRig struct {
	once    sync.Once
	sites   *siteServer
	browser *browse.Browser
	err     error
}

// rigPageTimeout is each visitor's time limit in the shared browser: generous, for a machine
// busy with other tests.
const rigPageTimeout = 20 * time.Second

// moderationRig starts the shared site server and browser on first use.
func moderationRig(t *testing.T) (*siteServer, *browse.Browser) {
	t.Helper()
	needRigDatabase(t)
	modRig.once.Do(func() {
		modRig.sites = newSiteServer()
		modRig.browser, modRig.err = browse.New(browse.Options{
			DriverDir: browsertest.DriverDir(), ChromiumPath: browsertest.PagesChromiumPath(),
			HostRules: modRig.sites.hostRules(), AllowLoopback: true, Concurrency: 2,
			Timeout: rigPageTimeout, Log: rigLog(),
		})
	})
	if modRig.err != nil {
		t.Fatalf("moderation browser: %v", modRig.err)
	}
	return modRig.sites, modRig.browser
}

// newModerationBrowser is a moderation browser of t's own, with the test's Chromium and driver.
func newModerationBrowser(t *testing.T, o browse.Options) *browse.Browser {
	t.Helper()
	needRigDatabase(t)
	o.DriverDir, o.ChromiumPath, o.Log = browsertest.DriverDir(), browsertest.PagesChromiumPath(), rigLog()
	b, err := browse.New(o)
	if err != nil {
		t.Fatalf("moderation browser: %v", err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b
}

// needRigDatabase says, before a browser starts or a binary is built (seconds, a minute on a
// busy machine), that the test needs the database: every test of the moderation browser and of
// the worker's process runs a deployment.
func needRigDatabase(t *testing.T) {
	t.Helper()
	testenv.NeedEnv(t, "DATABASE_URL", "PostgreSQL", "`make test` starts it")
}

// closeModerationRig stops what moderationRig started and removes the worker binary
// workerBinary built (from TestMain).
func closeModerationRig() {
	if modRig.browser != nil {
		_ = modRig.browser.Close()
	}
	if modRig.sites != nil {
		modRig.sites.close()
	}
	if workerBin.dir != "" {
		_ = os.RemoveAll(workerBin.dir)
	}
}

// rigLog is the shared browser's log: on stderr at warning level under -v, nowhere otherwise.
func rigLog() *slog.Logger {
	if testing.Verbose() {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// siteServer is the web the moderation browser sees: one loopback server answering each host
// name with the handler a test gave it, counting requests per host.
type siteServer struct {
	srv   *httptest.Server
	mu    sync.Mutex
	hosts map[string]http.Handler
	hits  map[string]int
	// done is closed when the server closes: handlers that hang return.
	done chan struct{}
}

func newSiteServer() *siteServer {
	s := &siteServer{hosts: map[string]http.Handler{}, hits: map[string]int{}, done: make(chan struct{})}
	s.srv = httptest.NewServer(s)
	return s
}

func (s *siteServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	s.mu.Lock()
	s.hits[host]++
	h := s.hosts[host]
	s.mu.Unlock()
	if h == nil {
		http.NotFound(w, r)
		return
	}
	h.ServeHTTP(w, r)
}

// handle serves host with h until t ends. Tests run side by side: each serves host names of
// its own, and the requests counted for a host are its test's.
func (s *siteServer) handle(t *testing.T, host string, h http.HandlerFunc) {
	t.Helper()
	s.mu.Lock()
	_, taken := s.hosts[host]
	if !taken {
		s.hosts[host] = h
		s.hits[host] = 0
	}
	s.mu.Unlock()
	if taken {
		t.Fatalf("%s is served for another test: give this test a host name of its own", host)
	}
	t.Cleanup(func() {
		s.mu.Lock()
		delete(s.hosts, host)
		s.mu.Unlock()
	})
}

// html serves host with one page.
func (s *siteServer) html(t *testing.T, host, page string) {
	s.handle(t, host, func(w http.ResponseWriter, _ *http.Request) { writeHTML(w, page) })
}

// hang serves host with an answer that never comes: the request waits until the client gives
// up (or the server closes).
func (s *siteServer) hang(t *testing.T, host string) {
	s.handle(t, host, func(_ http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-s.done:
		}
	})
}

func (s *siteServer) requests(host string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[host]
}

func (s *siteServer) port() string {
	_, port, _ := net.SplitHostPort(s.srv.Listener.Addr().String())
	return port
}

// hostRules are the BROWSER_HOST_RULES that send every *.test host to this server.
func (s *siteServer) hostRules() string { return "MAP *.test 127.0.0.1:" + s.port() }

func (s *siteServer) close() {
	close(s.done)
	s.srv.Close()
}

func writeHTML(w http.ResponseWriter, page string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = io.WriteString(w, page)
}

// The destinations of the tests.
const (
	shopPage = `<!doctype html><html><head><title>Corner Shop – tea and biscuits</title>
<meta name="description" content="A small family shop selling tea, coffee and biscuits since 1990.">
</head><body><h1>Corner Shop</h1><p>Loose-leaf tea, fresh coffee beans and home-made biscuits.
Open Monday to Saturday, nine to six.</p><p>Find us next to the library.</p></body></html>`

	// bankLoginPage imitates PayPal's sign-in page; it is served on a look-alike host.
	bankLoginPage = `<!doctype html><html><head><title>PayPal: Log in to your account</title>
<meta name="description" content="Log in to your PayPal account to confirm your identity.">
</head><body><h1>PayPal</h1><p>Your account has been limited. Log in to restore access.</p>
<form action="/signin" method="post"><input name="email" type="email" placeholder="Email">
<input name="password" type="password" placeholder="Password"><button>Log In</button></form>
</body></html>`

	newsPage = `<!doctype html><html><head><title>Garden News – spring planting</title>
<meta name="description" content="What to plant in April.">
</head><body><h1>Spring planting</h1><p>April is the month for sowing peas, beans and lettuce
outdoors. Cover young plants on cold nights.</p></body></html>`

	// wechatLoginPage is what the cloaked site shows WeChat's browser only.
	wechatLoginPage = `<!doctype html><html><head><title>微信支付 - 账户安全验证</title>
<meta name="description" content="您的微信支付账户存在风险，请立即验证。">
</head><body><h1>微信支付</h1><p>您的账户存在异常，请输入银行卡密码完成验证。</p>
<form action="/verify" method="post"><input name="phone" placeholder="手机号">
<input name="password" type="password" placeholder="支付密码"><button>验证</button></form>
</body></html>`
)

// cloakedSite shows the WeChat login to user agents with MicroMessenger and the news page to
// everyone else.
func cloakedSite(w http.ResponseWriter, r *http.Request) {
	if strings.Contains(r.UserAgent(), "MicroMessenger") {
		writeHTML(w, wechatLoginPage)
		return
	}
	writeHTML(w, newsPage)
}

// modStores are a deployment's moderation store and queue, as the worker opens them.
type modStores struct {
	db    *postgres.DB
	rdb   *redis.Inspector
	store *postgres.Moderation
	queue *moderation.Queue
	key   string
	// worker is the worker runWorker started last.
	worker *review.Worker
}

func moderationStores(t *testing.T, d *deployment) *modStores {
	t.Helper()
	db := d.db(t)
	rdb := d.redis(t)
	prefix := d.env["REDIS_PREFIX"]
	rc, err := redis.Open(context.Background(), d.env["REDIS_URL"], prefix)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rc.Close() })
	return &modStores{db: db, rdb: rdb, store: postgres.NewModeration(db), queue: moderation.NewQueue(redis.NewReviewQueue(rc)),
		key: moderation.DueKey(prefix)}
}

// runWorker runs a moderation worker in this process on the deployment, as bin/shortlink-worker
// does but with the test's browser, scorer and rhythm (o's zero fields: concurrency 2, poll
// every 100 ms, visibility 30 s). The returned function stops it (SIGTERM's path: reviews under
// way are given back); it also stops when t ends.
func (ms *modStores) runWorker(t *testing.T, o review.Options) (stop func()) {
	t.Helper()
	// The worker drives Chromium; taken here, after the deployment made t parallel: a turn
	// held by a test paused for the serial ones would stop those that need one.
	browsertest.Turn(t)
	o.Store, o.Queue, o.Base = ms.store, ms.queue, "http://"+shortHost
	if o.Concurrency == 0 {
		o.Concurrency = 2
	}
	if o.Poll == 0 {
		o.Poll = 100 * time.Millisecond
	}
	if o.Visibility == 0 {
		o.Visibility = 30 * time.Second
	}
	if o.BlindBackoff == 0 {
		// A capture a loaded machine let time out is tried again soon, not after 30 s.
		o.BlindBackoff = 200 * time.Millisecond
	}
	o.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	if testing.Verbose() {
		w := &testWriter{t: t}
		t.Cleanup(w.close)
		o.Log = slog.New(slog.NewTextHandler(w, nil))
	}
	w := review.New(o)
	ms.worker = w
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		w.Run(ctx)
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				t.Errorf("the worker did not stop within 30 s")
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

// afterWorkerRounds waits until the worker runWorker started last has finished two more rounds
// and has no review under way: a round began after the call, and the reviews it started are
// recorded.
func (ms *modStores) afterWorkerRounds(t *testing.T) {
	t.Helper()
	w := ms.worker
	from := w.Polls()
	eventually(t, 30*time.Second, "two more rounds of the worker, no review under way", func() bool {
		return w.Polls() >= from+2 && w.Reviewing() == 0
	})
}

// reviewCount is how many reviews of the link are stored.
func (ms *modStores) reviewCount(t *testing.T, linkID int64) int {
	t.Helper()
	var n int
	if err := ms.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM link_reviews WHERE link_id = $1`, linkID).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// dueRow is the link's row in moderation_due: whether there is one, and its reason and visits.
func (ms *modStores) dueRow(t *testing.T, linkID int64) (ok bool, reason string, visits int64) {
	t.Helper()
	err := ms.db.Pool.QueryRow(context.Background(), `SELECT reason, visits FROM moderation_due WHERE link_id = $1`, linkID).Scan(&reason, &visits)
	if testenv.NoRows(err) {
		return false, "", 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return true, reason, visits
}

// queued is the link's score in the Redis queue (its due time), and whether it is there.
func (ms *modStores) queued(t *testing.T, linkID int64) (time.Time, bool) {
	t.Helper()
	s, found, err := ms.rdb.ZScore(context.Background(), ms.key, strconv.FormatInt(linkID, 10))
	if err != nil {
		t.Fatal(err)
	}
	if !found {
		return time.Time{}, false
	}
	return time.UnixMilli(int64(s)), true
}

// endClaim moves the end of a worker's claim on the link (its score in the Redis queue) to now,
// as if its visibility had passed: the next worker's round takes the link again.
func (ms *modStores) endClaim(t *testing.T, linkID int64) {
	t.Helper()
	ok, err := ms.rdb.ZAddExisting(context.Background(), ms.key, strconv.FormatInt(linkID, 10), float64(time.Now().UnixMilli()))
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		t.Fatalf("link %d is not in the review queue: no claim to end", linkID)
	}
}

// expectSettled fails t if the link, named what in the failure, is still due or queued for a
// review after one.
func (ms *modStores) expectSettled(t *testing.T, id int64, what string) {
	t.Helper()
	if ok, _, _ := ms.dueRow(t, id); ok {
		t.Errorf("%s is still due after its review", what)
	}
	if _, ok := ms.queued(t, id); ok {
		t.Errorf("%s is still queued after its review", what)
	}
}

// waitReviewed waits until the link's state is no longer pending, and answers the link.
func (s *server) waitReviewed(tn tenant, id int64, within time.Duration) moderatedLink {
	s.t.Helper()
	var l moderatedLink
	eventually(s.t, within, fmt.Sprintf("a review of link %d", id), func() bool {
		l = s.getLink(tn, id)
		return l.Moderation.State != "pending"
	})
	return l
}

// modFileJSON is GET /api/v1/moderation/links/{id}.
type modFileJSON struct {
	Link    moderatedLink `json:"link"`
	Reviews []reviewJSON  `json:"reviews"`
}

type reviewJSON struct {
	ID         int64         `json:"id"`
	URL        string        `json:"url"`
	Trigger    string        `json:"trigger"`
	Score      float64       `json:"score"`
	Category   string        `json:"category"`
	Reason     string        `json:"reason"`
	Scorer     string        `json:"scorer"`
	Model      string        `json:"model"`
	Notes      []string      `json:"notes"`
	DurationMS int64         `json:"duration_ms"`
	Captures   []captureJSON `json:"captures"`
}

type captureJSON struct {
	Profile   string   `json:"profile"`
	URL       string   `json:"url"`
	Title     string   `json:"title"`
	FinalURL  string   `json:"final_url"`
	Redirects []string `json:"redirects"`
	Status    int      `json:"status"`
	Forms     []struct {
		Action   string `json:"action"`
		Password bool   `json:"password"`
	} `json:"forms"`
	Error         string  `json:"error"`
	DurationMS    int64   `json:"duration_ms"`
	ScreenshotURL *string `json:"screenshot_url"`
}

func (c captureJSON) password() bool {
	for _, f := range c.Forms {
		if f.Password {
			return true
		}
	}
	return false
}

// modFile reads a link's moderation file as a moderator.
func (s *server) modFile(token string, id int64) modFileJSON {
	s.t.Helper()
	r := s.do("GET", fmt.Sprintf("/api/v1/moderation/links/%d", id), token, nil)
	return answer[modFileJSON](s.t, r, http.StatusOK, fmt.Sprintf("the file of link %d", id))
}

// about says whether a call to the model is about a destination on host.
func about(c testenv.ChatCall, host string) bool {
	for _, tx := range c.Texts {
		if strings.Contains(tx, "Link URL: http://"+host+"/") {
			return true
		}
	}
	return false
}

// callsAbout are the model's calls about destinations on host.
func callsAbout(m *testenv.ChatModel, host string) []testenv.ChatCall {
	var out []testenv.ChatCall
	for _, c := range m.Calls() {
		if about(c, host) {
			out = append(out, c)
		}
	}
	return out
}

// verdictJSON is a model's answer.
func verdictJSON(score float64, category, reason string) string {
	b, _ := json.Marshal(map[string]any{"score": score, "category": category, "reason": reason})
	return string(b)
}

// modelScorer is the worker's scorer chain with the fake model behind it, asked about every
// page, those the heuristics are certain of too: these tests follow the model's path and count
// its calls (the worker's default skips the certain ones; worker/score's TestChain* test that).
func modelScorer(t *testing.T, m *testenv.ChatModel, timeout time.Duration) *score.Chain {
	t.Helper()
	sc, err := score.New(score.Config{Model: score.ModelConfig{BaseURL: m.URL(), APIKey: "test-key",
		Model: "fake-vision", Timeout: timeout}, AskModelAlways: true})
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// heuristicScorer is the worker's scorer chain without a model.
func heuristicScorer(t *testing.T) *score.Chain {
	t.Helper()
	sc, err := score.New(score.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// workerBin is bin/shortlink-worker, built once per test binary by workerBinary for the tests
// that run it, and removed by closeModerationRig.
var workerBin struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// workerBinary builds bin/shortlink-worker on first use, into a temporary folder of its own,
// and answers its path.
func workerBinary(t *testing.T) string {
	t.Helper()
	// Every test that runs a process of its own needs the database: say so before building.
	needRigDatabase(t)
	workerBin.once.Do(func() {
		workerBin.dir, workerBin.err = os.MkdirTemp("", "shortlink-worker-bin-")
		if workerBin.err != nil {
			return
		}
		bin := filepath.Join(workerBin.dir, "shortlink-worker")
		start := time.Now()
		out, err := exec.Command("go", "build", "-o", bin, "github.com/shortlink/shortlink/worker/cmd/shortlink-worker").CombinedOutput()
		if err != nil {
			workerBin.err = fmt.Errorf("go build shortlink-worker: %v\n%s", err, out)
			return
		}
		workerBin.path = bin
		t.Logf("built shortlink-worker in %v", time.Since(start).Round(time.Millisecond))
	})
	if workerBin.err != nil {
		t.Fatal(workerBin.err)
	}
	return workerBin.path
}

// workerProcess is a running bin/shortlink-worker.
type workerProcess struct {
	cmd    *exec.Cmd
	exited chan struct{}
	err    error // Wait's, once exited is closed
}

// startWorkerProcess runs the worker binary on the deployment with its settings in env, its
// log in the test's output under -v.
func startWorkerProcess(t *testing.T, d *deployment, bin string, env ...string) *workerProcess {
	t.Helper()
	browsertest.Turn(t)
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(),
		"DATABASE_URL="+d.env["DATABASE_URL"], "REDIS_URL="+d.env["REDIS_URL"], "REDIS_PREFIX="+d.env["REDIS_PREFIX"],
		"PUBLIC_URL=http://"+shortHost, "WORKER_ADDR=127.0.0.1:0",
		"CHROMIUM_PATH="+browsertest.ChromiumPath(), "PLAYWRIGHT_DRIVER_PATH="+browsertest.DriverDir(),
		"OPENAI_BASE_URL=", "OPENAI_API_KEY=", "MODERATION_MODEL=",
		// A capture a loaded machine let time out is tried again soon, not after 30 s.
		"MODERATION_BLIND_BACKOFF=1s")
	cmd.Env = append(cmd.Env, env...)
	// Its log is shown under -v, and when the test fails.
	logged := &logBuffer{}
	cmd.Stderr = logged
	if testing.Verbose() {
		w := &testWriter{t: t}
		t.Cleanup(w.close)
		cmd.Stderr = io.MultiWriter(logged, w)
	}
	t.Cleanup(func() {
		if t.Failed() && !testing.Verbose() {
			t.Logf("the worker process's log:\n%s", logged.String())
		}
	})
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &workerProcess{cmd: cmd, exited: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-p.exited:
		default:
			_ = cmd.Process.Kill()
			<-p.exited
		}
	})
	return p
}

// wait waits for the process to exit, at most within.
func (p *workerProcess) wait(t *testing.T, within time.Duration) error {
	t.Helper()
	select {
	case <-p.exited:
		return p.err
	case <-time.After(within):
		t.Fatalf("the worker process did not exit within %v", within)
		return nil
	}
}
