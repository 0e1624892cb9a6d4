package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/app"
	"github.com/shortlink/shortlink/backend/config"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/redis"
	"github.com/shortlink/shortlink/backend/testenv"
)

// shortHost is the short domain of every test deployment.
const shortHost = "sho.rt"

// deployment is a database and a Redis namespace that several server processes can share.
type deployment struct {
	env map[string]string
	// mailbox receives the deployment's mail (SMTP_URL).
	mailbox *testenv.Mailbox
	// logs, when set, receives the log lines of the servers started afterwards, from level
	// info up.
	logs *logBuffer
	// now, when set, is the clock of the two-factor codes and their lockouts in the servers
	// started afterwards (app.UseClock).
	now func() time.Time
	// fullHashes makes the servers started afterwards hash passwords at a deployment's cost;
	// without it they hash at argon2id's least (config.PasswordHashLight), for speed: every
	// walk signs up and in.
	fullHashes bool
}

// logBuffer keeps log lines for a test to read, written and read from any goroutine.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String is what was logged so far.
func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// lines returns the lines logged so far.
func (b *logBuffer) lines() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Split(strings.TrimSpace(b.buf.String()), "\n")
}

// newDeployment is a deployment of t's own: a fresh database and Redis prefix. Owning them, t
// runs in parallel with the other tests that do (t.Parallel).
func newDeployment(t *testing.T) *deployment {
	t.Helper()
	if _, marked := parallelTests.LoadOrStore(t, true); !marked {
		t.Cleanup(func() { parallelTests.Delete(t) })
		t.Parallel()
	}
	return newSerialDeployment(t)
}

// parallelTests are the tests newDeployment has marked parallel: a test may make several
// deployments, and t.Parallel may be called once only.
var parallelTests sync.Map

// newSerialDeployment is newDeployment for a test that must not run beside others: one that
// reads the process's counters, or times what a busy machine would slow down. Its caller says
// why.
func newSerialDeployment(t *testing.T) *deployment {
	t.Helper()
	return newDeploymentOn(t, testenv.DatabaseURL(t), testenv.RedisURL(t), testenv.RedisPrefix(t))
}

// newDeploymentOn is a deployment on the given database and Redis.
func newDeploymentOn(t *testing.T, databaseURL, redisURL, redisPrefix string) *deployment {
	t.Helper()
	box := testenv.SMTP(t)
	return &deployment{mailbox: box, env: map[string]string{
		"SMTP_URL":          box.URL,
		"DATABASE_URL":      databaseURL,
		"REDIS_URL":         redisURL,
		"REDIS_PREFIX":      redisPrefix,
		"HTTP_ADDR":         "127.0.0.1:0",
		"PUBLIC_URL":        "http://" + shortHost,
		"JWT_SECRET":        "test-secret-test-secret-test-secret-0123",
		"CODE_KEY":          "2b7e151628aed2a6abf7158809cf4f3c",
		"OPERATOR_EMAIL":    "operator@sho.rt",
		"OPERATOR_PASSWORD": "operator-password",
		"ID_BLOCK_SIZE":     "50",
		// A machine running two test suites can take seconds over a sign-up's password hash;
		// the tests of the deadline itself set their own.
		"WRITE_TIMEOUT": "30s",
		// Generous API rate limits: tests send many requests from one address and one
		// workspace; and members without limit: tests invite people into free workspaces. The
		// rate-limit and plan tests set their own; a test's PLAN_LIMITS is applied after these
		// (tryStart).
		"RATE_LIMIT_ANONYMOUS": "1000000",
		"PLAN_LIMITS":          generousLimits,
		// Link health checks links' destinations (mostly made-up hosts) in the background: only
		// the tests of link health turn it on.
		"HEALTH_CHECK": "false",
		// A walk signs its people up when it starts and may wait for a browser long after on a
		// busy machine: their access tokens outlive the suite (a test of expiry sets its own).
		"ACCESS_TOKEN_TTL": "3h",
	}}
}

// db opens a pool on the deployment's database, for a test to read or change it directly;
// it closes when t ends.
func (d *deployment) db(t *testing.T) *postgres.DB {
	t.Helper()
	db, err := postgres.Open(context.Background(), d.env["DATABASE_URL"])
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	return db
}

// conn is one connection to the deployment's database, closed when t ends.
func (d *deployment) conn(t *testing.T) *testenv.Conn {
	t.Helper()
	return testenv.OpenConn(t, d.env["DATABASE_URL"])
}

// redis looks into the deployment's Redis (its keys start with REDIS_PREFIX); it closes when t
// ends.
func (d *deployment) redis(t *testing.T) *redis.Inspector {
	t.Helper()
	return testenv.RedisInspector(t, d.env["REDIS_URL"])
}

// generousLimits lifts every plan's requests_per_minute, and the free plan's members, out of the
// tests' way.
const generousLimits = "free.requests_per_minute=1000000,trial.requests_per_minute=1000000," +
	"personal.requests_per_minute=1000000,enterprise.requests_per_minute=1000000,free.members=unlimited"

// server is one running Shortlink process of a deployment.
type server struct {
	t    *testing.T
	app  *app.App
	base string
	done chan error
	// mailbox receives what the server mails.
	mailbox *testenv.Mailbox
}

func (d *deployment) start(t *testing.T, overrides ...string) *server {
	t.Helper()
	s, err := d.tryStart(t, overrides...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// tryStart is start answering the error of a server that refuses to start.
func (d *deployment) tryStart(t *testing.T, overrides ...string) (*server, error) {
	t.Helper()
	env := map[string]string{}
	for k, v := range d.env {
		env[k] = v
	}
	for i := 0; i+1 < len(overrides); i += 2 {
		k, v := overrides[i], overrides[i+1]
		if k == "PLAN_LIMITS" && env[k] != "" && v != "" {
			v = env[k] + "," + v // later items win
		}
		env[k] = v
	}
	cfg, err := config.FromMap(env)
	if err != nil {
		t.Fatal(err)
	}
	cfg.PasswordHashLight = !d.fullHashes
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if testing.Verbose() {
		w := &testWriter{t: t}
		t.Cleanup(w.close)
		log = slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	if d.logs != nil {
		log = slog.New(slog.NewTextHandler(d.logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
	}
	a, err := app.New(context.Background(), cfg, log)
	if err != nil {
		return nil, err
	}
	if d.now != nil {
		a.UseClock(d.now)
	}
	if err := a.Listen(); err != nil {
		t.Fatal(err)
	}
	s := &server{t: t, app: a, base: "http://" + a.Addr(), done: make(chan error, 1), mailbox: d.mailbox}
	go func() { s.done <- a.Run(context.Background()) }()
	t.Cleanup(s.stop)
	return s, nil
}

func (s *server) stop() {
	if s.app == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.app.Close(ctx); err != nil {
		s.t.Errorf("close: %v", err)
	}
	if err := <-s.done; err != nil {
		s.t.Errorf("run: %v", err)
	}
	s.app = nil
}

// testWriter logs a server's lines in its test's output, until the test ends (a line logged by a
// background loop afterwards is dropped: testing refuses logs of a finished test).
type testWriter struct {
	t      *testing.T
	mu     sync.Mutex
	closed bool
}

func (w *testWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.closed {
		w.t.Log(strings.TrimSpace(string(p)))
	}
	return len(p), nil
}

func (w *testWriter) close() {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
}

// eventually polls check until it holds, failing t after within (testenv.Eventually).
func eventually(t testing.TB, within time.Duration, what string, check func() bool) {
	t.Helper()
	testenv.Eventually(t, within, what, check)
}

// noRedirect is a client that reports redirects instead of following them. Its timeout is the
// tests' patience, not a claim: a sign-up's hash and transaction took 10.6 s on a machine
// running two test suites; the server's own deadline (WRITE_TIMEOUT, 30 s here) comes first.
var noRedirect = &http.Client{
	Timeout:       time.Minute,
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// response is an answer with its body read.
type response struct {
	Status int
	Header http.Header
	Body   []byte
}

func (r response) json(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decode %s: %v", r.Body, err)
	}
}

// answer fails the test unless r has the status, and returns its body decoded; what names the
// request in the failure.
func answer[T any](t *testing.T, r response, status int, what string) T {
	t.Helper()
	if r.Status != status {
		t.Fatalf("%s: %d %s", what, r.Status, r.Body)
	}
	var v T
	r.json(t, &v)
	return v
}

// errorCode returns the code of an error answer, failing when the body is not the error shape.
func (r response) errorCode(t *testing.T) string {
	t.Helper()
	var e struct {
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(r.Body, &e); err != nil || e.Error.Code == "" || e.Error.Message == "" {
		t.Fatalf("status %d body %q is not {\"error\":{\"code\",\"message\"}}", r.Status, r.Body)
	}
	return e.Error.Code
}

// do sends a request with an optional bearer token and JSON body (a string is sent as is).
func (s *server) do(method, path, token string, body any) response {
	s.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		buf, err := json.Marshal(b)
		if err != nil {
			s.t.Fatal(err)
		}
		rd = bytes.NewReader(buf)
	}
	req, err := http.NewRequest(method, s.base+path, rd)
	if err != nil {
		s.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if b, ok := body.([]byte); ok && http.DetectContentType(b) == "image/png" {
		req.Header.Set("Content-Type", "image/png") // a logo, as openapi.json describes it
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return s.send(req)
}

func (s *server) send(req *http.Request) response {
	s.t.Helper()
	var sent []byte
	if req.Body != nil {
		sent, _ = io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(sent))
	}
	res, err := noRedirect.Do(req)
	if err != nil {
		s.t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer func() { _ = res.Body.Close() }()
	b, _ := io.ReadAll(res.Body)
	r := response{Status: res.StatusCode, Header: res.Header, Body: b}
	checkAgainstDoc(s.t, req, sent, r)
	return r
}

// visit requests a short link on the short domain, the way a visitor's browser would.
func (s *server) visit(method, path string) response {
	s.t.Helper()
	req, err := http.NewRequest(method, s.base+path, nil)
	if err != nil {
		s.t.Fatal(err)
	}
	req.Host = shortHost
	return s.send(req)
}

// tenant is a signed-up user with their first workspace and an API key for it.
type tenant struct {
	UserID      int64
	WorkspaceID int64
	Token       string // the user's access token
	Key         string // a links:read+links:write+stats:read API key
}

func (s *server) signup(email string) tenant {
	s.t.Helper()
	r := s.do("POST", "/api/v1/auth/signup", "", map[string]string{"email": email, "password": "correct horse battery"})
	out := answer[struct {
		User        struct{ ID int64 }
		Workspace   struct{ ID int64 }
		AccessToken string `json:"access_token"`
	}](s.t, r, http.StatusCreated, "signup "+email)
	tn := tenant{UserID: out.User.ID, WorkspaceID: out.Workspace.ID, Token: out.AccessToken}
	r = s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/api-keys", tn.WorkspaceID), tn.Token,
		map[string]any{"name": "tests", "scopes": []string{"links:read", "links:write", "stats:read"}})
	tn.Key = answer[struct{ Key string }](s.t, r, http.StatusCreated, "create api key").Key
	return tn
}

// verify follows the verification link in the next mail to email the way a person does: the
// link opens the web app, whose page posts the link's token to the API.
func (s *server) verify(email string) {
	s.t.Helper()
	link := s.mailbox.WaitSubject(s.t, email, "Confirm your email address").Link(s.t)
	u, err := url.Parse(link)
	if err != nil || u.Path != "/app/verify" || u.Query().Get("token") == "" {
		s.t.Fatalf("verification link %q", link)
	}
	if r := s.visit("GET", u.RequestURI()); r.Status != http.StatusOK || !strings.Contains(string(r.Body), "<html") {
		s.t.Fatalf("the link's page: %d %.100s", r.Status, r.Body)
	}
	r := s.do("POST", "/api/v1/auth/verify-email", "", map[string]string{"token": u.Query().Get("token")})
	if r.Status != http.StatusOK {
		s.t.Fatalf("verify %s: %d %s", email, r.Status, r.Body)
	}
}

// linkJSON is a link as the API shows it.
type linkJSON struct {
	ID             int64  `json:"id"`
	Code           string `json:"code"`
	ShortURL       string `json:"short_url"`
	URL            string `json:"url"`
	Title          string `json:"title"`
	Status         string `json:"status"`
	RedirectStatus int    `json:"redirect_status"`
}

func (s *server) createLink(tn tenant, body map[string]any) linkJSON {
	s.t.Helper()
	r := s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/links", tn.WorkspaceID), tn.Key, body)
	return answer[linkJSON](s.t, r, http.StatusCreated, fmt.Sprintf("create link %v", body))
}

// signupOn signs email up and puts the new workspace on plan.
func (s *server) signupOn(email, plan string) tenant {
	s.t.Helper()
	tn := s.signup(email)
	s.setPlan(tn, plan)
	return tn
}

// joined signs email up, verifies it, and has it accept owner's invitation into owner's
// workspace with role; the tenant it returns is the new account in its own first workspace.
func (s *server) joined(owner tenant, email, role string) tenant {
	s.t.Helper()
	tn := s.signup(email)
	s.verify(email)
	r := s.do("POST", fmt.Sprintf("/api/v1/workspaces/%d/invitations", owner.WorkspaceID), owner.Token, map[string]any{"email": email, "role": role})
	inv := answer[struct{ ID int64 }](s.t, r, http.StatusCreated, "invite "+email)
	r = s.do("POST", fmt.Sprintf("/api/v1/me/invitations/%d/accept", inv.ID), tn.Token, nil)
	if r.Status != http.StatusOK {
		s.t.Fatalf("accept: %d %s", r.Status, r.Body)
	}
	return tn
}

// setPlan puts the tenant's workspace on plan, as an operator does.
func (s *server) setPlan(tn tenant, plan string) {
	s.t.Helper()
	r := s.do("PATCH", fmt.Sprintf("/api/v1/admin/workspaces/%d", tn.WorkspaceID), s.operatorToken(), map[string]any{"plan": plan})
	if r.Status != http.StatusOK {
		s.t.Fatalf("set plan %s: %d %s", plan, r.Status, r.Body)
	}
}
