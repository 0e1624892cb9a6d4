package redis_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/cachesync"
	"github.com/shortlink/shortlink/backend/redis"
	"github.com/shortlink/shortlink/backend/testenv"
)

// TestSentinelFailover: a client opened with Sentinels writes to the master they name, follows
// them when they fail over to the replica (SENTINEL FAILOVER: the old master stays up, as a
// replica, which a client left on it could not write to), and the event bus subscribes again
// and carries events published after the failover.
func TestSentinelFailover(t *testing.T) {
	t.Parallel()
	// Its own three redis-server processes, started where the suite's services are.
	testenv.NeedEnv(t, "REDIS_URL", "Redis", "`make test` starts it")
	if _, err := exec.LookPath("redis-server"); err != nil {
		t.Skip("redis-server not installed")
	}
	dir := t.TempDir()
	master, replica, sentinel := testenv.FreePort(t), testenv.FreePort(t), testenv.FreePort(t)
	startRedis(t, dir, "master", "--port", strconv.Itoa(master))
	startRedis(t, dir, "replica", "--port", strconv.Itoa(replica), "--replicaof", "127.0.0.1", strconv.Itoa(master))
	conf := filepath.Join(dir, "sentinel.conf")
	text := fmt.Sprintf("port %d\nbind 127.0.0.1\ndir %s\nsentinel monitor sl 127.0.0.1 %d 1\n"+
		"sentinel down-after-milliseconds sl 1000\nsentinel failover-timeout sl 10000\n", sentinel, dir, master)
	if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	startRedis(t, dir, "sentinel", conf, "--sentinel")
	// The Sentinel must know the replica, and see it linked to the master, before it can fail
	// over to it: a replica just found is not yet a candidate (NOGOODSLAVE).
	testenv.Eventually(t, 20*time.Second, "the Sentinel sees the replica linked", func() bool {
		f := strings.Split(redisCLI(sentinel, "sentinel", "replicas", "sl"), "\n")
		info := map[string]string{}
		for i := 0; i+1 < len(f); i += 2 {
			info[f[i]] = f[i+1]
		}
		return info["port"] == strconv.Itoa(replica) && info["flags"] == "slave" && info["master-link-status"] == "ok"
	})

	ctx := context.Background()
	prefix := "sentinel-test:"
	c, err := redis.OpenTarget(ctx, redis.Target{URL: "redis://127.0.0.1/0",
		Sentinels: []string{fmt.Sprintf("127.0.0.1:%d", sentinel)}, MasterName: "sl"}, prefix)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c.Close() }()
	if err := c.Set(ctx, "k", "before"); err != nil {
		t.Fatal(err)
	}
	if got := redisCLI(master, "get", prefix+"k"); got != "before" {
		t.Fatalf("the master holds %q, want the client's write", got)
	}

	bus := redis.NewBus(c, slog.New(slog.NewTextHandler(io.Discard, nil)))
	var (
		mu     sync.Mutex
		resync int
		got    []int64
	)
	lctx, stop := context.WithCancel(ctx)
	defer stop()
	go bus.Listen(lctx, func(e cachesync.Event) {
		mu.Lock()
		defer mu.Unlock()
		switch e.Kind {
		case cachesync.EventResync:
			resync++
		case cachesync.EventKeyRevoked:
			got = append(got, e.ID)
		}
	})
	testenv.Eventually(t, 5*time.Second, "the bus subscribes", func() bool { mu.Lock(); defer mu.Unlock(); return resync == 1 })

	// WatchSwitches hears the announcement the client follows.
	var announced []string
	stopWatch := redis.WatchSwitches(fmt.Sprintf("127.0.0.1:%d", sentinel), func(master, addr string) {
		mu.Lock()
		defer mu.Unlock()
		announced = append(announced, master+" "+addr)
	})
	defer stopWatch()

	switched := c.Switched()
	if out := redisCLI(sentinel, "sentinel", "failover", "sl"); out != "OK" {
		t.Fatalf("SENTINEL FAILOVER: %s", out)
	}
	select {
	case <-switched:
	case <-time.After(20 * time.Second):
		t.Fatal("no +switch-master within 20s")
	}
	testenv.Eventually(t, 10*time.Second, "the bus subscribes again", func() bool { mu.Lock(); defer mu.Unlock(); return resync >= 2 })
	testenv.Eventually(t, 5*time.Second, "WatchSwitches hears the new master", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return slices.Contains(announced, fmt.Sprintf("sl 127.0.0.1:%d", replica))
	})
	// Writes reach the new master (the old one, now a replica, refuses them).
	testenv.Eventually(t, 10*time.Second, "a write after the failover", func() bool {
		return c.Set(ctx, "k", "after") == nil
	})
	if got := redisCLI(replica, "get", prefix+"k"); got != "after" {
		t.Fatalf("the new master holds %q, want the write made after the failover", got)
	}
	testenv.Eventually(t, 10*time.Second, "an event published after the failover", func() bool {
		_ = bus.Publish(ctx, cachesync.Event{Kind: cachesync.EventKeyRevoked, ID: 42})
		mu.Lock()
		defer mu.Unlock()
		return len(got) > 0 && got[len(got)-1] == 42
	})
}

// startRedis starts a Redis server (or Sentinel) in the foreground, stopped when t ends.
func startRedis(t *testing.T, dir, name string, args ...string) {
	t.Helper()
	args = append(args, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir,
		"--logfile", filepath.Join(dir, name+".log"))
	cmd := exec.Command("redis-server", args...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			b, _ := os.ReadFile(filepath.Join(dir, name+".log"))
			t.Logf("%s's log:\n%s", name, b)
		}
	})
}

func redisCLI(port int, args ...string) string {
	out, _ := exec.Command("redis-cli", append([]string{"-p", strconv.Itoa(port)}, args...)...).Output()
	return strings.TrimSpace(string(out))
}
