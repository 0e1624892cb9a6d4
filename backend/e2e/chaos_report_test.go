//go:build soak

package e2e

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/shortlink/shortlink/backend/testenv"
)

// The checks of TestChaos after its load, and its report (docs/chaos.md).

const (
	// chaosRecoverWithin bounds the time from the stores being whole again (the front moved,
	// the new Redis master announced, the stall over) to the first acknowledged create.
	chaosRecoverWithin = 2 * time.Second
	// chaosAlertSlack is how long after a fault's end /readyz may still name its store.
	chaosAlertSlack = 3 * time.Second
)

// chaosReport is the soak's report of the run and what the faults add to it.
type chaosReport struct {
	*soakReport
	Faults []chaosFault
	// Recover is, per fault, the time from Recovered to the first acknowledged create, and
	// Gap the longest time without an acknowledged create from the fault's start to then.
	Recover, Gap []time.Duration
	// AckedLinks are the links acknowledged during the run, Missing those not in the database.
	AckedLinks, Missing int
	ReadBack, Unread    int
	Stale               []string
	// Ready counts /readyz answers per window (the faults', then "outside faults") and kind.
	Ready       []map[string]int
	FalseAlerts []string
	Calm        time.Duration
}

// readyKinds are the kinds of /readyz answers, in the report's order.
var readyKinds = []string{"both ok", "postgres down", "redis degraded", "both down", "no answer"}

func readyKind(s readySample) string {
	switch {
	case s.Postgres == "" && s.Redis == "":
		return "no answer"
	case s.Postgres != "ok" && s.Redis != "ok":
		return "both down"
	case s.Postgres != "ok":
		return "postgres down"
	case s.Redis != "ok":
		return "redis degraded"
	}
	return "both ok"
}

func (c *chaosRig) check(l *soakLoad, probe *readyProbe) *chaosReport {
	t := c.t
	rep := &chaosReport{soakReport: c.rig.check(l), Calm: c.calm}
	soakErrors := len(rep.Errors) // reported by the soak's check already
	c.mu.Lock()
	rep.Faults = append([]chaosFault(nil), c.faults...)
	rep.Stale, rep.ReadBack, rep.Unread = c.stale, c.readBack, c.unread
	c.mu.Unlock()

	// Acknowledged creates in the database (the check on both servers sees them too, through
	// the caches; this reads the rows).
	l.mu.Lock()
	ids := make([]int64, len(l.links))
	for i, lk := range l.links {
		ids[i] = lk.ID
	}
	acked := append([]time.Time(nil), l.acked...)
	l.mu.Unlock()
	rep.AckedLinks = len(ids)
	var found int
	c.rig.query(func(conn *testenv.Conn, ctx context.Context) error {
		return conn.QueryRow(ctx, `SELECT count(*) FROM links WHERE id = ANY($1)`, ids).Scan(&found)
	})
	rep.Missing = rep.AckedLinks - found
	if rep.Missing != 0 {
		rep.fail("%d of %d acknowledged creates are not in the database", rep.Missing, rep.AckedLinks)
	}
	if len(rep.Stale) > 0 {
		rep.fail("%d edits read back with an older destination %v after they were acknowledged", len(rep.Stale), chaosReadAfter)
	}

	// Creates back after each fault: acked is in order of acknowledgement.
	for i := range rep.Faults {
		f := &rep.Faults[i]
		prev := f.Down
		var gap time.Duration
		for _, at := range acked {
			if at.Before(f.Down) {
				continue
			}
			gap = max(gap, at.Sub(prev))
			prev = at
			if at.After(f.Recovered) {
				f.FirstAck = at
				break
			}
		}
		if f.FirstAck.IsZero() {
			rep.fail("%s: no create acknowledged after it", f.Name)
			rep.Recover = append(rep.Recover, -1)
		} else {
			rep.Recover = append(rep.Recover, f.FirstAck.Sub(f.Recovered))
			if d := f.FirstAck.Sub(f.Recovered); d > chaosRecoverWithin {
				rep.fail("%s: the first create acknowledged %v after the stores were back, more than %v", f.Name, d.Round(time.Millisecond), chaosRecoverWithin)
			}
		}
		rep.Gap = append(rep.Gap, gap)
	}

	// /readyz: during a fault only its store may be named down; outside faults, none.
	probe.mu.Lock()
	samples := append([]readySample(nil), probe.samples...)
	probe.mu.Unlock()
	rep.Ready = make([]map[string]int, len(rep.Faults)+1)
	for i := range rep.Ready {
		rep.Ready[i] = map[string]int{}
	}
	for _, s := range samples {
		w := len(rep.Faults)
		for i, f := range rep.Faults {
			if !s.At.Before(f.Down) && s.At.Before(f.Recovered.Add(chaosAlertSlack)) {
				w = i
			}
		}
		kind := readyKind(s)
		rep.Ready[w][kind]++
		allowed := kind == "both ok"
		if w < len(rep.Faults) {
			switch rep.Faults[w].Kind {
			case "redis":
				allowed = allowed || kind == "redis degraded"
			default:
				allowed = allowed || kind == "postgres down"
			}
		}
		if !allowed {
			where := "outside faults"
			if w < len(rep.Faults) {
				where = "during " + rep.Faults[w].Name
			}
			rep.FalseAlerts = append(rep.FalseAlerts, fmt.Sprintf("at %v, server %c: %s (postgres %q, redis %q), %s",
				s.At.Sub(l.start).Round(time.Millisecond), 'a'+s.Node, kind, s.Postgres, s.Redis, where))
		}
	}
	if len(rep.FalseAlerts) > 0 {
		rep.fail("%d /readyz answers named a store down that was not at fault", len(rep.FalseAlerts))
	}
	for _, e := range rep.Errors[soakErrors:] {
		t.Error(e)
	}
	for i, a := range rep.FalseAlerts {
		if i == 40 {
			break
		}
		t.Log(a)
	}
	for i, s := range rep.Stale {
		if i == 10 {
			break
		}
		t.Log(s)
	}
	return rep
}

// redisBlamedForPostgres says whether a false alert named Redis during a PostgreSQL fault.
func (rep *chaosReport) redisBlamedForPostgres() bool {
	for _, a := range rep.FalseAlerts {
		if strings.Contains(a, `redis "degraded"`) && strings.Contains(a, "during PostgreSQL") {
			return true
		}
	}
	return false
}

func (rep *chaosReport) summary() []string {
	out := rep.soakReport.summary()
	for i, f := range rep.Faults {
		out = append(out, fmt.Sprintf("%s: %s; first create %v after, longest without one %v", f.Name, f.Detail,
			rep.Recover[i].Round(time.Millisecond), rep.Gap[i].Round(time.Millisecond)))
	}
	out = append(out, fmt.Sprintf("acknowledged creates: %d, %d missing; edits read back: %d, %d stale, %d unanswered; false alerts: %d",
		rep.AckedLinks, rep.Missing, rep.ReadBack, len(rep.Stale), rep.Unread, len(rep.FalseAlerts)))
	return out
}

// bullets writes a titled list of at most most items, and how many more there were.
func bullets(p func(string, ...any), title string, items []string, most int) {
	p(title)
	for i, it := range items {
		if i == most {
			p("- … and %d more", len(items)-most)
			break
		}
		p("- %s", it)
	}
	p("")
}

func (rep *chaosReport) markdown() string {
	b, p := markdownWriter()
	secs := rep.Duration.Seconds()
	p("# Failover run")
	p("")
	p("`make chaos` (`TestChaos` in `backend/e2e/chaos_test.go`) breaks the stores under a running deployment and checks that no acknowledged write is lost. This page is its report, rewritten by each run; the figures below are from %s, commit `%s`, %d CPUs shared with other work, %s.",
		rep.Started.UTC().Format("2006-01-02 15:04 MST"), rep.Commit, runtime.NumCPU(), runtime.Version())
	p("")
	p("## How to run it")
	p("")
	p("```sh")
	p("make chaos                  # about %v; writes docs/chaos.md", (4*rep.Calm + chaosStall + time.Minute).Round(time.Minute))
	p("make chaos CHAOS_CALM=60s   # longer calm periods between the faults (25s at least)")
	p("```")
	p("")
	p("It needs PostgreSQL's server binaries (Debian's `postgresql`, run as the `postgres` user when the run is root), `redis-server` and `haproxy`, Chromium and the Playwright driver for the worker (`deploy/local/browser.sh`). `make test` compiles it and skips it.")
	p("")
	p("## What runs")
	p("")
	p("- **PostgreSQL 15**: a primary and a streaming standby made with `pg_basebackup -R`, synchronous (`synchronous_standby_names = 'ANY 1 (standby1)'`): a commit is acknowledged once the standby has it. The servers reach PostgreSQL through **HAProxy**, a TCP front whose one server is moved with its runtime API (`set server pg/db addr …`), with `retries 0` so that a connection the dead primary refuses fails at once rather than being retried on the old address for 3 s (HAProxy's default, which held new connections past the front's move). The worker, and `shortlink migrate`, use a URL of both hosts instead: `postgres://…@primary,standby/shortlink?target_session_attrs=read-write` (migrate with `pool_max_conns` too).")
	p("- **Redis**: a master, two replicas and three Sentinels (`redis-server --sentinel`, quorum 2, `down-after-milliseconds 5000`). The servers and the worker follow the master themselves: `REDIS_SENTINELS` and `REDIS_MASTER_NAME` (go-redis' failover client); no proxy in front of Redis.")
	p("- **Two servers** (`shortlink serve`) and **the moderation worker** (Chromium, a local model server), %d links made before the load.", rep.Seeded)
	p("- **The load**, through a client that sends a request refused at connect to the other server (the load balancer): about %.0f redirects, %.0f creates (one by one, and batches of %d), %.0f edits, %.0f statistics reads and %.0f moderators' queue reads a second.",
		chaosRates[opRedirect].rate, chaosRates[opCreate].rate, soakBatchRows, chaosRates[opEdit].rate, chaosRates[opStats].rate, chaosRates[opModerate].rate)
	p("")
	p("## The faults")
	p("")
	p("%v of calm before the first fault, between faults and after the last.", rep.Calm)
	p("")
	p("1. **Redis master killed** (SIGKILL). The Sentinels see it down after 5 s and promote a replica; their `+switch-master` is when Redis is back for the clients. The killed master is then started again as a replica of the new one. Redis replication is asynchronous: visits the servers sent to the stream and the old master had not passed on are stored again by the servers, which keep what they sent until the consumer group has acknowledged it and notice the new server (its run ID).")
	p("2. **PostgreSQL primary killed** (SIGKILL to the postmaster and every backend), the standby promoted (`pg_ctl promote`), and the front moved to it: the moment the front points at the new primary is when PostgreSQL is back. Nothing acknowledged is lost because every commit waited for the standby.")
	p("3. **PostgreSQL stalled** for %v: SIGSTOP to every process of the (new) primary, then SIGCONT. Connections stay open and nothing answers: requests that need PostgreSQL wait, and fail once their deadline passes.", chaosStall)
	p("")
	p("Requests that fail during a fault are expected (creates answer 503 or time out without PostgreSQL); what is checked is that every acknowledged one holds.")
	p("")
	p("## Results")
	p("")
	writeVerdict(p, rep.Errors)
	p("")
	p("| check | result |")
	p("|---|---|")
	p("| acknowledged creates lost (rows missing from the database) | **%d** of %d |", rep.Missing, rep.AckedLinks)
	p("| every acknowledged link (%d before the load, %d during it) answers on both servers with its last acknowledged destination | %d of %d answers wrong |", rep.Seeded, rep.Created, len(rep.LinksWrong), rep.LinksChecked*2)
	p("| stale reads: each acknowledged edit read back on both servers %v after its answer (its destination, or that of a later edit of the link) | **%d** stale of %d read back (%d reads without an answer) |", chaosReadAfter, len(rep.Stale), rep.ReadBack+len(rep.Stale), rep.Unread)
	p("| visits: every redirect answered with a 302 is stored | %d answered, %d stored: **%d** missing |", rep.Answered, rep.Stored, max(0, rep.Answered-rep.Stored))
	p("| visits stored ≤ redirects answered + requests without an answer (none counted twice) | %d ≤ %d + %d |", rep.Stored, rep.Answered, rep.Unsure)
	p("| requests failed outside the faults' windows (from the fault's start until %v after its store was back) | %d |", soakGrace, len(rep.Outside))
	p("| false alerts: /readyz naming a store down that was not at fault | **%d** |", len(rep.FalseAlerts))
	p("")
	p("### Recovery")
	p("")
	p("Back is when the clients can reach the store again: the Sentinels' `+switch-master`, the front moved to the promoted standby, SIGCONT. The first create is the first acknowledged after that moment; the bound is %v.", chaosRecoverWithin)
	p("")
	p("| fault | at | back after | first create after back | longest without an acknowledged create | failed requests | window |")
	p("|---|---:|---:|---:|---:|---:|---:|")
	for i, f := range rep.Faults {
		var sf soakFault
		for _, x := range rep.soakReport.Faults {
			if x.Name == f.Name {
				sf = x
			}
		}
		p("| %s | %v | %v | **%v** | %v | %d | %v |", f.Name, f.Down.Sub(rep.Started).Round(time.Second), f.Recovered.Sub(f.Down).Round(10*time.Millisecond),
			rep.Recover[i].Round(time.Millisecond), rep.Gap[i].Round(10*time.Millisecond), sf.Failures, sf.Window.Round(10*time.Millisecond))
	}
	p("")
	for _, f := range rep.Faults {
		p("- %s: %s.", f.Name, f.Detail)
	}
	p("")
	p("### /readyz over the run")
	p("")
	p("Each server's `/readyz` asked twice a second (3 s timeout). A fault's window runs from its start to %v after its store was back; during it only that store may be named down.", chaosAlertSlack)
	p("")
	p("| window | %s |", strings.Join(readyKinds, " | "))
	p("|---|%s", strings.Repeat("---:|", len(readyKinds)))
	for i, counts := range rep.Ready {
		name := "outside faults"
		if i < len(rep.Faults) {
			name = rep.Faults[i].Name
		}
		cells := make([]string, len(readyKinds))
		for k, kind := range readyKinds {
			cells[k] = fmt.Sprint(counts[kind])
		}
		p("| %s | %s |", name, strings.Join(cells, " | "))
	}
	p("")
	if len(rep.FalseAlerts) > 0 {
		if rep.redisBlamedForPostgres() {
			p("Why Redis was named during a PostgreSQL fault: `/readyz` (`App.ready`) pings PostgreSQL and then Redis within one 2 s deadline. A stalled PostgreSQL takes the whole of it, so Redis is pinged with no time left and reported `degraded` though it answers. Giving each store its own deadline, asked side by side, removes these.")
			p("")
		}
		bullets(p, "False alerts:", rep.FalseAlerts, 40)
	}
	if len(rep.Stale) > 0 {
		bullets(p, "Stale reads:", rep.Stale, 10)
	}
	p("### Load")
	p("")
	p("| operation | answered | per second | 5xx | no answer | unexpected | p50 | p99 | p99 outside faults |")
	p("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	for op := range numSoakOps {
		o, d, cl := rep.Ops[op], rep.Latency[op], rep.soakReport.Calm[op]
		p("| %s | %d | %.1f | %d | %d | %d | %v | %v | %v |", soakOpNames[op], o[outOK], float64(o[outOK])/secs, o[out5xx], o[outTransport], o[outUnexpected],
			d[0].Round(10*time.Microsecond), d[1].Round(10*time.Microsecond), cl[1].Round(10*time.Microsecond))
	}
	p("")
	p("%v of load; %d links made during it; %d requests refused at connect sent to the other server. The visit count settled %v after the load stopped.",
		rep.Duration.Round(time.Second), rep.Created, rep.Retried, rep.VisitWait.Round(10*time.Millisecond))
	if len(rep.Outside) > 0 {
		p("")
		p("Requests that failed outside every window:")
		for i, f := range rep.Outside {
			if i == 10 {
				p("- … and %d more", len(rep.Outside)-10)
				break
			}
			p("- at %v, %s on server %s: %d %s", f.At.Sub(rep.Started).Round(time.Millisecond), soakOpNames[f.Op], f.Node, f.Status, f.What)
		}
	}
	return b.String()
}
