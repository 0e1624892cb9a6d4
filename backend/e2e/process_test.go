package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/testenv"
)

// The server binary, built once per test binary for the tests that run real processes (so that
// SIGTERM and SIGKILL are the real thing); go build is cached, so this takes seconds.
var (
	binaryOnce sync.Once
	binaryDir  string
	binaryPath string
	binaryErr  error
)

func serverBinary(t *testing.T) string {
	t.Helper()
	// Every test that runs a process of its own needs the database: say so before building.
	testenv.NeedEnv(t, "DATABASE_URL", "PostgreSQL", "`make test` starts it")
	binaryOnce.Do(func() {
		binaryDir, binaryErr = os.MkdirTemp("", "shortlink-bin-")
		if binaryErr != nil {
			return
		}
		path := filepath.Join(binaryDir, "shortlink")
		out, err := exec.Command("go", "build", "-o", path, "github.com/shortlink/shortlink/backend/cmd/shortlink").CombinedOutput()
		if err != nil {
			binaryErr = fmt.Errorf("go build ./backend/cmd/shortlink: %v\n%s", err, out)
			return
		}
		binaryPath = path
	})
	if binaryErr != nil {
		t.Fatal(binaryErr)
	}
	return binaryPath
}

// removeServerBinary deletes the binary serverBinary built, if it did (TestMain).
func removeServerBinary() {
	if binaryDir != "" {
		_ = os.RemoveAll(binaryDir)
	}
}

// process is a server of a deployment running as a process of its own: `shortlink serve`.
type process struct {
	t    *testing.T
	name string
	cmd  *exec.Cmd
	// base is the URL of its HTTP_ADDR, metrics the address of its METRICS_ADDR.
	base, metrics string

	exited chan struct{}
	err    error // how it exited, once exited is closed

	mu    sync.Mutex
	lines []string // its log, JSON lines
	part  []byte
	addrs chan [2]string
}

// startProcess starts `shortlink serve` with the deployment's settings and the overrides (pairs
// of name and value), listening on free loopback ports, and waits until /readyz answers. name is
// its consumer's name in the visit stream's group. The process is stopped (SIGTERM, then
// SIGKILL) when the test ends, and its log shown if the test failed.
func (d *deployment) startProcess(t *testing.T, name string, overrides ...string) *process {
	t.Helper()
	env := map[string]string{
		"HTTP_ADDR": "127.0.0.1:0", "METRICS_ADDR": "127.0.0.1:0",
		"LOG_FORMAT": "json", "LOG_LEVEL": "info", "VISIT_CONSUMER": name,
	}
	for k, v := range d.env {
		if k != "HTTP_ADDR" {
			env[k] = v
		}
	}
	for i := 0; i+1 < len(overrides); i += 2 {
		k, v := overrides[i], overrides[i+1]
		if k == "PLAN_LIMITS" && env[k] != "" && v != "" {
			v = env[k] + "," + v
		}
		env[k] = v
	}
	p := &process{t: t, name: name, exited: make(chan struct{}), addrs: make(chan [2]string, 1)}
	p.cmd = exec.Command(serverBinary(t), "serve")
	p.cmd.Dir = t.TempDir()
	dieWithTests(p.cmd)
	for k, v := range env {
		p.cmd.Env = append(p.cmd.Env, k+"="+v)
	}
	p.cmd.Stdout = p
	p.cmd.Stderr = p
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	go func() {
		p.err = p.cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(p.cleanup)

	// Both addresses are logged before the server answers (Listen, then Run).
	select {
	case a := <-p.addrs:
		p.base, p.metrics = "http://"+a[0], a[1]
	case <-p.exited:
		t.Fatalf("%s exited at start: %v\n%s", name, p.err, p.log())
	case <-time.After(20 * time.Second):
		t.Fatalf("%s did not start within 20s\n%s", name, p.log())
	}
	eventually(t, 10*time.Second, name+" is ready", func() bool {
		res, err := http.Get(p.base + "/readyz")
		if err != nil {
			return false
		}
		_ = res.Body.Close()
		return res.StatusCode == http.StatusOK
	})
	return p
}

// Write takes the process's output and keeps it by lines; it watches for the listen addresses.
func (p *process) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.part = append(p.part, b...)
	for {
		i := bytes.IndexByte(p.part, '\n')
		if i < 0 {
			return len(b), nil
		}
		line := string(p.part[:i])
		p.part = p.part[i+1:]
		p.lines = append(p.lines, line)
		var l struct{ Msg, Addr string }
		if json.Unmarshal([]byte(line), &l) == nil && l.Msg == "serving" {
			metrics := ""
			for _, prev := range p.lines {
				var m struct{ Msg, Addr string }
				if json.Unmarshal([]byte(prev), &m) == nil && m.Msg == "serving metrics" {
					metrics = m.Addr
				}
			}
			select {
			case p.addrs <- [2]string{l.Addr, metrics}:
			default:
			}
		}
	}
}

// log is what the process has written so far.
func (p *process) log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.lines, "\n")
}

// logged reports whether a line of its log has the message msg.
func (p *process) logged(msg string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, line := range p.lines {
		var l struct{ Msg string }
		if json.Unmarshal([]byte(line), &l) == nil && l.Msg == msg {
			return true
		}
	}
	return false
}

// signal sends sig to the process.
func (p *process) signal(sig syscall.Signal) {
	p.t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		p.t.Fatalf("signal %s to %s: %v", sig, p.name, err)
	}
}

// wait waits for the process to exit and returns how it did.
func (p *process) wait(within time.Duration) error {
	p.t.Helper()
	select {
	case <-p.exited:
		return p.err
	case <-time.After(within):
		p.t.Fatalf("%s still running after %v\n%s", p.name, within, p.log())
		return nil
	}
}

// cleanup stops the process if it still runs, and shows its log if the test failed.
func (p *process) cleanup() {
	select {
	case <-p.exited:
	default:
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.exited:
		case <-time.After(15 * time.Second):
			_ = p.cmd.Process.Kill()
			<-p.exited
		}
	}
	if p.t.Failed() {
		p.t.Logf("log of %s (%v):\n%s", p.name, p.err, p.log())
	}
}

// api is a client of the process with the helpers of in-process servers (signup, createLink…).
func (p *process) api(d *deployment) *server {
	return &server{t: p.t, base: p.base, mailbox: d.mailbox}
}
