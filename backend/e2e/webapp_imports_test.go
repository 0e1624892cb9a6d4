package e2e

import (
	"encoding/csv"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/playwright-community/playwright-go"
)

// A customer on the trial imports a CSV file of 300 rows, five of them bad, from the imports
// page: the file chosen, the upload's toast, the job followed to its end (rows done, links
// created, rows failed), and the per-row results file downloaded, one line per row with the
// short URL or the error. On the bulk page, three pasted lines with one bad: the two good ones
// are created and the bad one is listed with its error in the customer's language.
func TestWebAppImports(t *testing.T) {
	s := newDeployment(t).start(t)
	eachLook(t, twoLooks, func(t *testing.T, l look) {
		email := fmt.Sprintf("imports-%s@example.com", l.name)
		tn := s.signupOn(email, "trial")
		const rows = 300
		bad := map[int]bool{17: true, 80: true, 150: true, 222: true, 299: true}
		var file strings.Builder
		file.WriteString("url,title\n")
		for i := 1; i <= rows; i++ {
			if bad[i] {
				fmt.Fprintf(&file, "javascript:alert(%d),bad %d\n", i, i)
				continue
			}
			fmt.Fprintf(&file, "https://example.com/%s/%d,Row %d\n", l.name, i, i)
		}
		path := filepath.Join(t.TempDir(), "spring-links.csv")
		if err := os.WriteFile(path, []byte(file.String()), 0o600); err != nil {
			t.Fatal(err)
		}

		w := walk(t, s, l)
		w.signIn(email, "correct horse battery")
		w.open("/imports", "")
		w.see(w.exact("heading", l.tr("Imports", "导入")))
		w.see(w.text(l.tr("Up to 64 MB and 100,000 rows.", "最大 64 MB，最多 100,000 行。")))
		w.see(w.text(l.tr("No imports yet.", "还没有导入记录。")))
		// A file dropped onto the page is taken like a chosen one; this one is put back.
		dt, err := w.p.EvaluateHandle(`(text) => { const dt = new DataTransfer(); dt.items.add(new File([text], "dropped.csv", { type: "text/csv" })); return dt; }`, "url\nhttps://example.com/dropped\n")
		if err != nil {
			t.Fatal(err)
		}
		if err := w.p.GetByTestId("import-dropzone").DispatchEvent("drop", map[string]any{"dataTransfer": dt}); err != nil {
			t.Fatalf("drop: %v", err)
		}
		w.see(w.text("dropped.csv"))
		w.click(w.button(l.tr("Remove", "删除")))
		if err := expectLocator(w.p.GetByTestId("import-file")).ToHaveCount(0); err != nil {
			t.Fatal(err)
		}
		if err := w.p.Locator(`input[type="file"]`).SetInputFiles(path); err != nil {
			t.Fatalf("choose the file: %v", err)
		}
		w.click(w.button(l.tr("Start the import", "开始导入")))
		w.see(w.text(l.tr("Import of spring-links.csv started.", "已开始导入 spring-links.csv。")))

		// The job's card follows it to its end.
		card := w.exact("article", "spring-links.csv")
		if err := expectLocator(card.GetByTestId("import-state")).ToHaveText(l.tr("Done", "已完成")); err != nil {
			t.Fatalf("import state: %v", err)
		}
		if err := expectLocator(card.GetByTestId("import-counts")).ToHaveText(l.tr("300 of 300 rows · 295 created · 5 failed", "已处理 300 / 300 行 · 成功 295 个 · 失败 5 个")); err != nil {
			t.Fatal(err)
		}
		// The bar in two colours: the links made in green, the failed rows in red beside them.
		bar := within(card, "group", l.tr("Progress of spring-links.csv", "spring-links.csv 的进度"))
		w.see(within(bar, "progressbar", l.tr("295 links made", "已创建 295 个链接")))
		w.see(within(bar, "progressbar", l.tr("5 rows failed", "5 行失败")))
		parts, err := bar.Evaluate(`b => {
			const rgb = (el) => getComputedStyle(el).backgroundColor.match(/\d+/g).map(Number);
			const made = b.querySelector("[data-testid=import-bar-made]"), failed = b.querySelector("[data-testid=import-bar-failed]");
			const [mr, mg] = rgb(made), [fr, fg] = rgb(failed), whole = b.getBoundingClientRect().width;
			return { greenMade: mg > mr, redFailed: fr > fg, made: made.getBoundingClientRect().width / whole, failed: failed.getBoundingClientRect().width / whole };
		}`, nil)
		if p, ok := parts.(map[string]any); err != nil || !ok || p["greenMade"] != true || p["redFailed"] != true ||
			p["made"].(float64) < 0.95 || p["failed"].(float64) <= 0 || p["failed"].(float64) > 0.03 {
			t.Errorf("[%s] the bar's parts: %v %v", l.name, parts, err)
		}
		// Why each row failed: its number, its URL and the reason in the look's language.
		failures := card.GetByTestId("import-failure")
		if err := expectLocator(failures).ToHaveCount(len(bad)); err != nil {
			t.Fatalf("[%s] the failed rows: %v", l.name, err)
		}
		first := failures.First()
		for _, want := range []string{"17", "javascript:alert(17)", l.tr("Use a URL that starts with http:// or https://.", "网址须以 http:// 或 https:// 开头。")} {
			if err := expectLocator(first).ToContainText(want); err != nil {
				t.Errorf("[%s] the first failed row: %v", l.name, err)
			}
		}
		if texts, err := failures.AllInnerTexts(); err != nil || (l.zh() && strings.Contains(strings.Join(texts, "\n"), "is not allowed")) {
			t.Errorf("[%s] the server's English in the failed rows: %q %v", l.name, texts, err)
		}
		w.accessible("the imports page with failures")
		w.shoot("imports")

		// The results file: a line per row, the short URL or the error.
		name, body := w.download(within(card, "link", l.tr("Download results", "下载结果")))
		if !strings.HasSuffix(name, ".csv") {
			t.Errorf("results file name %q", name)
		}
		recs, err := csv.NewReader(strings.NewReader(string(body))).ReadAll()
		if err != nil {
			t.Fatalf("results CSV: %v", err)
		}
		if len(recs) != rows+1 || strings.Join(recs[0], ",") != "row,line,url,short_url,error_code,error,error_reason" {
			t.Fatalf("results: %d lines, header %q", len(recs), recs[0])
		}
		for i, rec := range recs[1:] {
			n := i + 1
			if rec[0] != fmt.Sprint(n) || rec[1] != fmt.Sprint(n+1) {
				t.Errorf("row %d: %q", n, rec)
			}
			if bad[n] {
				if rec[3] != "" || rec[4] != "invalid" || rec[5] == "" || rec[6] == "" {
					t.Errorf("bad row %d: %q", n, rec)
				}
			} else if !strings.HasPrefix(rec[3], "http://"+shortHost+"/") || rec[4] != "" || rec[2] != fmt.Sprintf("https://example.com/%s/%d", l.name, n) {
				t.Errorf("good row %d: %q", n, rec)
			}
		}

		// Bulk paste with one bad line: the good ones are made, the bad one listed.
		w.open("/bulk", "")
		w.see(w.exact("heading", l.tr("Bulk create", "批量创建")))
		w.see(w.link(l.tr("A large file (up to 100,000 rows)? Use the import page.", "文件较大（最多 100,000 行）？请使用导入页面。")))
		w.fill(w.textbox(l.tr("Links, one a line", "链接，每行一个")), fmt.Sprintf(
			"https://example.com/%[1]s/pasted-1\nftp://example.com/file.zip\nhttps://example.com/%[1]s/pasted-2, pasted-%[1]s", l.name))
		w.click(w.button(l.tr("Create the links", "创建链接")))
		w.see(w.text(l.tr("2 created, 1 failed", "成功 2 个，失败 1 个")))
		failed := w.p.Locator(`[data-testid="bulk-row"][data-failed]`)
		if err := expectLocator(failed).ToHaveCount(1); err != nil {
			t.Fatal(err)
		}
		if err := expectLocator(failed).ToContainText(l.tr("Use an http or https URL.", "请使用 http 或 https 网址。")); err != nil {
			t.Fatal(err)
		}
		w.see(w.p.GetByRole("link", playwright.PageGetByRoleOptions{Name: "sho.rt/pasted-" + l.name}))
		w.accessible("the bulk page with refusals")
		w.shoot("bulk-partial")
		for _, u := range []string{"pasted-1", "pasted-2"} {
			r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links?q=%s", tn.WorkspaceID, u), tn.Key, nil)
			if r.Status != http.StatusOK || !strings.Contains(string(r.Body), fmt.Sprintf("https://example.com/%s/%s", l.name, u)) {
				t.Errorf("link %s not created: %d %.300s", u, r.Status, r.Body)
			}
		}
	})
}
