package testenv

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// RedisServer is a Redis of a test's own on loopback, which the test may flush, pause, stop and
// start again without disturbing the tests that share the run's Redis (REDIS_URL).
type RedisServer struct {
	t    testing.TB
	dir  string
	port int
}

// NewRedisServer starts a RedisServer for t, stopped when t ends.
func NewRedisServer(t testing.TB) *RedisServer {
	t.Helper()
	// A run without the test servers (no REDIS_URL) is one of pure logic: no server of its own.
	NeedEnv(t, "REDIS_URL", "Redis", "`make test` starts it")
	_, err := exec.LookPath("redis-server")
	Need(t, err == nil, "redis-server", "`make test` installs it")
	r := &RedisServer{t: t, dir: t.TempDir(), port: FreePort(t)}
	r.Start()
	t.Cleanup(r.Stop)
	return r
}

// Addr is the server's host:port.
func (r *RedisServer) Addr() string { return "127.0.0.1:" + strconv.Itoa(r.port) }

// URL is the server's REDIS_URL.
func (r *RedisServer) URL() string { return fmt.Sprintf("redis://%s/0", r.Addr()) }

// Do runs one command through redis-cli (installed with redis-server), on a connection of its
// own: an error when the server cannot be reached or answers an error.
func (r *RedisServer) Do(args ...any) error {
	cli := []string{"--no-raw", "-h", "127.0.0.1", "-p", strconv.Itoa(r.port)}
	for _, a := range args {
		cli = append(cli, fmt.Sprint(a))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "redis-cli", cli...).CombinedOutput()
	answer := strings.TrimSpace(string(out))
	switch {
	case err != nil:
		return fmt.Errorf("redis-cli %v: %w: %s", args, err, answer)
	case strings.HasPrefix(answer, "(error)") || strings.HasPrefix(answer, "Could not connect"):
		return fmt.Errorf("redis-cli %v: %s", args, answer)
	}
	return nil
}

// Start runs the server and waits until it answers; it loads dump.rdb from its folder if a
// SAVE wrote one.
func (r *RedisServer) Start() {
	r.t.Helper()
	out, err := exec.Command("redis-server", "--port", strconv.Itoa(r.port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--daemonize", "yes", "--dir", r.dir,
		"--logfile", filepath.Join(r.dir, "redis.log"), "--pidfile", filepath.Join(r.dir, "redis.pid")).CombinedOutput()
	if err != nil {
		r.t.Fatalf("start redis: %v %s", err, out)
	}
	Eventually(r.t, 5*time.Second, "redis answers", func() bool { return r.Do("PING") == nil })
}

// Stop ends the server whatever state the test left it in (paused, out of memory): by its
// pidfile, so that no server outlives its test.
func (r *RedisServer) Stop() {
	_ = r.Do("SHUTDOWN", "NOSAVE")
	if b, err := os.ReadFile(filepath.Join(r.dir, "redis.pid")); err == nil {
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			if p, err := os.FindProcess(pid); err == nil {
				_ = p.Kill()
			}
		}
	}
}
