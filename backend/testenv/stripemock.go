package testenv

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// StripeMock is a stripe-mock of a test's own on loopback: Stripe's API answered from its
// OpenAPI description (fixed fixtures, nothing remembered between requests).
type StripeMock struct {
	port int
}

// NewStripeMock starts a StripeMock for t, stopped when t ends. The binary is STRIPE_MOCK
// (set by `make test`, which installs it through deploy/local/stripe-mock.sh), else
// stripe-mock on the PATH.
func NewStripeMock(t testing.TB) *StripeMock {
	t.Helper()
	bin := os.Getenv("STRIPE_MOCK")
	if bin == "" {
		var err error
		bin, err = exec.LookPath("stripe-mock")
		Need(t, err == nil, "stripe-mock (STRIPE_MOCK)", "`make test` installs it; or set STRIPE_MOCK to the path deploy/local/stripe-mock.sh prints")
	}
	m := &StripeMock{port: FreePort(t)}
	logf, err := os.Create(filepath.Join(t.TempDir(), "stripe-mock.log"))
	if err != nil {
		t.Fatalf("stripe-mock log: %v", err)
	}
	// Both listeners on ports of the test's own: left alone, HTTPS takes the fixed port 12112
	// and a second stripe-mock at once fails.
	cmd := exec.Command(bin, "-http-addr", m.addr(), "-https-addr", "127.0.0.1:"+strconv.Itoa(FreePort(t)))
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatalf("start stripe-mock: %v", err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-done
		_ = logf.Close()
	})
	Eventually(t, 20*time.Second, "stripe-mock answers", func() bool {
		c, err := net.DialTimeout("tcp", m.addr(), time.Second)
		if err != nil {
			return false
		}
		_ = c.Close()
		return true
	})
	return m
}

func (m *StripeMock) addr() string { return "127.0.0.1:" + strconv.Itoa(m.port) }

// URL is the server's base URL, the value of STRIPE_API_BASE.
func (m *StripeMock) URL() string { return fmt.Sprintf("http://%s", m.addr()) }
