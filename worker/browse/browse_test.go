package browse

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/png"
	"io"
	"io/fs"
	"maps"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
	"github.com/shortlink/shortlink/backend/moderation"
)

const benignPage = `<!doctype html><html><head><title>Riverside Bakery</title>
<meta name="description" content="Fresh bread   every morning since 1987.">
<meta name="viewport" content="width=device-width, initial-scale=1">
</head><body><h1>Riverside   Bakery</h1>
<p>Sourdough, rye and
   croissants.</p><p style="display:none">hidden words</p></body></html>`

func TestReviewBenignPage(t *testing.T) {
	t.Parallel()
	b := sharedBrowser(t)
	netw.handleHTML("bakery.test", benignPage)
	url := "http://bakery.test/"
	captures, err := b.Review(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	if len(captures) != 3 {
		t.Fatalf("%d captures", len(captures))
	}
	sizes := map[moderation.Profile][2]int{moderation.Desktop: {1366, 768}, moderation.Mobile: {390, 844}, moderation.WeChat: {412, 915}}
	for i, c := range captures {
		if c.Profile != moderation.Profiles[i] {
			t.Errorf("capture %d is %s, want %s", i, c.Profile, moderation.Profiles[i])
		}
		if c.Error != "" {
			t.Errorf("%s: error %q", c.Profile, c.Error)
		}
		if c.URL != url || c.FinalURL != url || len(c.Redirects) != 1 || c.Redirects[0] != url {
			t.Errorf("%s: url %s final %s redirects %v", c.Profile, c.URL, c.FinalURL, c.Redirects)
		}
		if c.Status != 200 {
			t.Errorf("%s: status %d", c.Profile, c.Status)
		}
		if c.Title != "Riverside Bakery" || c.Description != "Fresh bread every morning since 1987." {
			t.Errorf("%s: title %q description %q", c.Profile, c.Title, c.Description)
		}
		if c.Text != "Riverside Bakery Sourdough, rye and croissants." {
			t.Errorf("%s: text %q", c.Profile, c.Text)
		}
		if len(c.Forms) != 0 || len(c.Refused) != 0 {
			t.Errorf("%s: forms %v refused %v", c.Profile, c.Forms, c.Refused)
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(c.Screenshot))
		if err != nil {
			t.Errorf("%s: screenshot is not a PNG: %v", c.Profile, err)
		} else if want := sizes[c.Profile]; cfg.Width != want[0] || cfg.Height != want[1] {
			t.Errorf("%s: screenshot %d×%d, want %d×%d", c.Profile, cfg.Width, cfg.Height, want[0], want[1])
		}
		if c.Duration <= 0 || c.Duration > sharedTimeout {
			t.Errorf("%s: duration %v", c.Profile, c.Duration)
		}
		t.Logf("%s: %v", c.Profile, c.Duration.Round(time.Millisecond))
	}
}

func TestReviewFindsLoginForm(t *testing.T) {
	t.Parallel()
	b := sharedBrowser(t)
	netw.handleHTML("bank-login.test", `<!doctype html><title>Online Banking – Sign in</title>
<form method="post" action="/session/new?step=1">
  <input name="username" autocomplete="username"><input type="password" name="passwd">
  <input type="hidden" name="csrf" value="x"><button>Sign in</button>
</form>
<form action="https://collector.example/search"><input type="search" name="q"></form>`)
	captures, err := b.Review(context.Background(), "http://bank-login.test/login")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range captures {
		if c.Error != "" || len(c.Forms) != 2 {
			t.Fatalf("%s: error %q, forms %+v", c.Profile, c.Error, c.Forms)
		}
		login := c.Forms[0]
		if !login.Password || login.Card || login.Action != "http://bank-login.test/session/new?step=1" {
			t.Errorf("%s: login form %+v", c.Profile, login)
		}
		if got := strings.Join(login.Fields, ","); got != "username,passwd" {
			t.Errorf("%s: login fields %s", c.Profile, got)
		}
		if search := c.Forms[1]; search.Password || search.Action != "https://collector.example/search" || search.Hints != nil {
			t.Errorf("%s: search form %+v", c.Profile, search)
		}
	}
}

func TestReviewFindsCardForm(t *testing.T) {
	t.Parallel()
	b := sharedBrowser(t)
	netw.handleHTML("pay.shop.test", `<!doctype html><title>Checkout</title>
<form action="pay"><input autocomplete="cc-number" name="f1"><input name="exp"><input name="cvv2"></form>
<form action="other"><input name="security_code" autocomplete="cc-csc"></form>
<form action="third"><input name="card_holder"></form>
<form action="fourth"><input name="email" type="email"></form>
<div><input placeholder="Card number" id="loose-card"></div>`)
	captures, err := b.Review(context.Background(), "http://pay.shop.test/checkout/")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range captures {
		if c.Error != "" || len(c.Forms) != 5 {
			t.Fatalf("%s: error %q, forms %+v", c.Profile, c.Error, c.Forms)
		}
		for i, want := range []bool{true, true, true, false, true} {
			if c.Forms[i].Card != want || c.Forms[i].Password {
				t.Errorf("%s: form %d %+v, want card %v", c.Profile, i, c.Forms[i], want)
			}
		}
		if c.Forms[0].Action != "http://pay.shop.test/checkout/pay" {
			t.Errorf("%s: action %s", c.Profile, c.Forms[0].Action)
		}
		if loose := c.Forms[4]; loose.Action != "" || len(loose.Fields) != 1 || loose.Fields[0] != "loose-card" {
			t.Errorf("%s: inputs outside forms %+v", c.Profile, loose)
		}
		if got := c.Forms[0].Hints; !slices.Equal(got, []string{"cc-number", "", ""}) {
			t.Errorf("%s: hints of the card form %q", c.Profile, got)
		}
	}
}

// TestReviewReadsFieldHints: what the page tells a person each field is for — its label, its
// aria-label, placeholder and autocomplete, or the text just before it — goes with the field.
func TestReviewReadsFieldHints(t *testing.T) {
	t.Parallel()
	b := sharedBrowser(t)
	netw.handleHTML("hints.test", `<!doctype html><meta charset="utf-8"><title>验证</title>
<form action="/v">
  <label for="p">手机号</label><input id="p" name="phone">
  <label>支付密码 <input name="a2" type="password"></label>
  <input name="a3" placeholder="请输入银行卡号" autocomplete="cc-number">
  <div><span>身份证号</span><input name="a4"></div>
  <input name="a5" aria-label="短信验证码">
  <input name="a6">
  信用卡號碼<input name="a7">
</form>`)
	captures, err := b.Review(context.Background(), "http://hints.test/")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"手机号", "支付密码", "请输入银行卡号 / cc-number", "身份证号", "短信验证码", "", "信用卡號碼"}
	for _, c := range captures {
		if c.Error != "" || len(c.Forms) != 1 {
			t.Fatalf("%s: error %q, forms %+v", c.Profile, c.Error, c.Forms)
		}
		if f := c.Forms[0]; !slices.Equal(f.Hints, want) || !f.Password || !f.Card {
			t.Errorf("%s: form %+v, want hints %q", c.Profile, f, want)
		}
	}
}

func TestReviewFollowsRedirects(t *testing.T) {
	t.Parallel()
	b := sharedBrowser(t)
	netw.handle("hop.test", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/start":
			http.Redirect(w, r, "/a", http.StatusFound)
		case "/a":
			http.Redirect(w, r, "http://step.shop.test/b?x=1", http.StatusMovedPermanently)
		case "/c":
			w.Header().Set("Content-Type", "text/html")
			_, _ = fmt.Fprint(w, `<title>C</title><script>location.href = "/d";</script>`)
		case "/d":
			w.Header().Set("Content-Type", "text/html")
			_, _ = fmt.Fprint(w, `<title>D</title><p>one moment</p><script>setTimeout(() => location.replace("/final"), 200);</script>`)
		case "/final":
			w.Header().Set("Content-Type", "text/html")
			_, _ = fmt.Fprint(w, `<title>Arrived</title><p>prize inside</p>`)
		default:
			http.NotFound(w, r)
		}
	}))
	netw.handleHTML("step.shop.test", `<meta http-equiv="refresh" content="0; url=http://hop.test/c"><title>B</title>`)
	captures, err := b.Review(context.Background(), "http://hop.test/start")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"http://hop.test/start", "http://hop.test/a", "http://step.shop.test/b?x=1", "http://hop.test/c", "http://hop.test/d", "http://hop.test/final"}
	for _, c := range captures {
		if c.Error != "" || c.FinalURL != "http://hop.test/final" || c.Status != 200 || c.Title != "Arrived" {
			t.Errorf("%s: error %q final %s status %d title %q", c.Profile, c.Error, c.FinalURL, c.Status, c.Title)
		}
		if !slices.Equal(c.Redirects, want) {
			t.Errorf("%s: redirects\n%v\nwant\n%v", c.Profile, c.Redirects, want)
		}
		// The meta refresh and the two scripts, not the HTTP redirects.
		if client := []string{"http://hop.test/c", "http://hop.test/d", "http://hop.test/final"}; !slices.Equal(c.ClientRedirects, client) {
			t.Errorf("%s: the page's own redirects %v, want %v", c.Profile, c.ClientRedirects, client)
		}
	}
}

func TestReviewSeesCloaking(t *testing.T) {
	t.Parallel()
	b := sharedBrowser(t)
	netw.handle("cloak.test", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		ua := r.UserAgent()
		switch {
		case strings.Contains(ua, "MicroMessenger") && r.Header.Get("X-Requested-With") == "com.tencent.mm":
			_, _ = fmt.Fprint(w, `<title>领取红包</title><p>输入支付密码领取</p><form action="/claim"><input type="password" name="pin"></form>`)
		case strings.Contains(ua, "iPhone"):
			_, _ = fmt.Fprint(w, `<title>Travel notes (mobile)</title><p>Lisbon in spring.</p>`)
		default:
			_, _ = fmt.Fprint(w, `<title>Travel notes</title><p>Lisbon in spring.</p>`)
		}
	}))
	captures, err := b.Review(context.Background(), "http://cloak.test/")
	if err != nil {
		t.Fatal(err)
	}
	titles := map[moderation.Profile]string{}
	for _, c := range captures {
		if c.Error != "" {
			t.Errorf("%s: %s", c.Profile, c.Error)
		}
		titles[c.Profile] = c.Title
	}
	want := map[moderation.Profile]string{moderation.Desktop: "Travel notes", moderation.Mobile: "Travel notes (mobile)", moderation.WeChat: "领取红包"}
	if !maps.Equal(titles, want) {
		t.Errorf("titles %v, want %v", titles, want)
	}
	if w := captures[2]; len(w.Forms) != 1 || !w.Forms[0].Password || len(captures[0].Forms) != 0 {
		t.Errorf("forms: desktop %+v, wechat %+v", captures[0].Forms, w.Forms)
	}
}

func TestReviewTimeLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("seconds of waiting on Chromium; make test runs it")
	}
	// Navigation gets three quarters of it: under make test, beside the other packages' browsers,
	// a page can take more than two seconds to commit.
	const timeout = 10 * time.Second
	b := newTestBrowser(t, Options{
		HostRules:     "MAP *.test 127.0.0.1:" + netw.port(),
		AllowLoopback: true,
		Timeout:       timeout,
	})
	netw.handle("hang.test", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done() // never answers
	}))
	netw.handle("slow-image.test", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/never.png" {
			<-r.Context().Done()
			return
		}
		w.Header().Set("Content-Type", "text/html")
		_, _ = fmt.Fprint(w, `<title>Almost there</title><p>loading…</p><img src="/never.png">`)
	}))
	// The slack covers closing the contexts and a busy machine.
	const slack = 4 * time.Second
	t.Run("no answer", func(t *testing.T) {
		start := time.Now()
		captures, err := b.Review(context.Background(), "http://hang.test/")
		elapsed := time.Since(start)
		if err != nil {
			t.Fatal(err)
		}
		if elapsed > timeout+slack {
			t.Errorf("review took %v, limit %v", elapsed, timeout)
		}
		for _, c := range captures {
			if c.Error != "timeout" || c.FinalURL != "http://hang.test/" || len(c.Redirects) != 1 || c.Screenshot != nil || c.Status != 0 {
				t.Errorf("%s: error %q final %q redirects %v status %d screenshot %d bytes", c.Profile, c.Error, c.FinalURL, c.Redirects, c.Status, len(c.Screenshot))
			}
		}
		t.Logf("a destination that never answers: review returned after %v (timeout %v)", elapsed.Round(time.Millisecond), timeout)
	})
	t.Run("never loads", func(t *testing.T) {
		start := time.Now()
		captures, err := b.Review(context.Background(), "http://slow-image.test/")
		elapsed := time.Since(start)
		if err != nil {
			t.Fatal(err)
		}
		if elapsed > timeout+slack {
			t.Errorf("review took %v, limit %v", elapsed, timeout)
		}
		// What was there is recorded all the same.
		for _, c := range captures {
			if c.Error != "timeout" || c.Title != "Almost there" || c.Screenshot == nil || c.Status != 200 {
				t.Errorf("%s: error %q title %q status %d screenshot %d bytes", c.Profile, c.Error, c.Title, c.Status, len(c.Screenshot))
			}
		}
	})
	t.Run("context", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		start := time.Now()
		captures, err := b.Review(ctx, "http://hang.test/")
		if err != nil && !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("review under a 1s context: %v", err)
		}
		for _, c := range captures {
			if c.Error != "timeout" {
				t.Errorf("%s: error %q", c.Profile, c.Error)
			}
		}
		// The review stops waiting for Chromium abandonGrace after its context ends.
		if elapsed := time.Since(start); elapsed > time.Second+abandonGrace+2*time.Second {
			t.Errorf("review under a 1s context took %v", elapsed)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(300*time.Millisecond, cancel)
		start := time.Now()
		captures, err := b.Review(ctx, "http://hang.test/")
		if !errors.Is(err, context.Canceled) {
			t.Errorf("review cancelled: %v", err)
		}
		for _, c := range captures {
			if c.Error != "cancelled" || c.FinalURL != "http://hang.test/" {
				t.Errorf("%s: error %q final %q", c.Profile, c.Error, c.FinalURL)
			}
		}
		if elapsed := time.Since(start); elapsed > 300*time.Millisecond+abandonGrace+2*time.Second {
			t.Errorf("a cancelled review took %v", elapsed)
		}
	})
}

// TestReviewBlocksDownloads: a link that is a file leaves its captures incomplete; a page that
// starts files, by itself or when its download button is pressed, is read whole with its files
// among its downloads; nothing is saved.
func TestReviewBlocksDownloads(t *testing.T) {
	t.Parallel()
	b := productionBrowser(t)
	netw.handle("files.test", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Disposition", `attachment; filename="invoice.exe"`)
		_, _ = w.Write(bytes.Repeat([]byte("MZ"), 64<<10))
	}))
	start := time.Now()
	captures, err := b.Review(context.Background(), "http://files.test/invoice")
	if err != nil {
		t.Fatal(err)
	}
	if elapsed := time.Since(start); elapsed > sharedTimeout/2 {
		t.Errorf("a download took the review %v", elapsed)
	}
	for _, c := range captures {
		if !strings.HasPrefix(c.Error, "download blocked") {
			t.Errorf("%s: error %q", c.Profile, c.Error)
		}
		t.Logf("%s: %q in %v", c.Profile, c.Error, c.Duration.Round(time.Millisecond))
	}

	// A page that, once shown, starts files by script (one it fetches, one it makes itself):
	// the page is read whole, and the files are among what it offers, none saved.
	netw.handle("started.test", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/files/setup.msi" {
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Header().Set("Content-Disposition", `attachment; filename="setup.msi"`)
			_, _ = w.Write(bytes.Repeat([]byte("MZ"), 4<<10))
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, `<!doctype html><title>Your documents</title><h1>Your documents are ready</h1>
<p>The download starts by itself. Open it and follow the steps.</p>
<script>
setTimeout(() => {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob(["PK"], {type: "application/zip"}));
  a.download = "Statement 2026.zip";
  a.click();
  setTimeout(() => { location.href = "/files/setup.msi"; }, 200);
}, 300);
</script>`)
	}))
	started, err := b.Review(context.Background(), "http://started.test/docs/")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range started {
		if c.Error != "" || !strings.Contains(c.Text, "Your documents are ready") {
			t.Errorf("%s: error %q, text %q", c.Profile, c.Error, c.Text)
		}
		want := []string{"http://started.test/docs/Statement%202026.zip", "http://started.test/files/setup.msi"}
		if !slices.Equal(c.Downloads, want) {
			t.Errorf("%s: downloads %q, want %q", c.Profile, c.Downloads, want)
		}
		if len(c.ClientRedirects) != 0 || c.FinalURL != "http://started.test/docs/" || c.Status != http.StatusOK {
			t.Errorf("%s: moved to %q, final %q, status %d: a file is no hop", c.Profile, c.ClientRedirects, c.FinalURL, c.Status)
		}
	}
	// A link that goes nowhere under a file's words is pressed as a gate: the file it makes is
	// recorded, and so is what the press shows.
	netw.handle("pressed.test", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, `<!doctype html><title>Notice</title><h1>Formal notice</h1>
<p>Review the evidence within 72 hours.</p>
<a href="#" id="dl">Download evidence package (14 items)</a>
<p id="pw" hidden>Archive password: CR2026</p>
<script>
document.getElementById("dl").addEventListener("click", (e) => {
  e.preventDefault();
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob(["PK"], {type: "application/zip"}));
  a.download = "Evidence.zip";
  a.click();
  document.getElementById("pw").hidden = false;
});
</script>`)
	}))
	pressed, err := b.Review(context.Background(), "http://pressed.test/notice/")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range pressed {
		if c.Error != "" || !strings.Contains(c.Text, "Archive password: CR2026") || !slices.Equal(c.Downloads, []string{"http://pressed.test/notice/Evidence.zip"}) {
			t.Errorf("%s: error %q, text %q, downloads %q", c.Profile, c.Error, c.Text, c.Downloads)
		}
	}
	var saved []string
	_ = filepath.WalkDir(b.downloads, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			saved = append(saved, path)
		}
		return nil
	})
	if len(saved) != 0 {
		t.Errorf("downloads saved: %v", saved)
	}
}

// productionBrowser is a browser of the test's own in the full Chromium the worker runs
// (chromiumPath), for what the headless shell does otherwise: it lets a page's window.open
// through to the review's own closing of the pop-up, where the full Chromium's blocker refuses it.
func productionBrowser(t *testing.T) *Browser {
	t.Helper()
	rules := fmt.Sprintf("MAP *.test 127.0.0.1:%s", netw.port())
	return newTestBrowser(t, Options{HostRules: rules, AllowLoopback: true, Timeout: sharedTimeout, ChromiumPath: chromiumPath()})
}

func TestReviewBlocksPopupsAndDialogs(t *testing.T) {
	t.Parallel()
	b := productionBrowser(t)
	// A dialog first: it is dismissed, and does not hold the page up.
	netw.handleHTML("popup.test", `<title>pending</title><p>hello</p><script>
alert("You won!");
const w = window.open("http://popup-target.test/", "_blank");
setTimeout(() => { document.title = (w === null || w.closed) ? "no popup" : "popup open"; }, 300);
</script>`)
	netw.handleHTML("popup-target.test", `<title>popup</title>`)
	captures, err := b.Review(context.Background(), "http://popup.test/")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range captures {
		if c.Error != "" || c.Title != "no popup" {
			t.Errorf("%s: error %q title %q", c.Profile, c.Error, c.Title)
		}
	}
	t.Logf("requests that reached the pop-up's page: %d", netw.requests("popup-target.test"))
}

func TestReviewRefusesPrivateDestinations(t *testing.T) {
	t.Parallel()
	b := newTestBrowser(t, Options{
		HostRules: fmt.Sprintf("MAP bank-login.test 127.0.0.1:%[1]s, MAP www.paypal-secure.example 127.0.0.1:%[1]s", netw.port()),
		Timeout:   5 * time.Second,
	})
	netw.handleHTML("www.paypal-secure.example", `<title>should never be seen</title>`)
	before := netw.requests("bank-login.test")
	for _, c := range []struct{ url, reason string }{
		{"http://10.0.0.1/", "private address 10.0.0.1"},
		{"http://169.254.169.254/latest/meta-data/", "link-local address 169.254.169.254"},
		{"http://127.0.0.1:" + netw.port() + "/", "loopback address 127.0.0.1"},
		{"http://[::1]:" + netw.port() + "/", "loopback address ::1"},
		{"http://2130706433:" + netw.port() + "/", "loopback address 127.0.0.1"},
		{"http://localhost:" + netw.port() + "/", "loopback address"},
		{"http://bank-login.test/", "loopback address 127.0.0.1 (bank-login.test mapped to 127.0.0.1:" + netw.port() + ")"},
		{"https://www.paypal-secure.example/signin", "loopback address 127.0.0.1 (www.paypal-secure.example mapped to"},
		{"http://metadata.example/latest/", "link-local address 169.254.169.254 (metadata.example)"},
		{"http://dual.example/", "private address 192.168.0.10 (dual.example)"},
		{"file:///etc/passwd", `scheme "file"`},
	} {
		start := time.Now()
		captures, err := b.Review(context.Background(), c.url)
		if err != nil {
			t.Fatal(err)
		}
		if elapsed := time.Since(start); elapsed > time.Second {
			t.Errorf("%s: refusing took %v", c.url, elapsed)
		}
		for _, cp := range captures {
			if !strings.HasPrefix(cp.Error, "refused: ") || !strings.Contains(cp.Error, c.reason) {
				t.Errorf("%s %s: error %q, want refused: …%s…", c.url, cp.Profile, cp.Error, c.reason)
			}
			if cp.Redirects != nil || cp.FinalURL != "" || cp.Screenshot != nil || cp.Status != 0 {
				t.Errorf("%s %s: navigated: %+v", c.url, cp.Profile, cp)
			}
		}
	}
	if n := netw.requests("bank-login.test") - before; n != 0 {
		t.Errorf("bank-login.test served %d requests", n)
	}
	if n := netw.requests("www.paypal-secure.example"); n != 0 {
		t.Errorf("www.paypal-secure.example served %d requests", n)
	}
	netw.assertTrapUntouched(t)
}

func TestReviewRefusesRedirectsToPrivateAddresses(t *testing.T) {
	t.Parallel()
	b := sharedBrowser(t)
	netw.handle("ssrf.test", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/to-ten":
			http.Redirect(w, r, "http://10.0.0.1/", http.StatusFound)
		case "/to-metadata":
			http.Redirect(w, r, "/hop", http.StatusFound)
		case "/hop":
			http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
		case "/to-metadata-name":
			http.Redirect(w, r, "http://metadata.example/latest/meta-data/", http.StatusTemporaryRedirect)
		case "/to-https":
			http.Redirect(w, r, "https://169.254.169.254/", http.StatusFound)
		case "/to-v6":
			http.Redirect(w, r, "http://[fd00::1]:8080/admin", http.StatusFound)
		case "/meta":
			w.Header().Set("Content-Type", "text/html")
			_, _ = fmt.Fprint(w, `<meta http-equiv="refresh" content="0; url=http://169.254.169.254/latest/">`)
		default:
			http.NotFound(w, r)
		}
	}))
	for _, c := range []struct {
		path   string
		chain  []string
		reason string
	}{
		{"/to-ten", []string{"http://10.0.0.1/"}, "private address 10.0.0.1"},
		{"/to-metadata", []string{"http://ssrf.test/hop", "http://169.254.169.254/latest/meta-data/"}, "link-local address 169.254.169.254"},
		{"/to-metadata-name", []string{"http://metadata.example/latest/meta-data/"}, "link-local address 169.254.169.254 (metadata.example)"},
		{"/to-https", []string{"https://169.254.169.254/"}, "link-local address 169.254.169.254"},
		{"/to-v6", []string{"http://[fd00::1]:8080/admin"}, "private address fd00::1"},
		{"/meta", []string{"http://169.254.169.254/latest/"}, "link-local address 169.254.169.254"},
	} {
		url := "http://ssrf.test" + c.path
		captures, err := b.Review(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		want := append([]string{url}, c.chain...)
		for _, cp := range captures {
			if cp.Error != "refused: "+c.reason && !strings.HasPrefix(cp.Error, "refused: "+c.reason) {
				t.Errorf("%s %s: error %q, want refused: %s", c.path, cp.Profile, cp.Error, c.reason)
			}
			if !slices.Equal(cp.Redirects, want) || cp.FinalURL != want[len(want)-1] {
				t.Errorf("%s %s: redirects %v final %s, want %v", c.path, cp.Profile, cp.Redirects, cp.FinalURL, want)
			}
			if len(cp.Refused) == 0 {
				t.Errorf("%s %s: the refusal is not recorded", c.path, cp.Profile)
			}
			t.Logf("%s %s: status %d, refused %v", c.path, cp.Profile, cp.Status, cp.Refused)
		}
	}
	netw.assertTrapUntouched(t)
}

func TestReviewRefusesPrivateSubresources(t *testing.T) {
	t.Parallel()
	b := sharedBrowser(t)
	netw.handleHTML("gallery.test", `<!doctype html><title>Gallery</title><p>Pictures</p>
<img src="http://169.254.169.254/latest/meta-data/iam.png">
<img src="http://metadata.example/pic.png">
<img src="http://10.0.0.1/x.png">
<img src="https://192.168.1.1/router.png">
<iframe src="http://[fd00::1]/"></iframe>
<script>
fetch("http://intranet.example/api").catch(() => {});
try { new WebSocket("ws://10.0.0.2/socket"); } catch (e) {}
</script>`)
	captures, err := b.Review(context.Background(), "http://gallery.test/")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range captures {
		if c.Error != "" || c.Title != "Gallery" || c.Status != 200 {
			t.Errorf("%s: error %q title %q status %d", c.Profile, c.Error, c.Title, c.Status)
		}
		refused := strings.Join(c.Refused, "\n")
		for _, want := range []string{
			"http://169.254.169.254/latest/meta-data/iam.png (link-local address 169.254.169.254)",
			"http://metadata.example/pic.png (link-local address 169.254.169.254 (metadata.example))",
			"http://10.0.0.1/x.png (private address 10.0.0.1)",
			"https://192.168.1.1/router.png (private address 192.168.1.1)",
			"http://[fd00::1]/ (private address fd00::1)",
			"http://intranet.example/api (private address 10.1.2.3 (intranet.example))",
			"10.0.0.2:80 (private address 10.0.0.2)",
		} {
			if !strings.Contains(refused, want) {
				t.Errorf("%s: %q not among the refused:\n%s", c.Profile, want, refused)
			}
		}
	}
	netw.assertTrapUntouched(t)
}

func TestReviewReportsUnreachableHops(t *testing.T) {
	t.Parallel()
	b := sharedBrowser(t)
	// A loopback port nothing listens on (Chromium itself refuses a few "unsafe" ones, 1 among them).
	closed := refusingAddr(t)
	netw.handle("dead-end.test", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/to-nowhere":
			http.Redirect(w, r, "http://nowhere.example/x", http.StatusFound)
		case "/to-closed-port":
			http.Redirect(w, r, "http://"+closed+"/", http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	}))
	for path, want := range map[string]string{
		"/to-nowhere":     "dns: resolve nowhere.example: host not found",
		"/to-closed-port": "navigation: dial " + closed,
	} {
		captures, err := b.Review(context.Background(), "http://dead-end.test"+path)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range captures {
			if !strings.HasPrefix(c.Error, want) || len(c.Redirects) != 2 || c.Status != 0 || len(c.Refused) != 0 {
				t.Errorf("%s %s: error %q redirects %v status %d refused %v", path, c.Profile, c.Error, c.Redirects, c.Status, c.Refused)
			}
		}
	}
	// A destination whose name is not found is not navigated to at all.
	captures, err := b.Review(context.Background(), "http://nowhere.example/")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range captures {
		if c.Error != "dns: resolve nowhere.example: host not found" || c.Redirects != nil {
			t.Errorf("%s: error %q redirects %v", c.Profile, c.Error, c.Redirects)
		}
	}
}

// TestPlaywrightDoesNotRouteRedirectHops pins down why the proxy is there: a route sees a
// navigation's first request, but Playwright lets Chromium follow an HTTP redirect without
// routing the next hop, so routing alone cannot stop a redirect to a private address. Should
// a later Playwright route the hops, this fails, and the proxy may be reconsidered.
func TestPlaywrightDoesNotRouteRedirectHops(t *testing.T) {
	t.Parallel()
	b := sharedBrowser(t)
	netw.handle("routed.test", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/one":
			http.Redirect(w, r, "/two", http.StatusFound)
		case "/two":
			http.Redirect(w, r, "/three", http.StatusFound)
		default:
			_, _ = fmt.Fprint(w, "<title>three</title>")
		}
	}))
	chromium, visitors, err := b.current()
	if err != nil {
		t.Fatal(err)
	}
	rec := newRecorder()
	px, err := startProxy(newVetter(b.guard), netw.dialLoopback, rec.blocked)
	if err != nil {
		t.Fatal(err)
	}
	defer px.Close()
	bc, err := chromium.NewContext(visitors[0].contextOptions(px.url(), px.user, px.password))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = bc.Close() }()
	var mu sync.Mutex
	var routed []string
	if err := bc.Route("**/*", func(r playwright.Route) {
		mu.Lock()
		routed = append(routed, r.Request().URL())
		mu.Unlock()
		_ = r.Continue()
	}); err != nil {
		t.Fatal(err)
	}
	page, err := bc.NewPage()
	if err != nil {
		t.Fatal(err)
	}
	resp, err := page.Goto("http://routed.test/one")
	if err != nil || resp.Status() != 200 || page.URL() != "http://routed.test/three" {
		t.Fatalf("goto: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"http://routed.test/one"}; !slices.Equal(routed, want) {
		t.Errorf("routed %v, want %v: Playwright now routes redirect hops", routed, want)
	}
}

// refusingAddr is a loopback address that refuses connections while the test runs: a socket
// bound to it that never listens holds the port, so no other process can take it meanwhile
// (a port found free and closed again may be anyone's a moment later).
func refusingAddr(t *testing.T) string {
	t.Helper()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("127.0.0.1:%d", sa.(*syscall.SockaddrInet4).Port)
}

// TestReviewReadsEditableFields: divs made editable stand in for inputs (their words sent by
// script), read as text fields with the text before them as their hint; an editor's nested
// editable parts count once, and a div made not editable not at all.
func TestReviewReadsEditableFields(t *testing.T) {
	t.Parallel()
	b := sharedBrowser(t)
	netw.handleHTML("editable.test", `<!doctype html><meta charset="utf-8"><title>Renew</title>
<div>Card number</div><div contenteditable="true" id="c"></div>
<div><div>Expiry</div><div contenteditable id="x"></div></div>
<div contenteditable="true" id="editor"><p contenteditable="true">nested</p></div>
<div contenteditable="false" id="off">read only</div>`)
	captures, err := b.Review(context.Background(), "http://editable.test/")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range captures {
		if c.Error != "" || len(c.Forms) != 1 {
			t.Fatalf("%s: error %q, forms %+v", c.Profile, c.Error, c.Forms)
		}
		f := c.Forms[0]
		if !slices.Equal(f.Fields, []string{"c", "x", "editor"}) || !slices.Equal(f.Types, []string{"text", "text", "text"}) ||
			f.Hints[0] != "Card number" || f.Hints[1] != "Expiry" || f.Action != "" {
			t.Errorf("%s: form %+v", c.Profile, f)
		}
	}
}
