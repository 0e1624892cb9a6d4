//go:build soak

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/redis"
	"github.com/shortlink/shortlink/backend/testenv"
)

// TestChaos runs two servers and the moderation worker on highly available stores of their own
// and breaks those stores while a load of redirects, creates, edits and reads goes on:
//
//   - PostgreSQL 15: a primary and a synchronous standby (streaming replication, synchronous_
//     standby_names = 'ANY 1 (standby1)'), behind HAProxy as the servers' TCP front; the worker
//     reaches them with a URL of both hosts and target_session_attrs=read-write instead.
//   - Redis: a master, two replicas and three Sentinels (quorum 2, down-after 5 s); servers and
//     worker follow the master through the Sentinels (REDIS_SENTINELS, REDIS_MASTER_NAME).
//
// The faults, CHAOS_CALM apart (30 s by default; `make chaos`): the Redis master is killed
// (SIGKILL) and the Sentinels promote a replica, and the old master comes back as a replica;
// the PostgreSQL primary is killed (SIGKILL of all its processes), the standby promoted and the
// front moved to it; the new primary is stalled (SIGSTOP of all its processes) for 20 s.
//
// Then every acknowledged link is checked on both servers, every edit was read back on both
// servers 3 s after it was acknowledged, every redirect answered must be a stored visit, and
// the /readyz answers of each server over the run must name down only the store at fault. The
// report goes to CHAOS_REPORT (a file) when set. Skipped unless CHAOS is set: it takes minutes
// and needs HAProxy and PostgreSQL's server binaries.
func TestChaos(t *testing.T) {
	if os.Getenv("CHAOS") == "" {
		t.Skip("the chaos run takes minutes: make chaos")
	}
	calm := 30 * time.Second
	if v := os.Getenv("CHAOS_CALM"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 25*time.Second {
			t.Fatalf("CHAOS_CALM=%q: want a duration of 25s or more (failures still count as a fault's %v after it)", v, soakGrace)
		}
		calm = d
	}
	c := startChaosRig(t)
	c.calm = calm
	load := c.rig.startLoad(4*calm + chaosStall + time.Minute)
	c.load.Store(load)
	probe := c.startReadyProbe()
	c.watchSentinel()

	c.sleepUntil(load.start.Add(calm))
	c.run("Redis master killed (SIGKILL); Sentinels promote a replica", c.killRedisMaster)
	c.sleepUntil(time.Now().Add(calm))
	c.run("PostgreSQL primary killed (SIGKILL), standby promoted, front moved", c.failoverPostgres)
	c.sleepUntil(time.Now().Add(calm))
	c.run("PostgreSQL stalled (SIGSTOP) for 20s", c.stallPostgres)
	c.sleepUntil(time.Now().Add(calm))
	load.stop()
	probe.stop()
	c.rig.memEnd = c.rig.memory()
	t.Logf("load stopped after %v", time.Since(load.start).Round(time.Second))

	rep := c.check(load, probe)
	if path := os.Getenv("CHAOS_REPORT"); path != "" {
		if err := os.WriteFile(path, []byte(rep.markdown()), 0o644); err != nil {
			t.Fatalf("write the report: %v", err)
		}
		t.Logf("report written to %s", path)
	}
	for _, line := range rep.summary() {
		t.Log(line)
	}
}

// Rates of the chaos run's load: moderate, for two shared cores.
var chaosRates = [numSoakOps]soakRate{
	opRedirect: {400, 8},
	opCreate:   {40, 4},
	opBatch:    {0.5, 1}, // soakBatchRows links each
	opEdit:     {10, 2},
	opStats:    {4, 2},
	opModerate: {1, 1},
}

const (
	chaosLinks     = 5000 // links made before the load
	chaosMaster    = "shortlink"
	chaosStall     = 20 * time.Second
	chaosReadAfter = 3 * time.Second // an acknowledged edit is read back on both servers this long after
)

// chaosRig is the stores of the run, the soak's rig over them, and what the faults recorded.
type chaosRig struct {
	t    *testing.T
	calm time.Duration
	dir  string // PostgreSQL's folders (traversable by postgres), HAProxy's and Redis's files
	rig  *soakRig
	load atomicLoad

	pgBin                string
	pgPort, standbyPort  int
	frontPort            int
	redisPorts           [3]int // the master first
	sentinelPorts        [3]int
	haproxy              *exec.Cmd
	frontURL, directURLs string // through HAProxy; both hosts with target_session_attrs

	mu       sync.Mutex
	switches []chaosSwitch // +switch-master as a Sentinel announced it
	faults   []chaosFault
	sent     map[int64][]string // destinations of the edits sent, per link, in order
	stale    []string           // edits read back with an older destination
	readBack int                // edits read back on both servers
	unread   int                // edits whose read-back got no answer
}

// atomicLoad is the load, once started (the edit hook may run before startLoad returns).
type atomicLoad struct {
	mu sync.Mutex
	l  *soakLoad
}

func (a *atomicLoad) Store(l *soakLoad) { a.mu.Lock(); a.l = l; a.mu.Unlock() }
func (a *atomicLoad) Load() *soakLoad   { a.mu.Lock(); defer a.mu.Unlock(); return a.l }

// chaosSwitch is a new Redis master as the Sentinels announced it.
type chaosSwitch struct {
	At   time.Time
	Addr string
}

// chaosFault is one fault: when it began, when the stores were whole again from the clients'
// side (the front moved, the Sentinels announced the new master, the stall ended), and the
// first acknowledged create after that.
type chaosFault struct {
	soakFault
	Kind      string // redis, pg-failover, pg-stall
	Recovered time.Time
	FirstAck  time.Time
	Detail    string
}

func startChaosRig(t *testing.T) *chaosRig {
	t.Helper()
	for _, bin := range []string{"haproxy", "redis-server", "redis-cli"} {
		if _, err := exec.LookPath(bin); err != nil {
			t.Fatalf("%s not found: apt-get install -y haproxy redis-server postgresql", bin)
		}
	}
	c := &chaosRig{t: t, pgBin: pgBin(t), sent: map[int64][]string{}}
	dir, err := os.MkdirTemp("/tmp", "shortlink-chaos-")
	if err != nil {
		t.Fatal(err)
	}
	c.dir = dir
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	c.startPostgres()
	c.startFront()
	c.startRedis()

	c.rig = &soakRig{t: t, databaseURL: c.frontURL, rates: chaosRates}
	c.rig.onEditSent = c.editSent
	c.rig.onEdit = c.readBackLater
	redisAddrs := make([]string, 3)
	for i, p := range c.sentinelPorts {
		redisAddrs[i] = fmt.Sprintf("127.0.0.1:%d", p)
	}
	d := newDeploymentOn(t, c.frontURL, "", "chaos:")
	delete(d.env, "WRITE_TIMEOUT") // the service's own deadline, as deployed
	d.env["REDIS_SENTINELS"] = strings.Join(redisAddrs, ",")
	d.env["REDIS_MASTER_NAME"] = chaosMaster
	// Migrations through both hosts, with a pool option: every URL the server takes.
	c.rig.start(c.directURLs+"&pool_max_conns=8", d,
		[]string{"DATABASE_URL=" + c.directURLs, "REDIS_SENTINELS=" + d.env["REDIS_SENTINELS"], "REDIS_MASTER_NAME=" + chaosMaster},
		chaosLinks)
	return c
}

// pgBin is the newest PostgreSQL's server binaries (Debian keeps them off PATH).
func pgBin(t *testing.T) string {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	for i := len(dirs) - 1; i >= 0; i-- {
		if _, err := os.Stat(filepath.Join(dirs[i], "pg_ctl")); err == nil {
			return dirs[i]
		}
	}
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		return filepath.Dir(p)
	}
	t.Fatal("PostgreSQL's server binaries not found: apt-get install -y postgresql")
	return ""
}

// pg runs a PostgreSQL program, as the postgres user when the test runs as root (PostgreSQL
// refuses root).
func (c *chaosRig) pg(name string, args ...string) {
	c.t.Helper()
	cmd := exec.Command(filepath.Join(c.pgBin, name), args...)
	if os.Geteuid() == 0 {
		cmd = exec.Command("runuser", append([]string{"-u", "postgres", "--", filepath.Join(c.pgBin, name)}, args...)...)
	}
	cmd.Dir = "/"
	if out, err := cmd.CombinedOutput(); err != nil {
		c.t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

// own gives path to the postgres user when running as root.
func (c *chaosRig) own(path string) {
	if os.Geteuid() != 0 {
		return
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		c.t.Fatal(err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := os.Chown(path, uid, gid); err != nil {
		c.t.Fatal(err)
	}
}

func (c *chaosRig) startPostgres() {
	t := c.t
	c.pgPort, c.standbyPort = testenv.FreePort(t), testenv.FreePort(t)
	run := filepath.Join(c.dir, "run")
	primary, standby := filepath.Join(c.dir, "primary"), filepath.Join(c.dir, "standby")
	for _, d := range []string{run, primary, standby} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
		c.own(d)
	}
	if err := os.Chmod(run, 0o755); err != nil {
		t.Fatal(err)
	}
	c.pg("initdb", "-D", primary, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C")
	conf := fmt.Sprintf("\nlisten_addresses = '127.0.0.1'\nport = %d\nunix_socket_directories = '%s'\n"+
		"max_connections = 200\nshared_buffers = 128MB\nwal_level = replica\nmax_wal_senders = 5\n"+
		"hot_standby = on\nwal_keep_size = 256MB\n", c.pgPort, run)
	appendFile(t, filepath.Join(primary, "postgresql.conf"), conf)
	t.Cleanup(func() { c.stopPostgres(primary); c.stopPostgres(standby) })
	c.pg("pg_ctl", "-D", primary, "-l", filepath.Join(run, "primary.log"), "-w", "-t", "60", "start")
	c.pg("createdb", "-h", "127.0.0.1", "-p", strconv.Itoa(c.pgPort), "-U", "postgres", "shortlink")
	c.pg("pg_basebackup", "-h", "127.0.0.1", "-p", strconv.Itoa(c.pgPort), "-U", "postgres", "-D", standby, "-R", "-X", "stream", "-c", "fast")
	appendFile(t, filepath.Join(standby, "postgresql.auto.conf"), fmt.Sprintf(
		"port = %d\nprimary_conninfo = 'host=127.0.0.1 port=%d user=postgres application_name=standby1'\n", c.standbyPort, c.pgPort))
	c.pg("pg_ctl", "-D", standby, "-l", filepath.Join(run, "standby.log"), "-w", "-t", "60", "start")
	// Synchronous only now: the standby exists, so commits no longer wait for nobody. The
	// standby's copy of the settings has no synchronous standby: once promoted, it commits alone.
	c.psql(c.pgPort, `ALTER SYSTEM SET synchronous_standby_names = 'ANY 1 (standby1)'`)
	c.psql(c.pgPort, `SELECT pg_reload_conf()`)
	eventually(t, 30*time.Second, "the standby is synchronous", func() bool {
		return c.psqlOut(c.pgPort, `SELECT sync_state FROM pg_stat_replication WHERE application_name = 'standby1'`) == "quorum"
	})
	c.directURLs = fmt.Sprintf("postgres://postgres@127.0.0.1:%d,127.0.0.1:%d/shortlink?sslmode=disable&target_session_attrs=read-write", c.pgPort, c.standbyPort)
}

func (c *chaosRig) psql(port int, sql string) {
	c.t.Helper()
	c.pg("psql", "-h", "127.0.0.1", "-p", strconv.Itoa(port), "-U", "postgres", "-d", "shortlink", "-v", "ON_ERROR_STOP=1", "-qAtc", sql)
}

func (c *chaosRig) psqlOut(port int, sql string) string {
	cmd := exec.Command(filepath.Join(c.pgBin, "psql"), "-h", "127.0.0.1", "-p", strconv.Itoa(port), "-U", "postgres", "-d", "shortlink", "-qAtc", sql)
	out, _ := cmd.Output()
	return strings.TrimSpace(string(out))
}

// signalTree sends sig to pid and every process below it, and returns them, pid first.
func signalTree(pid int, sig syscall.Signal) []int {
	procs := append([]int{pid}, testenv.Descendants(pid)...)
	for _, p := range procs {
		_ = syscall.Kill(p, sig)
	}
	return procs
}

// stopPostgres stops a cluster whatever its state (stopped processes are continued first).
func (c *chaosRig) stopPostgres(data string) {
	if pid := postmasterPID(data); pid > 0 {
		signalTree(pid, syscall.SIGCONT)
		_ = syscall.Kill(pid, syscall.SIGQUIT) // immediate shutdown
		for range 100 {
			if syscall.Kill(pid, 0) != nil {
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// postmasterPID is the running postmaster of a data folder, 0 if none.
func postmasterPID(data string) int {
	b, err := os.ReadFile(filepath.Join(data, "postmaster.pid"))
	if err != nil {
		return 0
	}
	first, _, _ := strings.Cut(string(b), "\n")
	pid, _ := strconv.Atoi(strings.TrimSpace(first))
	if pid <= 0 || syscall.Kill(pid, 0) != nil {
		return 0
	}
	return pid
}

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

// startFront starts HAProxy as the servers' TCP front of PostgreSQL, with its runtime API on a
// socket: the failover moves the one server to the promoted standby. retries 0: a connection
// the dead primary refuses fails at once; HAProxy's default (3 retries, a second apart, on the
// address it began with) held new connections for 3 s, past the front's move.
func (c *chaosRig) startFront() {
	t := c.t
	c.frontPort = testenv.FreePort(t)
	cfg := fmt.Sprintf(`global
	stats socket %s mode 600 level admin
	maxconn 4000
defaults
	mode tcp
	retries 0
	timeout connect 1s
	timeout client 1h
	timeout server 1h
frontend pg
	bind 127.0.0.1:%d
	default_backend pg
backend pg
	server db 127.0.0.1:%d
`, filepath.Join(c.dir, "haproxy.sock"), c.frontPort, c.pgPort)
	path := filepath.Join(c.dir, "haproxy.cfg")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	c.haproxy = exec.Command("haproxy", "-db", "-f", path)
	dieWithTests(c.haproxy)
	logged := &logBuffer{}
	c.haproxy.Stdout, c.haproxy.Stderr = logged, logged
	if err := c.haproxy.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = c.haproxy.Process.Kill()
		_ = c.haproxy.Wait()
		if t.Failed() {
			t.Logf("HAProxy's log:\n%s", logged.String())
		}
	})
	c.frontURL = fmt.Sprintf("postgres://postgres@127.0.0.1:%d/shortlink?sslmode=disable", c.frontPort)
	eventually(t, 10*time.Second, "HAProxy forwards", func() bool {
		return c.psqlOut(c.frontPort, "SELECT 1") == "1"
	})
}

// haproxyCommand sends a command to HAProxy's runtime API.
func (c *chaosRig) haproxyCommand(cmd string) string {
	c.t.Helper()
	conn, err := net.Dial("unix", filepath.Join(c.dir, "haproxy.sock"))
	if err != nil {
		c.t.Fatalf("HAProxy's runtime API: %v", err)
	}
	defer func() { _ = conn.Close() }()
	if _, err := conn.Write([]byte(cmd + "\n")); err != nil {
		c.t.Fatal(err)
	}
	var b strings.Builder
	buf := make([]byte, 4096)
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	for {
		n, err := conn.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return strings.TrimSpace(b.String())
}

// startRedis starts a master, two replicas and three Sentinels (redis-server --sentinel).
func (c *chaosRig) startRedis() {
	t := c.t
	for i := range c.redisPorts {
		c.redisPorts[i] = testenv.FreePort(t)
	}
	for i := range c.redisPorts {
		var extra []string
		if i > 0 {
			extra = []string{"--replicaof", "127.0.0.1", strconv.Itoa(c.redisPorts[0])}
		}
		c.startRedisServer(i, extra...)
	}
	eventually(t, 30*time.Second, "both replicas in sync", func() bool {
		return strings.Contains(redisInfo(c.redisPorts[0], "replication"), "connected_slaves:2")
	})
	for i := range c.sentinelPorts {
		c.sentinelPorts[i] = testenv.FreePort(t)
		conf := filepath.Join(c.dir, fmt.Sprintf("sentinel-%d.conf", i))
		text := fmt.Sprintf("port %d\nbind 127.0.0.1\ndir %s\nsentinel monitor %s 127.0.0.1 %d 2\n"+
			"sentinel down-after-milliseconds %s 5000\nsentinel failover-timeout %s 60000\nsentinel parallel-syncs %s 1\n",
			c.sentinelPorts[i], c.dir, chaosMaster, c.redisPorts[0], chaosMaster, chaosMaster, chaosMaster)
		if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		c.daemon(fmt.Sprintf("sentinel-%d", i), "redis-server", conf, "--sentinel", "--logfile", filepath.Join(c.dir, fmt.Sprintf("sentinel-%d.log", i)))
	}
	eventually(t, 30*time.Second, "the Sentinels know each other", func() bool {
		out, _ := exec.Command("redis-cli", "-p", strconv.Itoa(c.sentinelPorts[0]), "sentinel", "master", chaosMaster).Output()
		f := strings.Fields(string(out))
		for i := 0; i+1 < len(f); i++ {
			if f[i] == "num-other-sentinels" {
				return f[i+1] == "2"
			}
		}
		return false
	})
}

// startRedisServer starts Redis i on its port, without persistence, with extra arguments.
func (c *chaosRig) startRedisServer(i int, extra ...string) {
	port := c.redisPorts[i]
	args := append([]string{"--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
		"--dir", c.dir, "--logfile", filepath.Join(c.dir, fmt.Sprintf("redis-%d.log", i))}, extra...)
	c.daemon(fmt.Sprintf("redis-%d", i), "redis-server", args...)
	eventually(c.t, 10*time.Second, fmt.Sprintf("redis %d answers", i), func() bool {
		out, _ := exec.Command("redis-cli", "-p", strconv.Itoa(port), "ping").Output()
		return strings.TrimSpace(string(out)) == "PONG"
	})
}

// daemon starts a process that lives until the test ends (in the foreground: the test holds its
// pid for the faults).
func (c *chaosRig) daemon(name, bin string, args ...string) *exec.Cmd {
	cmd := exec.Command(bin, args...)
	dieWithTests(cmd)
	if err := cmd.Start(); err != nil {
		c.t.Fatalf("start %s: %v", name, err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	c.t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-done
	})
	return cmd
}

func redisInfo(port int, section string) string {
	out, _ := exec.Command("redis-cli", "-p", strconv.Itoa(port), "info", section).Output()
	return strings.ReplaceAll(string(out), "\r", "")
}

// redisPID is the pid of the Redis server on port.
func redisPID(port int) int {
	for line := range strings.SplitSeq(redisInfo(port, "server"), "\n") {
		if v, ok := strings.CutPrefix(line, "process_id:"); ok {
			pid, _ := strconv.Atoi(v)
			return pid
		}
	}
	return 0
}

// watchSentinel records every +switch-master a Sentinel announces.
func (c *chaosRig) watchSentinel() {
	for _, port := range c.sentinelPorts {
		stop := redis.WatchSwitches(fmt.Sprintf("127.0.0.1:%d", port), func(master, addr string) {
			if master == chaosMaster {
				c.mu.Lock()
				c.switches = append(c.switches, chaosSwitch{At: time.Now(), Addr: addr})
				c.mu.Unlock()
			}
		})
		c.t.Cleanup(stop)
	}
}

// firstSwitchAfter is the first announcement of a new master after t.
func (c *chaosRig) firstSwitchAfter(t time.Time) (chaosSwitch, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, s := range c.switches {
		if s.At.After(t) {
			return s, true
		}
	}
	return chaosSwitch{}, false
}

func (c *chaosRig) sleepUntil(t time.Time) { time.Sleep(time.Until(t)) }

// run performs a fault and records it.
func (c *chaosRig) run(name string, fault func(*chaosFault)) {
	l := c.load.Load()
	f := chaosFault{soakFault: soakFault{Name: name}}
	c.t.Logf("%v: %s", time.Since(l.start).Round(time.Second), name)
	fault(&f)
	c.t.Logf("%v: %s", time.Since(l.start).Round(time.Second), f.Detail)
	c.mu.Lock()
	c.faults = append(c.faults, f)
	c.mu.Unlock()
	l.mu.Lock()
	l.faults = append(l.faults, f.soakFault)
	l.mu.Unlock()
}

// killRedisMaster kills the master, waits for the Sentinels to announce a replica as the new
// one, and starts the old master again as a replica of it.
func (c *chaosRig) killRedisMaster(f *chaosFault) {
	t := c.t
	f.Kind = "redis"
	old := -1
	for i, p := range c.redisPorts {
		if strings.Contains(redisInfo(p, "replication"), "role:master") {
			old = i
		}
	}
	if old < 0 {
		t.Fatal("no Redis master")
	}
	pid := redisPID(c.redisPorts[old])
	f.Down = time.Now()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	var sw chaosSwitch
	eventually(t, 60*time.Second, "the Sentinels announce a new master", func() bool {
		var ok bool
		sw, ok = c.firstSwitchAfter(f.Down)
		return ok
	})
	f.Back, f.Recovered = sw.At, sw.At
	host, port, _ := net.SplitHostPort(sw.Addr)
	c.startRedisServer(old, "--replicaof", host, port)
	f.Detail = fmt.Sprintf("new master %s announced %v after the kill; the old one back as its replica", sw.Addr, sw.At.Sub(f.Down).Round(time.Millisecond))
}

// failoverPostgres kills every process of the primary, promotes the standby and moves the
// front to it.
func (c *chaosRig) failoverPostgres(f *chaosFault) {
	t := c.t
	f.Kind = "pg-failover"
	primary, standby := filepath.Join(c.dir, "primary"), filepath.Join(c.dir, "standby")
	pid := postmasterPID(primary)
	if pid == 0 {
		t.Fatal("no PostgreSQL primary running")
	}
	f.Down = time.Now()
	signalTree(pid, syscall.SIGKILL)
	c.pg("pg_ctl", "-D", standby, "-w", "-t", "60", "promote")
	promoted := time.Now()
	out := c.haproxyCommand(fmt.Sprintf("set server pg/db addr 127.0.0.1 port %d", c.standbyPort))
	f.Back, f.Recovered = time.Now(), time.Now()
	f.Detail = fmt.Sprintf("standby promoted %v after the kill, front moved %v after it (HAProxy: %q)",
		promoted.Sub(f.Down).Round(time.Millisecond), f.Recovered.Sub(f.Down).Round(time.Millisecond), out)
}

// stallPostgres stops every process of the (promoted) primary for chaosStall, then continues them.
func (c *chaosRig) stallPostgres(f *chaosFault) {
	t := c.t
	f.Kind = "pg-stall"
	standby := filepath.Join(c.dir, "standby")
	pid := postmasterPID(standby)
	if pid == 0 {
		t.Fatal("the promoted PostgreSQL is not running")
	}
	f.Down = time.Now()
	procs := signalTree(pid, syscall.SIGSTOP)
	time.Sleep(chaosStall)
	for i := len(procs) - 1; i >= 0; i-- {
		_ = syscall.Kill(procs[i], syscall.SIGCONT)
	}
	f.Back, f.Recovered = time.Now(), time.Now()
	f.Detail = fmt.Sprintf("%d processes stopped for %v", len(procs), f.Back.Sub(f.Down).Round(time.Millisecond))
}

// editSent records the destination of an edit as it is sent.
func (c *chaosRig) editSent(lk soakLink, u string) {
	c.mu.Lock()
	c.sent[lk.ID] = append(c.sent[lk.ID], u)
	c.mu.Unlock()
}

// readBackLater reads an acknowledged edit back on both servers chaosReadAfter later: each must
// send the visitor to the new destination, or to that of an edit of the link sent after it
// (acknowledged, refused or still on its way: it may have been written).
func (c *chaosRig) readBackLater(lk soakLink, u string) {
	time.AfterFunc(chaosReadAfter, func() {
		l := c.load.Load()
		if l == nil {
			return
		}
		for i, addr := range c.rig.addrs {
			req, _ := http.NewRequest("HEAD", "http://"+addr+"/"+lk.Code, nil)
			req.Host = shortHost
			req.Header.Set("User-Agent", browserUA)
			res, err := l.client.Do(req)
			if err != nil {
				c.mu.Lock()
				c.unread++
				c.mu.Unlock()
				continue
			}
			_ = res.Body.Close()
			got := res.Header.Get("Location")
			c.mu.Lock()
			// Edits sent until the answer came may have been written before it.
			sent := c.sent[lk.ID]
			want := []string{u}
			for i := len(sent) - 1; i >= 0 && sent[i] != u; i-- {
				want = append(want, sent[i])
			}
			switch {
			case res.StatusCode != http.StatusFound:
				c.unread++
			case !contains(want, got):
				c.stale = append(c.stale, fmt.Sprintf("at %v, link %d on %s went to %s, want %s",
					time.Since(l.start).Round(time.Millisecond), lk.ID, string(rune('a'+i)), got, u))
			default:
				c.readBack++
			}
			c.mu.Unlock()
		}
	})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// readySample is one /readyz answer of a server, at the time it arrived (the stores were asked
// just before).
type readySample struct {
	At              time.Time
	Node            int
	Postgres, Redis string // "" with no answer
}

// readyProbe asks each server's /readyz twice a second.
type readyProbe struct {
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	mu      sync.Mutex
	samples []readySample
}

func (c *chaosRig) startReadyProbe() *readyProbe {
	ctx, cancel := context.WithCancel(context.Background())
	p := &readyProbe{cancel: cancel}
	client := &http.Client{Timeout: 3 * time.Second}
	for i, addr := range c.rig.addrs {
		p.wg.Go(func() {
			tick := time.NewTicker(500 * time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-tick.C:
				}
				s := readySample{Node: i}
				if res, err := client.Get("http://" + addr + "/readyz"); err == nil {
					var body struct{ Postgres, Redis string }
					_ = json.NewDecoder(res.Body).Decode(&body)
					_ = res.Body.Close()
					s.Postgres, s.Redis = body.Postgres, body.Redis
				}
				s.At = time.Now()
				p.mu.Lock()
				p.samples = append(p.samples, s)
				p.mu.Unlock()
			}
		})
	}
	return p
}

func (p *readyProbe) stop() {
	p.cancel()
	p.wg.Wait()
}
