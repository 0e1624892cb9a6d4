package e2e

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"mime/multipart"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"
)

// importJSON is an import as the API shows it.
type importJSON struct {
	ID         int64      `json:"id"`
	State      string     `json:"state"`
	Format     string     `json:"format"`
	Filename   string     `json:"filename"`
	Rows       int        `json:"rows"`
	Done       int        `json:"done"`
	Failed     int        `json:"failed"`
	Created    int        `json:"created"`
	Error      string     `json:"error"`
	StartedAt  *time.Time `json:"started_at"`
	FinishedAt *time.Time `json:"finished_at"`
}

// upload posts file to the workspace's imports as the multipart field "file".
func (s *server) upload(cred string, ws int64, name string, file []byte) response {
	s.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	w, err := mw.CreateFormFile("file", name)
	if err != nil {
		s.t.Fatal(err)
	}
	_, _ = w.Write(file)
	_ = mw.Close()
	req, err := http.NewRequest("POST", fmt.Sprintf("%s/api/v1/workspaces/%d/imports", s.base, ws), &body)
	if err != nil {
		s.t.Fatal(err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+cred)
	return s.send(req)
}

// startImport uploads file and returns the queued import.
func (s *server) startImport(cred string, ws int64, file []byte) importJSON {
	s.t.Helper()
	r := s.upload(cred, ws, "links.csv", file)
	if r.Status != http.StatusAccepted {
		s.t.Fatalf("upload: %d %s", r.Status, r.Body)
	}
	var im importJSON
	r.json(s.t, &im)
	return im
}

func (s *server) getImport(cred string, ws, id int64) importJSON {
	s.t.Helper()
	r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/imports/%d", ws, id), cred, nil)
	return answer[importJSON](s.t, r, http.StatusOK, "get import")
}

// waitImport polls the import until it has finished.
func (s *server) waitImport(cred string, ws, id int64, within time.Duration) importJSON {
	s.t.Helper()
	var im importJSON
	eventually(s.t, within, "import finished", func() bool {
		im = s.getImport(cred, ws, id)
		if im.Done > im.Rows || im.Failed > im.Done {
			s.t.Fatalf("progress beyond the file: %+v", im)
		}
		return im.State == "done" || im.State == "failed"
	})
	return im
}

// importResults downloads the results file: its header and its records.
func (s *server) importResults(cred string, ws, id int64) [][]string {
	s.t.Helper()
	r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/imports/%d/results.csv", ws, id), cred, nil)
	if r.Status != http.StatusOK || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/csv") {
		s.t.Fatalf("results: %d %s %.300s", r.Status, r.Header.Get("Content-Type"), r.Body)
	}
	recs, err := csv.NewReader(bytes.NewReader(r.Body)).ReadAll()
	if err != nil {
		s.t.Fatalf("results are not CSV: %v", err)
	}
	if strings.Join(recs[0], ",") != "row,line,url,short_url,error_code,error,error_reason" {
		s.t.Fatalf("results header %q", recs[0])
	}
	return recs[1:]
}

// importRows is importResults, failing the test unless there are n lines.
func (s *server) importRows(cred string, ws, id int64, n int) [][]string {
	s.t.Helper()
	recs := s.importResults(cred, ws, id)
	if len(recs) != n {
		s.t.Fatalf("%d result lines, want %d", len(recs), n)
	}
	return recs
}

// bigImport is a file of n rows with bad ones among them at known places, and the error code
// each row must end with ("" for a link).
func bigImport(n int) ([]byte, []string) {
	var b bytes.Buffer
	b.WriteString("url,alias,domain,title,expires_at,password\n")
	want := make([]string, n+1)
	for i := 1; i <= n; i++ {
		url, alias, domain, title, expires, password := fmt.Sprintf("https://imp.example/p/%d", i), "", "", fmt.Sprintf("t%d", i), "", ""
		switch i % 1000 {
		case 7:
			url, want[i] = fmt.Sprintf("javascript:alert(%d)", i), "invalid"
		case 13:
			url, want[i] = "", "invalid"
		case 20:
			alias = fmt.Sprintf("dup-%d", i)
		case 21:
			alias, want[i] = fmt.Sprintf("dup-%d", i-1), "conflict"
		case 33:
			expires, want[i] = "not-a-time", "invalid"
		case 34:
			expires = "2031-01-02"
		case 40:
			domain, want[i] = "unknown.example", "invalid"
		case 41:
			domain = shortHost
		case 50:
			// A bare quote: this line alone is not CSV.
			fmt.Fprintf(&b, "https://imp.example/q\"%d,,,,,\n", i)
			want[i] = "invalid"
			continue
		case 60:
			url, want[i] = "http://"+shortHost+"/loop", "invalid"
		}
		if i%20000 == 5 {
			password = fmt.Sprintf("secret-%d", i)
		}
		fmt.Fprintf(&b, "%s,%s,%s,%s,%s,%s\n", url, alias, domain, title, expires, password)
		if i == 500 {
			b.WriteString("\n,,,,,\n") // skipped: not rows
		}
	}
	return b.Bytes(), want
}

// TestImport100k imports 100,000 rows, good and bad, through the API: every row gets exactly
// the result it should, every good row exactly one link, and the links redirect.
func TestImport100k(t *testing.T) {
	d := newDeployment(t)
	s := d.start(t, "ID_BLOCK_SIZE", "1000")
	tn := s.signupOn("importer@example.com", "enterprise")
	const n = 100000
	file, want := bigImport(n)

	uploaded := time.Now()
	im := s.startImport(tn.Key, tn.WorkspaceID, file)
	if im.State != "queued" && im.State != "running" || im.Rows != n || im.Format != "shortlink" || im.Filename != "links.csv" {
		t.Fatalf("queued import: %+v", im)
	}
	// The results wait for the end.
	if r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/imports/%d/results.csv", tn.WorkspaceID, im.ID), tn.Key, nil); r.Status != http.StatusConflict || r.errorCode(t) != "conflict" {
		if now := s.getImport(tn.Key, tn.WorkspaceID, im.ID); now.State != "done" {
			t.Errorf("results of a %s import: %d %.200s, want 409", now.State, r.Status, r.Body)
		}
	}
	// Progress is readable while it runs.
	sawProgress := false
	eventually(t, 3*time.Minute, "import finished", func() bool {
		im = s.getImport(tn.Key, tn.WorkspaceID, im.ID)
		if im.State == "running" && im.Done > 0 && im.Done < n {
			sawProgress = true
		}
		time.Sleep(50 * time.Millisecond)
		return im.State == "done" || im.State == "failed"
	})
	took := time.Since(uploaded)
	failures := 0
	for _, w := range want[1:] {
		if w != "" {
			failures++
		}
	}
	if im.State != "done" || im.Rows != n || im.Done != n || im.Failed != failures || im.Created != n-failures {
		t.Fatalf("finished import: %+v, want %d rows, %d failed", im, n, failures)
	}
	run := im.FinishedAt.Sub(*im.StartedAt)
	t.Logf("imported %d rows (%d failed) in %v (%.0f rows/s); %v from upload to done", n, failures, run.Round(time.Millisecond),
		float64(n)/run.Seconds(), took.Round(time.Millisecond))
	if !sawProgress {
		t.Logf("the import finished between two polls: progress was not seen mid-way")
	}

	recs := s.importRows(tn.Key, tn.WorkspaceID, im.ID, n)
	shorts := map[string]int{}
	for i, rec := range recs {
		row := i + 1
		line := row + 1
		if row > 500 {
			line += 2
		}
		if rec[0] != fmt.Sprint(row) || rec[1] != fmt.Sprint(line) {
			t.Fatalf("result %d numbered row %s line %s, want %d %d", i, rec[0], rec[1], row, line)
		}
		switch w := want[row]; {
		case w == "" && (rec[3] == "" || rec[4] != ""):
			t.Fatalf("row %d: %q, want a link", row, rec)
		case w != "" && (rec[3] != "" || rec[4] != w || rec[5] == ""):
			t.Fatalf("row %d: %q, want error %s", row, rec, w)
		case w == "":
			if prev, ok := shorts[rec[3]]; ok {
				t.Fatalf("rows %d and %d have one short URL %s", prev, row, rec[3])
			}
			shorts[rec[3]] = row
			if row%1000 == 1 && rec[2] != fmt.Sprintf("https://imp.example/p/%d", row) {
				t.Fatalf("row %d url %q", row, rec[2])
			}
		}
	}
	// One link per good row, none for a bad one.
	ctx := context.Background()
	conn := d.conn(t)
	var links, urls int
	if err := conn.QueryRow(ctx, `SELECT count(*), count(DISTINCT url) FROM links WHERE workspace_id = $1`, tn.WorkspaceID).Scan(&links, &urls); err != nil {
		t.Fatal(err)
	}
	if links != n-failures || urls != links {
		t.Fatalf("%d links to %d URLs, want %d", links, urls, n-failures)
	}
	// The links work: a generated code, an alias, one on the named short domain, one with an
	// expiry; one with a password asks for it.
	byRow := map[int]string{}
	for short, row := range shorts {
		byRow[row] = short
	}
	if byRow[20] != "http://"+shortHost+"/dup-20" {
		t.Errorf("alias row: %q", byRow[20])
	}
	for _, row := range []int{1, 20, 41, 34, 99999} {
		v := s.visit("GET", strings.TrimPrefix(byRow[row], "http://"+shortHost))
		if v.Status != http.StatusFound || v.Header.Get("Location") != fmt.Sprintf("https://imp.example/p/%d", row) {
			t.Errorf("row %d %s: %d %s", row, byRow[row], v.Status, v.Header.Get("Location"))
		}
	}
	if v := s.visit("GET", strings.TrimPrefix(byRow[20005], "http://"+shortHost)); v.Status != http.StatusOK || !strings.Contains(string(v.Body), `name="password"`) {
		t.Errorf("password row %s: %d, want the password page", byRow[20005], v.Status)
	}
}

// TestImportFormats: Bitly's and Shlink's exports, our own links export and a bare list of URLs
// are each read by their columns; a file may come as a text/csv body too.
func TestImportFormats(t *testing.T) {
	s := newDeployment(t).start(t)
	tn := s.signupOn("formats@example.com", "trial")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", tn.WorkspaceID)
	mine := s.createLink(tn, map[string]any{"url": "https://ours.example/1", "title": "Ours"})
	var export []byte
	{
		r := s.do("GET", ws+"/links/export.csv", tn.Key+"", nil)
		if r.Status != http.StatusOK {
			// The key lacks nothing: export needs stats:read, which the tests' key has.
			t.Fatalf("export: %d %s", r.Status, r.Body)
		}
		export = bytes.ReplaceAll(r.Body, []byte(mine.ShortURL), []byte("http://old.example/x"))
	}
	cases := []struct {
		name, format, file string
		rows               [][3]string // url, short_url ("" for an error), error code
		asBody             bool
	}{
		{"bitly api", "bitly",
			"id,link,long_url,title,created_at,archived,tags,custom_bitlinks\n" +
				"bit.ly/3ab,https://bit.ly/3ab,https://bitly.example/1,One,2024-03-01T10:00:00+0000,false,,\n" +
				"bit.ly/3ac,https://bit.ly/3ac,not a url,Two,2024-03-01T10:00:00+0000,false,,\n",
			[][3]string{{"https://bitly.example/1", "*", ""}, {"not a url", "", "invalid"}}, false},
		{"bitly web export", "bitly",
			"\ufeffTitle,Bitlink,Long URL,Created,Clicks\r\n\"Three, with comma\",bit.ly/x,https://bitly.example/3,2024-03-01,5\r\n",
			[][3]string{{"https://bitly.example/3", "*", ""}}, true},
		{"shlink", "shlink",
			"createdAt,domain,shortCode,shortUrl,longUrl,title,tags,visits\n" +
				"2024-01-01T00:00:00+00:00,,sh-one,https://s.test/sh-one,https://shlink.example/1,One,a|b,4\n" +
				"2024-01-01T00:00:00+00:00," + shortHost + ",sh-two,https://s.test/sh-two,https://shlink.example/2,Two,,0\n" +
				"2024-01-01T00:00:00+00:00,s.test,sh-three,https://s.test/sh-three,https://shlink.example/3,Three,,0\n",
			[][3]string{{"https://shlink.example/1", "http://" + shortHost + "/sh-one", ""},
				{"https://shlink.example/2", "http://" + shortHost + "/sh-two", ""},
				{"https://shlink.example/3", "", "invalid"}}, false},
		{"shlink semicolons", "shlink",
			"shortCode;longUrl;validUntil\nsh-four;https://shlink.example/4;2031-05-06\n",
			[][3]string{{"https://shlink.example/4", "http://" + shortHost + "/sh-four", ""}}, true},
		{"our export", "shortlink", string(export),
			[][3]string{{"https://ours.example/1", "*", ""}}, false},
		{"plain", "plain", "https://plain.example/1\nhttps://plain.example/2,ignored\n\nftp://plain.example/3\nhttps://plain.example/\x00nul\xff\n",
			[][3]string{{"https://plain.example/1", "*", ""}, {"https://plain.example/2", "*", ""}, {"ftp://plain.example/3", "", "invalid"},
				{"https://plain.example/nul\uFFFD", "", "invalid"}}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var r response
			if c.asBody {
				req, _ := http.NewRequest("POST", s.base+ws+"/imports", strings.NewReader(c.file))
				req.Header.Set("Content-Type", "text/csv; charset=utf-8")
				req.Header.Set("Authorization", "Bearer "+tn.Token)
				r = s.send(req)
			} else {
				r = s.upload(tn.Token, tn.WorkspaceID, c.name+".csv", []byte(c.file))
			}
			if r.Status != http.StatusAccepted || r.Header.Get("Location") == "" {
				t.Fatalf("upload: %d %s", r.Status, r.Body)
			}
			var im importJSON
			r.json(t, &im)
			if im.Format != c.format || im.Rows != len(c.rows) {
				t.Errorf("format %q rows %d, want %q %d", im.Format, im.Rows, c.format, len(c.rows))
			}
			im = s.waitImport(tn.Token, tn.WorkspaceID, im.ID, 30*time.Second)
			recs := s.importResults(tn.Token, tn.WorkspaceID, im.ID)
			if im.State != "done" || len(recs) != len(c.rows) {
				t.Fatalf("%+v: %q", im, recs)
			}
			for i, w := range c.rows {
				rec := recs[i]
				ok := rec[2] == w[0] && rec[4] == w[2] && (w[1] == "*" && strings.HasPrefix(rec[3], "http://"+shortHost+"/") || rec[3] == w[1])
				if !ok {
					t.Errorf("row %d: %q, want %q", i+1, rec, w)
					continue
				}
				if rec[3] != "" {
					v := s.visit("GET", strings.TrimPrefix(rec[3], "http://"+shortHost))
					if v.Status != http.StatusFound || v.Header.Get("Location") != w[0] {
						t.Errorf("row %d: %s answers %d %s", i+1, rec[3], v.Status, v.Header.Get("Location"))
					}
				}
			}
		})
	}
	var list struct {
		Imports    []importJSON `json:"imports"`
		NextCursor string       `json:"next_cursor"`
	}
	s.do("GET", ws+"/imports?limit=4", tn.Key, nil).json(t, &list)
	if len(list.Imports) != 4 || list.NextCursor == "" || list.Imports[0].ID <= list.Imports[1].ID {
		t.Fatalf("first page: %+v", list)
	}
	s.do("GET", ws+"/imports?limit=4&cursor="+list.NextCursor, tn.Key, nil).json(t, &list)
	if len(list.Imports) != len(cases)-4 || list.NextCursor != "" {
		t.Fatalf("second page: %+v", list)
	}
}

// TestImportPlansAndRoles: imports need the batch feature and links:write; each row counts
// against the month's quota and is gated like a row of a batch; viewers read imports, and
// other workspaces cannot see them.
func TestImportPlansAndRoles(t *testing.T) {
	s := newDeployment(t).start(t, "PLAN_LIMITS", "trial.links_per_month=5")
	owner := s.signup("owner@example.com")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", owner.WorkspaceID)
	file := []byte("url,password\n")
	for i := 1; i <= 8; i++ {
		pw := ""
		if i == 2 {
			pw = "long enough"
		}
		file = fmt.Appendf(file, "https://quota.example/%d,%s\n", i, pw)
	}
	// Free: no batch creation.
	if r := s.upload(owner.Token, owner.WorkspaceID, "f.csv", file); r.Status != http.StatusForbidden || r.errorCode(t) != "plan_required" {
		t.Fatalf("free plan: %d %s", r.Status, r.Body)
	}
	s.setPlan(owner, "trial")
	im := s.startImport(owner.Token, owner.WorkspaceID, file)
	im = s.waitImport(owner.Token, owner.WorkspaceID, im.ID, 30*time.Second)
	if im.State != "done" || im.Done != 8 || im.Failed != 3 || im.Created != 5 {
		t.Fatalf("quota of 5: %+v", im)
	}
	recs := s.importResults(owner.Token, owner.WorkspaceID, im.ID)
	for i, rec := range recs {
		if want := i >= 5; (rec[4] == "quota_exceeded") != want || (rec[3] == "") != want {
			t.Errorf("row %d: %q", i+1, rec)
		}
	}

	// A viewer reads imports and their results but cannot start one; so do API keys by scope.
	viewer := s.joined(owner, "viewer@example.com", "viewer")
	if got := s.getImport(viewer.Token, owner.WorkspaceID, im.ID); got.ID != im.ID {
		t.Fatalf("viewer reads: %+v", got)
	}
	s.importRows(viewer.Token, owner.WorkspaceID, im.ID, 8) // the viewer reads them
	if r := s.upload(viewer.Token, owner.WorkspaceID, "v.csv", file); r.Status != http.StatusForbidden || r.errorCode(t) != "forbidden" {
		t.Fatalf("viewer uploads: %d %s", r.Status, r.Body)
	}
	// Another workspace's member sees none of it.
	other := s.signup("other@example.com")
	for _, p := range []string{"", "/results.csv"} {
		if r := s.do("GET", fmt.Sprintf("%s/imports/%d%s", ws, im.ID, p), other.Token, nil); r.Status != http.StatusNotFound {
			t.Errorf("other workspace GET%s: %d %s", p, r.Status, r.Body)
		}
		if r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/imports/%d%s", other.WorkspaceID, im.ID, p), other.Token, nil); r.Status != http.StatusNotFound {
			t.Errorf("through her own workspace GET%s: %d %s", p, r.Status, r.Body)
		}
	}
	var list struct {
		Imports  []importJSON
		MaxBytes int64 `json:"max_bytes"`
		MaxRows  int   `json:"max_rows"`
	}
	s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/imports", other.WorkspaceID), other.Key, nil).json(t, &list)
	if len(list.Imports) != 0 {
		t.Errorf("other workspace lists %+v", list)
	}
	// The list says how large a file may be, for the app to show before an upload.
	if list.MaxBytes != 64<<20 || list.MaxRows != 100_000 {
		t.Errorf("limits in the list: %d bytes, %d rows", list.MaxBytes, list.MaxRows)
	}
}

// TestImportResumesAfterKillAndStop runs an import on real server processes: the first is killed
// (SIGKILL) mid-import, the next resumes it once the lease runs out and is stopped (SIGTERM)
// mid-import in turn, giving the job back, and a third finishes it. Every row ends with exactly
// one link and one result.
func TestImportResumesAfterKillAndStop(t *testing.T) {
	d := newDeployment(t)
	env := []string{"IMPORT_LEASE", "2s", "ID_BLOCK_SIZE", "1000"}
	a := d.startProcess(t, "import-a", env...)
	api := a.api(d)
	tn := api.signupOn("resume@example.com", "enterprise")
	const n = 60000
	var b bytes.Buffer
	b.WriteString("url,alias\n")
	bad := 0
	for i := 1; i <= n; i++ {
		switch {
		case i%1000 == 999:
			fmt.Fprintf(&b, "mailto:x%d@example.com,\n", i)
			bad++
		case i%100 == 0:
			fmt.Fprintf(&b, "https://resume.example/%d,r-%d\n", i, i)
		default:
			fmt.Fprintf(&b, "https://resume.example/%d,\n", i)
		}
	}
	im := api.startImport(tn.Key, tn.WorkspaceID, b.Bytes())
	progress := func(s *server, min int) int {
		var got importJSON
		eventually(t, 60*time.Second, fmt.Sprintf("%d rows done", min), func() bool {
			got = s.getImport(tn.Key, tn.WorkspaceID, im.ID)
			return got.Done >= min || got.State == "done"
		})
		if got.State == "done" {
			t.Fatalf("the import finished before the process could be stopped: %+v", got)
		}
		return got.Done
	}

	ctx := context.Background()
	conn := d.conn(t)
	// Rows recorded with their links' IDs past the checkpoint: a chunk under way.
	inFlight := func() int {
		var k int
		if err := conn.QueryRow(ctx, `SELECT count(*) FROM import_rows r JOIN imports i ON i.id = r.import_id
			WHERE i.id = $1 AND r.row_no >= i.next_row`, im.ID).Scan(&k); err != nil {
			t.Fatal(err)
		}
		return k
	}

	// SIGKILL once some rows are done, at a moment a chunk's rows are recorded and not yet
	// checkpointed (their links written or not).
	killedAt := progress(api, 3000)
	eventually(t, 30*time.Second, "a chunk under way", func() bool { return inFlight() > 0 })
	a.signal(syscall.SIGKILL)
	_ = a.wait(10 * time.Second)
	recorded := inFlight()

	p2 := d.startProcess(t, "import-b", env...)
	stoppedAt := progress(p2.api(d), killedAt+6000)
	if !p2.logged("import: resuming") {
		t.Errorf("the second process did not resume the job:\n%s", p2.log())
	}
	if recorded > 0 && !p2.logged("import: rows recorded by an earlier try") {
		t.Errorf("%d rows were recorded past the checkpoint, but the second process did not find them:\n%s", recorded, p2.log())
	}
	for _, l := range strings.Split(p2.log(), "\n") {
		if strings.Contains(l, "earlier try") {
			t.Logf("second process: %s", l)
		}
	}
	p2.signal(syscall.SIGTERM)
	if err := p2.wait(30 * time.Second); err != nil {
		t.Fatalf("the second process after SIGTERM: %v\n%s", err, p2.log())
	}
	if !p2.logged("import: given back") {
		t.Errorf("the second process did not give the job back:\n%s", p2.log())
	}
	var state string
	var owner *string
	if err := conn.QueryRow(ctx, `SELECT state, lease_owner FROM imports WHERE id = $1`, im.ID).Scan(&state, &owner); err != nil || state != "queued" || owner != nil {
		t.Fatalf("after SIGTERM the job is %q held by %v (%v), want queued and free", state, owner, err)
	}
	if k := inFlight(); k != 0 {
		t.Errorf("SIGTERM left %d rows recorded past the checkpoint: the chunk under way was not finished", k)
	}

	p3 := d.startProcess(t, "import-c", env...)
	api3 := p3.api(d)
	done := api3.waitImport(tn.Key, tn.WorkspaceID, im.ID, 2*time.Minute)
	t.Logf("killed at %d rows done with %d recorded past the checkpoint, stopped at %d, finished: %+v", killedAt, recorded, stoppedAt, done)
	if done.State != "done" || done.Rows != n || done.Done != n || done.Failed != bad {
		t.Fatalf("finished import: %+v, want %d rows, %d failed", done, n, bad)
	}
	recs := api3.importRows(tn.Key, tn.WorkspaceID, im.ID, n)
	seen := map[string]bool{}
	for i, rec := range recs {
		row := i + 1
		failed := row%1000 == 999
		if rec[0] != fmt.Sprint(row) || (rec[3] == "") != failed || (rec[4] == "invalid") != failed || seen[rec[3]] && !failed {
			t.Fatalf("row %d: %q", row, rec)
		}
		seen[rec[3]] = true
		if row%100 == 0 && rec[3] != fmt.Sprintf("http://%s/r-%d", shortHost, row) {
			t.Fatalf("alias row %d: %q", row, rec)
		}
	}
	// Exactly one link per good row: none twice, none missing, each the one its result names.
	var links, urls, matched, claims int
	err := conn.QueryRow(ctx, `SELECT count(*), count(DISTINCT url) FROM links WHERE workspace_id = $1`, tn.WorkspaceID).Scan(&links, &urls)
	if err != nil {
		t.Fatal(err)
	}
	err = conn.QueryRow(ctx, `SELECT count(*) FROM import_rows r JOIN links l ON l.id = r.link_id AND l.url = r.url
		WHERE r.import_id = $1`, im.ID).Scan(&matched)
	if err != nil {
		t.Fatal(err)
	}
	if err := conn.QueryRow(ctx, `SELECT claims FROM imports WHERE id = $1`, im.ID).Scan(&claims); err != nil {
		t.Fatal(err)
	}
	if links != n-bad || urls != links || matched != links || claims != 3 {
		t.Fatalf("%d links to %d URLs, %d matching their rows, %d claims; want %d links and 3 claims", links, urls, matched, claims, n-bad)
	}
}

// TestImportLongRow: a data row longer than 64 KiB stops the file at the upload with 400, as
// docs/domains-and-imports.md says, whatever its length past the bound; nothing is imported.
func TestImportLongRow(t *testing.T) {
	s := newDeployment(t).start(t)
	tn := s.signupOn("long-row@example.com", "enterprise")
	for _, n := range []int{64<<10 + 1, 66 << 10} {
		file := []byte("url\nhttps://long-row.example/1\nhttps://long-row.example/" + strings.Repeat("a", n) + "\n")
		r := s.upload(tn.Key, tn.WorkspaceID, "long.csv", file)
		if r.Status != http.StatusBadRequest || r.errorCode(t) != "invalid" || !strings.Contains(string(r.Body), "longer than 65536 bytes") {
			t.Errorf("a row of %d bytes: %d %s", n, r.Status, r.Body)
		}
	}
	var list struct {
		Imports []importJSON `json:"imports"`
	}
	s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/imports", tn.WorkspaceID), tn.Key, nil).json(t, &list)
	if len(list.Imports) != 0 {
		t.Errorf("imports after refused uploads: %+v", list.Imports)
	}
}
