//go:build soak

package e2e

import (
	"context"
	"fmt"
	"html"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/shortlink/shortlink/backend/testenv"
)

// The checks of TestSoak after its load, and its report: markdown and an SVG chart.

// soakReport is what TestSoak found.
type soakReport struct {
	Started  time.Time
	Duration time.Duration
	Commit   string

	Ops     [numSoakOps][numOutcomes]int64
	Latency [numSoakOps][3]time.Duration // p50, p99, max
	// Calm are p50, p99 and max of the requests that began and ended outside every fault's
	// span (from its start to soakGrace after its part was back).
	Calm      [numSoakOps][3]time.Duration
	Created   int64 // links acknowledged during the run
	Seeded    int
	Retried   int64
	Faults    []soakFault
	Outside   []soakFailure // failures outside every fault's window
	Reviews   int64         // the worker's reviews during the run
	Decisions int64

	// Visits: redirects answered with a 302, those sent without an answer, visits stored.
	Answered, Unsure, Stored int64
	VisitWait                time.Duration // from the end of the load until the count settled

	// Links: acknowledged links checked on each server; those missing or answering another
	// Location than their last acknowledged URL; rows in the links table.
	LinksChecked int
	LinksWrong   []string
	EditsAcked   int
	LinkRows     int64

	MemStart, MemEnd map[string]int64

	// Per second: links made, redirects answered, other operations answered, failures, reviews.
	Series struct {
		Created, Redirects, Writes, Reads, Failures, Reviews []int64
		// Stored are the visits stored, by the second they were made in.
		Stored []int64
	}

	Errors []string // checks that failed
}

// check waits for the visits to be stored, checks every acknowledged link on both servers and
// sorts the failures into the faults' windows. Failed checks fail the test.
func (r *soakRig) check(l *soakLoad) *soakReport {
	t := r.t
	rep := &soakReport{Started: l.start, Duration: time.Since(l.start), Seeded: len(r.seeded),
		Retried: l.retried.Load(), MemStart: r.memStart, MemEnd: r.memEnd,
		Answered: l.answered.Load(), Unsure: l.unsure.Load()}
	if out, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output(); err == nil {
		rep.Commit = strings.TrimSpace(string(out))
	}
	end := l.second(time.Now()) + 1
	for s := range end {
		var redirects, writes, reads, failures int64
		for op := range numSoakOps {
			for o := range numOutcomes {
				n := l.counts[s][op][o].Load()
				rep.Ops[op][o] += n
				if o != outOK {
					failures += n
					continue
				}
				switch soakOp(op) {
				case opRedirect:
					redirects += n
				case opStats, opModerate:
					reads += n
				default:
					writes += n
				}
			}
		}
		rep.Series.Created = append(rep.Series.Created, l.created[s].Load())
		rep.Series.Redirects = append(rep.Series.Redirects, redirects)
		rep.Series.Writes = append(rep.Series.Writes, writes)
		rep.Series.Reads = append(rep.Series.Reads, reads)
		rep.Series.Failures = append(rep.Series.Failures, failures)
	}
	// Latencies, over the whole run and outside the faults' spans.
	rep.Faults = l.faults
	for op := range numSoakOps {
		var all, calm []time.Duration
		for _, s := range l.latency[op] {
			all = append(all, s.Took)
			if !rep.inFault(s.At, s.At.Add(s.Took)) {
				calm = append(calm, s.Took)
			}
		}
		rep.Latency[op], rep.Calm[op] = quantiles(all), quantiles(calm)
	}

	// Failures: each in the window of a fault, or outside every window. A failure is the latest
	// fault's that began before it, if it came within soakGrace of that part being back.
	for _, f := range l.failures {
		in := false
		for i := len(rep.Faults) - 1; i >= 0; i-- {
			fl := &rep.Faults[i]
			if f.At.Before(fl.Down) {
				continue
			}
			if f.At.Before(fl.Back.Add(soakGrace)) {
				in = true
				fl.Failures++
				fl.Window = max(fl.Window, f.At.Sub(fl.Down))
			}
			break
		}
		if !in {
			rep.Outside = append(rep.Outside, f)
		}
	}
	if len(rep.Outside) > 0 {
		rep.fail("%d requests failed outside the faults' windows", len(rep.Outside))
	}

	// The worker's reviews per second of the run.
	rep.Reviews = r.count(`SELECT count(*) FROM link_reviews WHERE created_at >= $1`, l.start)
	rep.Decisions = rep.Ops[opDecide][outOK]
	rep.Series.Reviews = r.perSecond(`SELECT floor(extract(epoch FROM created_at - $1::timestamptz))::int, count(*)
		FROM link_reviews WHERE created_at >= $1 GROUP BY 1`, l.start, end)

	// Visits: every 302 is stored once, less what the killed server held in memory.
	kills := int64(0)
	for _, f := range rep.Faults {
		if strings.Contains(f.Name, "SIGKILL") {
			kills++
		}
	}
	settled := time.Now()
	for last, since := int64(-1), time.Now(); ; time.Sleep(250 * time.Millisecond) {
		rep.Stored = r.count(`SELECT count(*) FROM visits`)
		if rep.Stored != last {
			last, since = rep.Stored, time.Now()
		}
		if rep.Stored >= rep.Answered && time.Since(since) > 2*time.Second || time.Since(since) > 10*time.Second ||
			time.Since(settled) > 3*time.Minute {
			break
		}
	}
	rep.VisitWait = time.Since(settled)
	if rep.Stored > rep.Answered+rep.Unsure {
		rep.fail("%d visits stored, more than the %d redirects answered and %d unsure", rep.Stored, rep.Answered, rep.Unsure)
	}
	if lost := rep.Answered - rep.Stored; lost > kills*soakKillLoss {
		rep.fail("%d visits of %d answered are not stored; a killed server may lose %d", lost, rep.Answered, kills*soakKillLoss)
	}

	rep.Series.Stored = r.perSecond(`SELECT floor(extract(epoch FROM at - $1::timestamptz))::int, count(*)
		FROM visits WHERE at >= $1 GROUP BY 1`, l.start, end)

	// Every acknowledged link on both servers: HEAD makes no visit.
	l.mu.Lock()
	links := append(slices.Clone(r.seeded), l.links...)
	rep.Created = int64(len(l.links))
	for _, lk := range l.links {
		if len(lk.URLs) == 1 && strings.Contains(lk.URLs[0], "/e/") {
			rep.EditsAcked++
		}
	}
	l.mu.Unlock()
	rep.LinksChecked = len(links)
	rep.LinkRows = r.count(`SELECT count(*) FROM links WHERE workspace_id = $1`, r.owner.WorkspaceID)
	if rep.LinkRows < int64(len(links)) {
		rep.fail("%d links in the database, %d acknowledged", rep.LinkRows, len(links))
	}
	var (
		next  atomic.Int64
		mu    sync.Mutex
		wg    sync.WaitGroup
		wrong []string
	)
	for range 16 {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(links) {
					return
				}
				lk := links[i]
				for _, addr := range r.addrs {
					req, _ := http.NewRequest("HEAD", "http://"+addr+"/"+lk.Code, nil)
					req.Host = shortHost
					req.Header.Set("User-Agent", browserUA)
					what := ""
					res, err := l.client.Do(req)
					switch {
					case err != nil:
						what = err.Error()
					case res.StatusCode != http.StatusFound:
						what = fmt.Sprintf("answered %d", res.StatusCode)
					case !slices.Contains(lk.URLs, res.Header.Get("Location")):
						what = fmt.Sprintf("went to %s, want one of %v", res.Header.Get("Location"), lk.URLs)
					}
					if res != nil {
						_ = res.Body.Close()
					}
					if what != "" {
						mu.Lock()
						wrong = append(wrong, fmt.Sprintf("link %d (%s) on %s: %s", lk.ID, lk.Code, addr, what))
						mu.Unlock()
					}
				}
			}
		})
	}
	wg.Wait()
	sort.Strings(wrong)
	rep.LinksWrong = wrong
	if len(wrong) > 0 {
		rep.fail("%d of %d acknowledged links are missing or wrong on a server", len(wrong), len(links)*2)
	}
	for _, e := range rep.Errors {
		t.Error(e)
	}
	for i, f := range rep.Outside {
		if i == 20 {
			break
		}
		t.Logf("failed at %v: %s on %s: %d %s", f.At.Sub(l.start).Round(time.Millisecond), soakOpNames[f.Op], f.Node, f.Status, f.What)
	}
	for i, w := range wrong {
		if i == 20 {
			break
		}
		t.Log(w)
	}
	return rep
}

// perSecond reads (second, count) rows of query, whose $1 is the load's start, into n seconds.
func (r *soakRig) perSecond(query string, start time.Time, n int) []int64 {
	out := make([]int64, n)
	r.query(func(c *testenv.Conn, ctx context.Context) error {
		rows, err := c.Query(ctx, query, start)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var s int
			var v int64
			if err := rows.Scan(&s, &v); err != nil {
				return err
			}
			if s >= 0 && s < n {
				out[s] = v
			}
		}
		return rows.Err()
	})
	return out
}

// query runs f on a connection to the deployment's database.
func (r *soakRig) query(f func(*testenv.Conn, context.Context) error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := testenv.Connect(ctx, r.databaseURL)
	if err != nil {
		r.t.Fatalf("connect: %v", err)
	}
	defer func() { _ = c.Close(ctx) }()
	if err := f(c, ctx); err != nil {
		r.t.Fatal(err)
	}
}

// inFault says whether [from, to] meets a fault's span: from its start until soakGrace after
// its part was back.
func (rep *soakReport) inFault(from, to time.Time) bool {
	for _, f := range rep.Faults {
		if to.After(f.Down) && from.Before(f.Back.Add(soakGrace)) {
			return true
		}
	}
	return false
}

// quantiles are p50, p99 and max of d, which it sorts.
func quantiles(d []time.Duration) [3]time.Duration {
	slices.Sort(d)
	n := len(d)
	if n == 0 {
		return [3]time.Duration{}
	}
	return [3]time.Duration{d[n/2], d[min(n-1, n*99/100)], d[n-1]}
}

func (rep *soakReport) fail(format string, args ...any) {
	rep.Errors = append(rep.Errors, fmt.Sprintf(format, args...))
}

// summary is the report's main figures, one per line.
func (rep *soakReport) summary() []string {
	secs := rep.Duration.Seconds()
	out := []string{fmt.Sprintf("%v of load; %d links before it, %d made during it (%.0f/s); %d reviews by the worker, %d decisions by a moderator",
		rep.Duration.Round(time.Second), rep.Seeded, rep.Created, float64(rep.Created)/secs, rep.Reviews, rep.Decisions)}
	for op := range numSoakOps {
		o := rep.Ops[op]
		out = append(out, fmt.Sprintf("%s: %d answered (%.0f/s), %d 5xx, %d without answer, %d unexpected; p50 %v, p99 %v (%v outside faults)",
			soakOpNames[op], o[outOK], float64(o[outOK])/secs, o[out5xx], o[outTransport], o[outUnexpected],
			rep.Latency[op][0].Round(time.Microsecond*10), rep.Latency[op][1].Round(time.Microsecond*10), rep.Calm[op][1].Round(time.Microsecond*10)))
	}
	for _, f := range rep.Faults {
		out = append(out, fmt.Sprintf("%s: down %v, %d failures over %v", f.Name, f.Back.Sub(f.Down).Round(time.Millisecond), f.Failures, f.Window.Round(time.Millisecond)))
	}
	out = append(out, fmt.Sprintf("visits: %d redirects answered, %d unsure, %d stored (settled %v after the load)", rep.Answered, rep.Unsure, rep.Stored, rep.VisitWait.Round(time.Millisecond)),
		fmt.Sprintf("links: %d acknowledged checked on both servers, %d wrong; %d rows", rep.LinksChecked, len(rep.LinksWrong), rep.LinkRows))
	return out
}

// write puts report.md and throughput.svg into dir.
func (rep *soakReport) write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "throughput.svg"), []byte(rep.chart()), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "report.md"), []byte(rep.markdown()), 0o644)
}

// markdownWriter is a page being written and the function that adds a line to it.
func markdownWriter() (*strings.Builder, func(format string, args ...any)) {
	b := &strings.Builder{}
	return b, func(format string, args ...any) { fmt.Fprintf(b, format+"\n", args...) }
}

func (rep *soakReport) markdown() string {
	b, p := markdownWriter()
	secs := rep.Duration.Seconds()
	p("# Soak run")
	p("")
	p("`make soak` (`TestSoak` in `backend/e2e/soak_test.go`), %s, commit `%s`, %d CPUs, %s. Two server processes, the moderation worker (Chromium, a local model server speaking the OpenAI chat API), PostgreSQL and Redis of the run's own, all on this one machine with the load.",
		rep.Started.UTC().Format("2006-01-02 15:04 MST"), rep.Commit, runtime.NumCPU(), runtime.Version())
	p("")
	writeVerdict(p, rep.Errors)
	p("")
	p("![Throughput and failures per second](throughput.svg)")
	p("")
	p("## Load")
	p("")
	p("%v of load after %d links were made (a tenth with two variants and an iOS target). A client that sends a request refused at connect to the other server stands for the load balancer (Caddy's `lb_try_duration`): %d requests were sent again that way.", rep.Duration.Round(time.Second), rep.Seeded, rep.Retried)
	p("")
	p("| operation | answered | per second | 5xx | no answer | unexpected | p50 | p99 | max | p99 outside faults | max outside faults |")
	p("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for op := range numSoakOps {
		o, d, c := rep.Ops[op], rep.Latency[op], rep.Calm[op]
		p("| %s | %d | %.0f | %d | %d | %d | %v | %v | %v | %v | %v |", soakOpNames[op], o[outOK], float64(o[outOK])/secs, o[out5xx], o[outTransport], o[outUnexpected],
			d[0].Round(10*time.Microsecond), d[1].Round(10*time.Microsecond), d[2].Round(time.Millisecond),
			c[1].Round(10*time.Microsecond), c[2].Round(time.Millisecond))
	}
	p("")
	p("Outside faults: requests that began and ended outside every fault's span, from the fault's start until %v after its part was back.", soakGrace)
	p("")
	p("Links made during the run: %d (%.0f a second, one by one and in batches of %d). The worker reviewed %d links (each opened as three visitors in Chromium and scored by the model); a moderator read the queue of links waiting for their first review and approved one of each page (%d decisions answered).", rep.Created, float64(rep.Created)/secs, soakBatchRows, rep.Reviews, rep.Decisions)
	p("")
	p("## Faults")
	p("")
	p("A failure belongs to the latest fault that began before it, if it came within %v of that part being back; the fault's window runs from the moment it began to the last of its failures.", soakGrace)
	p("")
	p("| fault | at | down for | failed requests | window |")
	p("|---|---:|---:|---:|---:|")
	for _, f := range rep.Faults {
		p("| %s | %v | %v | %d | %v |", f.Name, f.Down.Sub(rep.Started).Round(time.Second), f.Back.Sub(f.Down).Round(10*time.Millisecond), f.Failures, f.Window.Round(10*time.Millisecond))
	}
	p("")
	p("Requests that failed outside every window: **%d**.", len(rep.Outside))
	for i, f := range rep.Outside {
		if i == 10 {
			p("- … and %d more", len(rep.Outside)-10)
			break
		}
		p("- at %v, %s on server %s: %d %s", f.At.Sub(rep.Started).Round(time.Millisecond), soakOpNames[f.Op], f.Node, f.Status, f.What)
	}
	p("")
	p("## Checks")
	p("")
	lost := rep.Answered - rep.Stored
	p("| check | result |")
	p("|---|---|")
	p("| every acknowledged link (%d before the load, %d during it) answers on both servers with its last acknowledged destination (HEAD, which makes no visit) | %d of %d answers wrong |", rep.Seeded, rep.Created, len(rep.LinksWrong), rep.LinksChecked*2)
	p("| edits acknowledged, and none lost | %d links whose last edit was acknowledged, all in the check above |", rep.EditsAcked)
	p("| rows in `links` ≥ links acknowledged | %d ≥ %d |", rep.LinkRows, rep.LinksChecked)
	p("| visits stored = redirects answered, less at most %d for the killed server (docs/architecture.md, \"What a crash loses\") | %d answered, %d stored: %d not stored |", soakKillLoss, rep.Answered, rep.Stored, lost)
	p("| visits stored ≤ redirects answered + requests without an answer | %d ≤ %d + %d |", rep.Stored, rep.Answered, rep.Unsure)
	p("")
	p("The visit count settled %v after the load stopped: the consumers' lag at the end. The chart's first panel sets the visits stored, by the second they were made in, beside the redirects answered.", rep.VisitWait.Round(10*time.Millisecond))
	p("")
	p("## Memory")
	p("")
	p("Proportional set size (shared pages divided among the processes that map them). The killed server's start figure is that of the process that was killed.")
	p("")
	p("| process | at the start of the load | at its end |")
	p("|---|---:|---:|")
	names := make([]string, 0, len(rep.MemEnd))
	for k := range rep.MemEnd {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		p("| %s | %.1f MiB | %.1f MiB |", k, float64(rep.MemStart[k])/1024, float64(rep.MemEnd[k])/1024)
	}
	return b.String()
}

// chart draws three panels over the run's seconds: redirects answered, the other operations
// (links made, writes, reads, reviews) and failures, with the faults shaded.
func (rep *soakReport) chart() string {
	const (
		w, left, right = 960, 70, 20
		panelH, gap    = 150, 40
		top            = 30
	)
	n := len(rep.Series.Redirects)
	if n < 2 {
		n = 2
	}
	plotW := float64(w - left - right)
	x := func(s int) float64 { return left + plotW*float64(s)/float64(n-1) }
	type line struct {
		name, color string
		v           []int64
	}
	panels := []struct {
		title string
		lines []line
	}{
		{"per second: redirects answered, and visits stored by the second they were made in", []line{
			{"redirects answered", "#1f77b4", rep.Series.Redirects}, {"visits stored", "#17becf", rep.Series.Stored}}},
		{"per second: links made, other writes, statistics reads, worker reviews", []line{
			{"links made", "#2ca02c", rep.Series.Created}, {"creates, batches, edits, decisions", "#9467bd", rep.Series.Writes},
			{"statistics and queue reads", "#8c564b", rep.Series.Reads}, {"worker reviews", "#ff7f0e", rep.Series.Reviews}}},
		{"failed requests per second (5xx, no answer, unexpected)", []line{{"failures", "#d62728", rep.Series.Failures}}},
	}
	h := top + len(panels)*(panelH+gap) + 20
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="11">`+"\n", w, h, w, h)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", w, h)
	fmt.Fprintf(&b, `<text x="%d" y="18" font-size="14">Soak run: %v, faults shaded</text>`+"\n", left, rep.Duration.Round(time.Second))
	for i, pn := range panels {
		y0 := float64(top + i*(panelH+gap) + 15)
		var peak int64 = 1
		for _, ln := range pn.lines {
			for _, v := range ln.v {
				peak = max(peak, v)
			}
		}
		scale := niceCeil(float64(peak))
		y := func(v int64) float64 { return y0 + panelH - panelH*float64(v)/scale }
		for _, f := range rep.Faults {
			x0 := x(int(f.Down.Sub(rep.Started).Seconds()))
			x1 := x(int(math.Ceil(f.Down.Add(max(f.Window, f.Back.Sub(f.Down))).Sub(rep.Started).Seconds())))
			fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%d" fill="#f4cccc" opacity="0.6"/>`+"\n", x0, y0, max(x1-x0, 2), panelH)
			if i == 0 {
				fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" fill="#990000">%s</text>`+"\n", x0+2, y0+28, html.EscapeString(shortFault(f.Name)))
			}
		}
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" font-size="12">%s</text>`+"\n", left, y0-4, html.EscapeString(pn.title))
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#999"/>`+"\n", left, y0+panelH, w-right, y0+panelH)
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#999"/>`+"\n", left, y0, left, y0+panelH)
		for _, v := range []float64{0, scale / 2, scale} {
			if v != float64(int64(v)) {
				continue // a half of a small scale: no tick between whole counts
			}
			fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%s</text>`+"\n", left-4, y(int64(v))+4, humanCount(v))
		}
		lx := left + 10 // where the next legend entry goes
		for _, ln := range pn.lines {
			var pts strings.Builder
			for s, v := range ln.v {
				fmt.Fprintf(&pts, "%.1f,%.1f ", x(s), y(v))
			}
			fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="1.2" points="%s"/>`+"\n", ln.color, strings.TrimSpace(pts.String()))
			if len(pn.lines) > 1 {
				fmt.Fprintf(&b, `<rect x="%d" y="%.1f" width="10" height="3" fill="%s"/><text x="%d" y="%.1f">%s</text>`+"\n", lx, y0+8, ln.color, lx+14, y0+12, html.EscapeString(ln.name))
				lx += 14 + 6*len(ln.name) + 24 // about 6 px a character at the chart's 11 px
			}
		}
		if i == len(panels)-1 {
			for s := 0; s < n; s += max(1, n/10) {
				fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%ds</text>`+"\n", x(s), y0+panelH+14, s)
			}
		}
	}
	b.WriteString("</svg>\n")
	return b.String()
}

// shortFault is a fault's label in the chart.
func shortFault(name string) string {
	first, _, _ := strings.Cut(name, " (")
	first, _, _ = strings.Cut(first, ",")
	return first
}

// niceCeil is the smallest of 1, 2 or 5 times a power of ten at or above v.
func niceCeil(v float64) float64 {
	if v <= 1 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}

func humanCount(v float64) string {
	if v >= 1000 {
		return fmt.Sprintf("%gk", v/1000)
	}
	return fmt.Sprintf("%g", v)
}

// writeVerdict writes a report's verdict: every check passed, or the list of those that failed.
func writeVerdict(p func(format string, args ...any), failed []string) {
	if len(failed) == 0 {
		p("**Every check passed.**")
		return
	}
	p("**Failed checks:**")
	for _, e := range failed {
		p("- %s", e)
	}
}
