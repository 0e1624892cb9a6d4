package browse

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/shortlink/shortlink/worker/ocr"
)

// TestReviewRecordsStructure: a form's method, its inputs' types and how many there are (a
// grid of 24 words beyond the 20 fields named), and the hosts of the page's links and scripts.
func TestReviewRecordsStructure(t *testing.T) {
	t.Parallel()
	b := sharedBrowser(t)
	var grid strings.Builder
	for i := 1; i <= 24; i++ {
		grid.WriteString(`<input name="w` + string(rune('0'+i/10)) + string(rune('0'+i%10)) + `">`)
	}
	netw.handleHTML("structure.test", `<!doctype html><title>Sign in</title>
<script src="http://cdn.structure-assets.test/app.js"></script>
<script src="http://cdn.structure-assets.test/more.js"></script>
<form method="POST" action="https://collector.example/gate.php">
  <input name="user" type="email"><input type="password" name="pw"><textarea name="note"></textarea>
  <select name="country"><option>x</option></select><input type="hidden" name="t"><button>Go</button>
</form>
<form action="/import">`+grid.String()+`</form>
<p><a href="https://www.paypal.com/help">Help</a> <a href="https://www.paypal.com/privacy">Privacy</a>
<a href="/local">Local</a> <a href="mailto:x@example.com">Mail</a></p>`)
	captures, err := b.Review(context.Background(), "http://structure.test/")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range captures {
		if c.Error != "" || len(c.Forms) != 2 {
			t.Fatalf("%s: error %q, forms %+v", c.Profile, c.Error, c.Forms)
		}
		login, words := c.Forms[0], c.Forms[1]
		if login.Method != "post" || login.Inputs != 4 || !slices.Equal(login.Types, []string{"email", "password", "textarea", "select"}) {
			t.Errorf("%s: login form %+v", c.Profile, login)
		}
		if words.Method != "get" || words.Inputs != 24 || len(words.Fields) != 20 || len(words.Types) != 20 || words.Types[0] != "text" {
			t.Errorf("%s: grid form: method %q, %d inputs, %d fields, types %v", c.Profile, words.Method, words.Inputs, len(words.Fields), words.Types)
		}
		if !slices.Equal(c.Links, []string{"www.paypal.com", "www.paypal.com", "structure.test"}) {
			t.Errorf("%s: links %q", c.Profile, c.Links)
		}
		if !slices.Equal(c.Scripts, []string{"cdn.structure-assets.test"}) {
			t.Errorf("%s: scripts %q", c.Profile, c.Scripts)
		}
		if c.OCRText != "" {
			t.Errorf("%s: the shared browser reads no screenshot, read %q", c.Profile, c.OCRText)
		}
	}
}

// TestReviewReadsDrawnText: a sign-in page whose words are drawn by CSS (::before content) and
// SVG, so that its DOM holds none of them, has them read from its screenshot.
func TestReviewReadsDrawnText(t *testing.T) {
	t.Parallel()
	reader := ocr.New(ocr.Options{Log: testLog(), Timeout: sharedTimeout}) // the visitor's time limit alone bounds a reading on a busy machine
	if !reader.Available(context.Background()) {
		t.Fatal("tesseract is not installed: run deploy/local/ocr.sh, or `make test`, which installs it")
	}
	b := newTestBrowser(t, Options{HostRules: "MAP *.test 127.0.0.1:" + netw.port(), AllowLoopback: true, Timeout: sharedTimeout, OCR: reader})
	netw.handleHTML("drawn.test", `<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1">
<style>
  body { font: 28px sans-serif; margin: 24px; background: #fff; color: #000; }
  h1::before { content: "Mailbox Sign in"; }
  label::before { content: "Password"; }
</style></head><body>
<h1></h1>
<svg width="600" height="50"><text x="0" y="36" font-size="28" font-family="sans-serif">Session expired</text></svg>
<form><label></label><br><input type="password" name="p" style="font-size:24px"></form>
</body></html>`)
	captures, err := b.Review(context.Background(), "http://drawn.test/")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range captures {
		if c.Error != "" {
			t.Fatalf("%s: error %q", c.Profile, c.Error)
		}
		if strings.Contains(c.Text, "Mailbox") || strings.Contains(c.Text, "Password") {
			t.Errorf("%s: the DOM's text holds the drawn words: %q", c.Profile, c.Text)
		}
		for _, want := range []string{"Mailbox Sign in", "Password"} {
			if !strings.Contains(c.OCRText, want) {
				t.Errorf("%s: the screenshot's text %q lacks %q", c.Profile, c.OCRText, want)
			}
		}
		if !strings.Contains(strings.ToLower(c.OCRText), "session expired") {
			t.Errorf("%s: the screenshot's text %q lacks the SVG's words", c.Profile, c.OCRText)
		}
		t.Logf("%s: DOM %q, screenshot %q", c.Profile, c.Text, c.OCRText)
	}
}

// TestReviewReadsTextStoredBackwards: words stored backwards and drawn the right way by a
// forced right-to-left override are recorded as they are read; a right-to-left script's own
// text under the same style is not turned around.
func TestReviewReadsTextStoredBackwards(t *testing.T) {
	t.Parallel()
	b := sharedBrowser(t)
	netw.handleHTML("backwards.test", `<!doctype html><title>Reserve your file</title>
<style>.rv { direction: rtl; unicode-bidi: bidi-override; } .he { direction: rtl; unicode-bidi: bidi-override; }</style>
<p>Every file is reserved with a one-time intake payment:</p>
<p class="rv">sdrac tfig dracretsaM ro asiV <b>.595$ :eef ekatnI</b></p>
<p class="he">שלום עולם</p>`)
	captures, err := b.Review(context.Background(), "http://backwards.test/")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range captures {
		if c.Error != "" {
			t.Fatalf("%s: %s", c.Profile, c.Error)
		}
		if !strings.Contains(c.Text, "Intake fee: $595. Visa or Mastercard gift cards") {
			t.Errorf("%s: text drawn backwards not read the right way: %q", c.Profile, c.Text)
		}
		if strings.Contains(c.Text, "םלוע") {
			t.Errorf("%s: a right-to-left script's text was turned around: %q", c.Profile, c.Text)
		}
	}
}
