package score

import (
	"bytes"
	"context"
	"encoding/base64"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/shortlink/shortlink/backend/moderation"
	"github.com/shortlink/shortlink/backend/testenv"
)

// newModel serves answers on loopback, one per call in turn (the last repeats), checks that
// every call carries the API key, and returns the model's configuration.
func newModel(t *testing.T, answers ...func(testenv.ChatCall) (int, string)) (*testenv.ChatModel, ModelConfig) {
	t.Helper()
	var mu sync.Mutex
	n := 0
	m := testenv.NewChatModel(t, func(c testenv.ChatCall) (int, string) {
		if got := c.Header.Get("Authorization"); got != "Bearer test-key" {
			t.Errorf("Authorization %q", got)
		}
		mu.Lock()
		n++
		answer := answers[min(n, len(answers))-1]
		mu.Unlock()
		return answer(c)
	})
	return m, ModelConfig{
		BaseURL: m.URL(), APIKey: "test-key", Model: "test-model",
		Timeout: 2 * time.Second, Backoff: 10 * time.Millisecond,
	}
}

// judge answers like a model that read the page facts: a password asked for on a PayPal
// look-alike is phishing, anything else benign. Its verdict proves the facts arrived.
func judge(c testenv.ChatCall) (int, string) {
	var text strings.Builder
	for _, m := range c.Messages[1:] {
		for _, p := range m.Parts {
			text.WriteString(p.Text)
		}
	}
	s := strings.ToLower(text.String())
	if strings.Contains(s, "password") && strings.Contains(s, "paypa1-login.com") {
		return http.StatusOK, `{"score": 0.95, "category": "phishing", "reason": "A PayPal log-in form on paypa1-login.com, a look-alike domain."}`
	}
	return http.StatusOK, `{"score": 0.05, "category": "benign", "reason": "An ordinary page."}`
}

func says(content string) func(testenv.ChatCall) (int, string) {
	return func(testenv.ChatCall) (int, string) { return http.StatusOK, content }
}

func status(code int) func(testenv.ChatCall) (int, string) {
	return func(testenv.ChatCall) (int, string) { return code, "upstream exploded" }
}

func hang(testenv.ChatCall) (int, string) { return testenv.HangAnswer, "" }

var phishingLink = LinkFacts{ID: 42, URL: "https://paypa1-login.com/signin?session=1", ShortURL: "https://sho.rt/Xb3kPq"}

// phishingCaptures are three visitors of a PayPal look-alike asking for a password; the WeChat
// capture has no screenshot, and every visible text is longer than the model may get.
func phishingCaptures(t *testing.T) []moderation.Capture {
	text := "Log in to your PayPal account. Email or mobile number. Password. Forgot password? " +
		strings.Repeat("Your account has been limited until you confirm your details — 确认您的账户 ", 80)
	var out []moderation.Capture
	for i, p := range moderation.Profiles {
		c := moderation.Capture{
			Profile:     p,
			URL:         phishingLink.URL,
			FinalURL:    "https://paypa1-login.com/webapps/mpp/account-selection",
			Redirects:   []string{phishingLink.URL, "https://paypa1-login.com/webapps/mpp/account-selection"},
			Status:      200,
			Title:       "Log in to your PayPal account",
			Description: "PayPal is the safer, easier way to pay.",
			Text:        text,
			Forms: []moderation.Form{{
				Action: "https://collect.evil-drop.net/p.php", Password: true,
				Fields: []string{"email", "password"}, Hints: []string{"", "支付密码"},
			}},
		}
		if p != moderation.WeChat {
			c.Screenshot = testenv.PNG(t, uint8(40*i+10))
		}
		out = append(out, c)
	}
	return out
}

// TestModelSendsThePageFacts checks the request's shape (docs/moderation.md#moderation-scoring) at the server, and that the
// verdict is the one the server derived from what it received.
func TestModelSendsThePageFacts(t *testing.T) {
	model, cfg := newModel(t, judge)
	m, err := NewModel(cfg)
	if err != nil {
		t.Fatal(err)
	}
	captures := phishingCaptures(t)
	v, err := m.Score(context.Background(), phishingLink, captures)
	if err != nil {
		t.Fatal(err)
	}
	want := moderation.Verdict{Score: 0.95, Category: "phishing", Scorer: "model", Model: "test-model",
		Reason: "A PayPal log-in form on paypa1-login.com, a look-alike domain."}
	if v.Score != want.Score || v.Category != want.Category || v.Scorer != want.Scorer || v.Model != want.Model || v.Reason != want.Reason {
		t.Fatalf("verdict %+v, want %+v", v, want)
	}

	calls := model.Calls()
	if len(calls) != 1 {
		t.Fatalf("%d calls, want 1", len(calls))
	}
	req := calls[0]
	if req.Model != "test-model" {
		t.Errorf("model %q", req.Model)
	}
	if req.ResponseFormat != "json_object" {
		t.Errorf("response_format %q, want json_object", req.ResponseFormat)
	}
	if len(req.Messages) != 2 || req.Messages[0].Role != "system" || req.Messages[1].Role != "user" {
		t.Fatalf("messages: want system then user, got %d messages", len(req.Messages))
	}
	if req.Messages[0].Parts != nil {
		t.Fatal("system content is not a string")
	}
	system := req.Messages[0].Text
	for _, w := range append([]string{"JSON", `"score"`, `"category"`, `"reason"`}, Categories...) {
		if !strings.Contains(system, w) {
			t.Errorf("system message lacks %q", w)
		}
	}

	parts := req.Messages[1].Parts
	if parts == nil {
		t.Fatal("user content is not a list of parts")
	}
	wantTypes := []string{"text", "image_url", "text", "image_url", "text"} // WeChat has no screenshot
	if len(parts) != len(wantTypes) {
		t.Fatalf("%d parts, want %d", len(parts), len(wantTypes))
	}
	shot := 0
	for i, p := range parts {
		if p.Type != wantTypes[i] {
			t.Fatalf("part %d is %q, want %q", i, p.Type, wantTypes[i])
		}
		if p.Type == "image_url" {
			data, ok := strings.CutPrefix(p.ImageURL, "data:image/png;base64,")
			if !ok {
				t.Fatalf("image URL %.40q is no PNG data URL", p.ImageURL)
			}
			img, err := base64.StdEncoding.DecodeString(data)
			if err != nil {
				t.Fatalf("image %d: %v", i, err)
			}
			if !bytes.HasPrefix(img, []byte("\x89PNG\r\n\x1a\n")) {
				t.Fatalf("image %d lacks the PNG signature", i)
			}
			if !bytes.Equal(img, captures[shot].Screenshot) {
				t.Fatalf("image %d is not %s's screenshot", i, captures[shot].Profile)
			}
			shot++
		}
	}
	texts := []string{parts[0].Text, parts[2].Text, parts[4].Text}
	for i, text := range texts {
		c := captures[i]
		for _, w := range []string{
			"Visitor: " + string(c.Profile), "Link URL: " + phishingLink.URL, "Final URL: " + c.FinalURL,
			"Redirect chain: " + c.Redirects[0] + " -> " + c.Redirects[1], "Title: " + c.Title,
			"Description: " + c.Description, "asks for a password", "posts to https://collect.evil-drop.net/p.php (another site)",
			"fields: email, password (\"支付密码\")", "asks for a payment PIN", "Visible text (", "Log in to your PayPal account. Email or mobile number.",
		} {
			if !strings.Contains(text, w) {
				t.Errorf("%s's text part lacks %q", c.Profile, w)
			}
		}
		_, visible, _ := strings.Cut(text, "Visible text (")
		_, visible, _ = strings.Cut(visible, "):\n")
		if n := utf8.RuneCountInString(visible); n > moderation.MaxText || n < moderation.MaxText-10 {
			t.Errorf("%s's visible text has %d characters, want at most %d (and cut near it)", c.Profile, n, moderation.MaxText)
		}
		if n := utf8.RuneCountInString(text); n > moderation.MaxText+1500 {
			t.Errorf("%s's text part has %d characters", c.Profile, n)
		}
	}
	if !strings.Contains(texts[2], "Screenshot: none") || !strings.Contains(texts[0], "Screenshot: the image after this text") {
		t.Error("text parts do not say which screenshot follows")
	}
}

func TestModelBenignPage(t *testing.T) {
	_, cfg := newModel(t, judge)
	m, err := NewModel(cfg)
	if err != nil {
		t.Fatal(err)
	}
	v, err := m.Score(context.Background(), LinkFacts{ID: 1, URL: "https://www.example.org/"}, []moderation.Capture{
		{Profile: moderation.Desktop, URL: "https://www.example.org/", FinalURL: "https://www.example.org/", Title: "Example Domain", Text: "This domain is for use in illustrative examples."},
	})
	if err != nil {
		t.Fatal(err)
	}
	if v.Score != 0.05 || v.Category != "benign" {
		t.Fatalf("verdict %+v", v)
	}
}

// TestChain follows the answers of a server through the chain: retries, and the heuristics
// deciding, with a note, when the model does not answer well.
func TestChain(t *testing.T) {
	t.Parallel()
	malformed := says(`{"score": "high", "category": "phishing", "reason": "x"}`)
	tests := []struct {
		name      string
		replies   []func(testenv.ChatCall) (int, string)
		timeout   time.Duration
		wantCalls int
		wantBy    string // scorer
		wantNote  string // prefix of the one note; "" for none
	}{
		{"good answer", []func(testenv.ChatCall) (int, string){judge}, 0, 1, "model", ""},
		{"malformed then good", []func(testenv.ChatCall) (int, string){says("The page looks like phishing."), judge}, 0, 2, "model", ""},
		{"malformed twice", []func(testenv.ChatCall) (int, string){says("{}"), malformed}, 0, 2, "heuristic", "model: malformed answer twice: score \"high\" is not a number"},
		{"500 then good", []func(testenv.ChatCall) (int, string){status(500), judge}, 0, 2, "model", ""},
		{"429 then good", []func(testenv.ChatCall) (int, string){status(429), judge}, 0, 2, "model", ""},
		{"500 twice", []func(testenv.ChatCall) (int, string){status(500)}, 0, 2, "heuristic", "model: 500 Internal Server Error: upstream exploded (2 attempts)"},
		{"401 is not retried", []func(testenv.ChatCall) (int, string){status(401)}, 0, 1, "heuristic", "model: 401 Unauthorized: upstream exploded (1 attempt)"},
		// Long enough for each attempt to reach the server on a machine loaded beyond the tests
		// (at 150 ms, neither had when the package ran beside the suite and a busy core).
		{"no answer", []func(testenv.ChatCall) (int, string){hang}, 2 * time.Second, 2, "heuristic", "model: timeout after 2s (2 attempts)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel() // each with a server of its own: the attempts that wait, wait side by side
			model, cfg := newModel(t, tt.replies...)
			if tt.timeout != 0 {
				cfg.Timeout = tt.timeout
			}
			c, err := New(Config{Model: cfg, AskModelAlways: true})
			if err != nil {
				t.Fatal(err)
			}
			v, err := c.Score(context.Background(), phishingLink, phishingCaptures(t))
			if err != nil {
				t.Fatal(err)
			}
			if n := len(model.Calls()); n != tt.wantCalls {
				t.Errorf("%d calls, want %d", n, tt.wantCalls)
			}
			if v.Scorer != tt.wantBy {
				t.Errorf("scored by %q, want %q (%+v)", v.Scorer, tt.wantBy, v)
			}
			// The model and the heuristics alike see phishing here: a failure is no pass.
			if v.Score < 0.9 || v.Category != "phishing" {
				t.Errorf("verdict %+v, want phishing ≥ 0.9", v)
			}
			switch {
			case tt.wantNote == "" && len(v.Notes) != 0:
				t.Errorf("notes %q, want none", v.Notes)
			case tt.wantNote != "" && (len(v.Notes) != 1 || !strings.HasPrefix(v.Notes[0], tt.wantNote)):
				t.Errorf("notes %q, want one starting %q", v.Notes, tt.wantNote)
			}
			if tt.wantBy == "model" && v.Model != "test-model" {
				t.Errorf("model %q", v.Model)
			}
		})
	}
}

func TestChainWithoutModel(t *testing.T) {
	c, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	v, err := c.Score(context.Background(), phishingLink, phishingCaptures(t))
	if err != nil {
		t.Fatal(err)
	}
	if v.Scorer != "heuristic" || v.Model != "" || len(v.Notes) != 0 || v.Score < 0.9 || v.Category != "phishing" {
		t.Fatalf("verdict %+v", v)
	}
}

// TestChainRaisesCloaking: the model found the desktop page harmless, but WeChat was sent
// elsewhere and asked for a password.
func TestChainRaisesCloaking(t *testing.T) {
	_, cfg := newModel(t, says(`{"score": 0.1, "category": "benign", "reason": "A recipe blog."}`))
	c, err := New(Config{Model: cfg})
	if err != nil {
		t.Fatal(err)
	}
	blog := "Grandmother's apple pie: flour, butter, apples, sugar and cinnamon, baked for an hour until golden."
	captures := []moderation.Capture{
		{Profile: moderation.Desktop, URL: "https://recipes.example.org/pie", FinalURL: "https://recipes.example.org/pie", Title: "Apple pie", Text: blog},
		{Profile: moderation.Mobile, URL: "https://recipes.example.org/pie", FinalURL: "https://recipes.example.org/pie", Title: "Apple pie", Text: blog},
		{Profile: moderation.WeChat, URL: "https://recipes.example.org/pie", FinalURL: "https://wx-verify.example.net/login", Title: "账号验证",
			Text: "请输入您的账号和密码以继续访问", Forms: []moderation.Form{{Password: true}}},
	}
	v, err := c.Score(context.Background(), LinkFacts{ID: 7, URL: "https://recipes.example.org/pie"}, captures)
	if err != nil {
		t.Fatal(err)
	}
	if v.Scorer != "model" || v.Score != 0.5 || v.Category != "cloaking" || v.Reason != "A recipe blog." {
		t.Fatalf("verdict %+v", v)
	}
	if len(v.Notes) != 1 || !strings.Contains(v.Notes[0], "cloaking: desktop ends on example.org, wechat on example.net") ||
		!strings.Contains(v.Notes[0], "raised from 0.10 (benign) to 0.50") {
		t.Fatalf("notes %q", v.Notes)
	}
}

func TestChainCancelled(t *testing.T) {
	model, cfg := newModel(t, hang)
	c, err := New(Config{Model: cfg, AskModelAlways: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { // cancelled once the model has the call (or after 10 s)
		for deadline := time.Now().Add(10 * time.Second); len(model.Calls()) == 0 && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
		cancel()
	}()
	if _, err := c.Score(ctx, phishingLink, phishingCaptures(t)); err == nil {
		t.Fatal("a cancelled review was scored")
	}
	if n := len(model.Calls()); n != 1 {
		t.Errorf("%d calls after the cancel, want 1", n)
	}
}

func TestNewModelConfig(t *testing.T) {
	for _, cfg := range []ModelConfig{
		{},
		{Model: "m", BaseURL: "ftp://host/v1"},
		{Model: "m", BaseURL: "localhost:8000"},
		{Model: "m", Timeout: -time.Second},
	} {
		if _, err := NewModel(cfg); err == nil {
			t.Errorf("NewModel(%+v) accepted", cfg)
		}
	}
	if _, err := NewModel(ModelConfig{Model: "m", BaseURL: "http://127.0.0.1:8000/v1/"}); err != nil {
		t.Error(err)
	}
}
