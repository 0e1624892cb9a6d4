package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/playwright-community/playwright-go"

	"github.com/shortlink/shortlink/backend/browsertest"
)

// A visitor in Chromium, whose browser asks for Chinese, opens a password-protected link and a
// link with a form (docs/rules-and-plans.md#link-rules): a wrong password and invalid answers bring the page back with
// the error and the answers kept, the right ones lead to the target, the password is asked once
// per browser, and the answers reach the workspace normalised. No page breaks its
// Content-Security-Policy.
func TestBrowserPasswordAndFormRules(t *testing.T) {
	s := rulesDeployment(t).start(t)
	tn := s.signupOn("browser-rules@example.com", "enterprise")

	landed := make(chan string, 8)
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/favicon.ico" { // the browser's own request, not a visitor's
			http.NotFound(w, r)
			return
		}
		select {
		case landed <- r.Method + " " + r.URL.RequestURI():
		default:
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = fmt.Fprintf(w, "<!doctype html><title>target</title><p id=where>%s</p>", r.URL.Path)
	}))
	defer target.Close()
	arrived := func(want string) {
		t.Helper()
		select {
		case got := <-landed:
			if got != "GET "+want {
				t.Errorf("the target was asked for %q, want GET %s", got, want)
			}
		default:
			t.Errorf("the target was not asked for %s", want)
		}
	}

	const password = "open sesame"
	secret := s.createLink(tn, map[string]any{"url": target.URL + "/secret", "password": password})
	survey := s.createLink(tn, map[string]any{"url": target.URL + "/survey", "form": map[string]any{"fields": []map[string]any{
		{"name": "name", "label": "Your name", "type": "text", "required": true},
		{"name": "phone", "label": "Phone", "type": "phone", "required": true},
		{"name": "size", "label": "Size", "type": "choice", "options": []string{"S", "M"}},
	}}})

	b := browsertest.New(t, browsertest.Options{Hosts: map[string]string{shortHost: s.app.Addr()}})
	// What a zh-CN locale sends: the pages follow Accept-Language.
	if err := b.SetExtraHTTPHeaders(map[string]string{"Accept-Language": "zh-CN,zh;q=0.9"}); err != nil {
		t.Fatal(err)
	}
	p := b.Page()
	tab := browserTab{t, p}
	// submit clicks the page's button and answers the response the navigation ends on; a
	// navigation the browser refuses (a policy's) fails the test with what the browser said.
	submit := func() playwright.Response {
		t.Helper()
		at := p.URL()
		//nolint:staticcheck // the test checks the response the navigation ends on, which WaitForURL does not give
		res, err := p.ExpectNavigation(func() error { return p.Locator(`form button[type="submit"]`).Click() })
		if err == nil && res == nil {
			err = fmt.Errorf("no response")
		}
		if err != nil {
			t.Fatalf("submit at %s: %v (now at %s; browser: %q)", at, err, p.URL(), b.Problems())
		}
		return res
	}

	// The password page, in Chinese, under a strict policy.
	res, err := p.Goto(secret.ShortURL)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status() != http.StatusOK {
		t.Fatalf("GET %s: %d", secret.ShortURL, res.Status())
	}
	csp, err := res.HeaderValue("Content-Security-Policy")
	if err != nil || !strings.Contains(csp, "default-src 'none'") || strings.Contains(csp, "unsafe-inline") {
		t.Fatalf("Content-Security-Policy %q (%v)", csp, err)
	}
	if err := expectPage(p).ToHaveTitle("需要密码"); err != nil {
		t.Fatal(err)
	}
	if n, err := p.Locator(`form[method="post"] input[name="password"]`).Count(); err != nil || n != 1 {
		t.Fatalf("password inputs in a post form: %d (%v)", n, err)
	}

	tab.fill(`input[name="password"]`, "not the password")
	if res := submit(); res.Status() != http.StatusUnauthorized {
		t.Errorf("a wrong password: %d", res.Status())
	}
	if err := expectLocator(p.Locator(`.error[role="alert"]`)).ToHaveText("密码不正确，请重试。"); err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-landed:
		t.Fatalf("a wrong password reached the target: %s", got)
	default:
	}

	tab.fill(`input[name="password"]`, password)
	res = submit()
	if err := reachURL(p, target.URL+"/secret"); err != nil {
		t.Fatalf("after the right password: %v (at %s)", err, p.URL())
	}
	if res.Status() != http.StatusOK || res.URL() != target.URL+"/secret" {
		t.Errorf("the right password ended on %s with %d", res.URL(), res.Status())
	}
	if from := res.Request().RedirectedFrom(); from == nil || from.Method() != http.MethodPost || from.URL() != secret.ShortURL {
		t.Errorf("the target was not reached by the redirect of the post to %s", secret.ShortURL)
	}
	arrived("/secret")
	if err := expectLocator(p.Locator("#where")).ToHaveText("/secret"); err != nil {
		t.Error(err)
	}

	// The browser's cookie lets it through without the page.
	res, err = p.Goto(secret.ShortURL)
	if err != nil {
		t.Fatal(err)
	}
	if res.URL() != target.URL+"/secret" || res.Request().RedirectedFrom() == nil {
		t.Errorf("again: ended on %s, want a redirect to the target", res.URL())
	}
	arrived("/secret")

	// The form page: invalid answers come back with the error and what was typed.
	res, err = p.Goto(survey.ShortURL)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status() != http.StatusOK {
		t.Fatalf("GET %s: %d", survey.ShortURL, res.Status())
	}
	if err := expectPage(p).ToHaveTitle("请先填写以下信息"); err != nil {
		t.Fatal(err)
	}
	tab.fill("#f-name", "李雷")
	tab.fill("#f-phone", "12")
	if res := submit(); res.Status() != http.StatusBadRequest {
		t.Errorf("an invalid phone number: %d", res.Status())
	}
	if err := expectLocator(p.Locator(`.error[role="alert"]`)).ToHaveText("请修正下面标出的内容。"); err != nil {
		t.Fatal(err)
	}
	if err := expectLocator(p.Locator("#f-phone + .error")).ToHaveText("请输入有效的手机号码"); err != nil {
		t.Error(err)
	}
	if err := expectLocator(p.Locator("#f-name")).ToHaveValue("李雷"); err != nil {
		t.Error(err)
	}
	if err := expectLocator(p.Locator("#f-phone")).ToHaveValue("12"); err != nil {
		t.Error(err)
	}

	tab.fill("#f-phone", "+86 138 0013 8000")
	if _, err := p.Locator("#f-size").SelectOption(playwright.SelectOptionValues{Values: &[]string{"M"}}); err != nil {
		t.Fatal(err)
	}
	if res := submit(); res.URL() != target.URL+"/survey" || res.Request().RedirectedFrom() == nil {
		t.Errorf("valid answers ended on %s with %d, want a redirect to the target", res.URL(), res.Status())
	}
	if err := reachURL(p, target.URL+"/survey"); err != nil {
		t.Fatalf("after valid answers: %v (at %s)", err, p.URL())
	}
	arrived("/survey")

	// The answers are the workspace's, the phone number in E.164.
	var answers formResponsePage
	r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links/%d/responses", tn.WorkspaceID, survey.ID), tn.Key, nil)
	if r.Status != http.StatusOK {
		t.Fatalf("responses: %d %s", r.Status, r.Body)
	}
	r.json(t, &answers)
	want := map[string]string{"name": "李雷", "phone": "+8613800138000", "size": "M"}
	if len(answers.Responses) != 1 || fmt.Sprint(answers.Responses[0].Answers) != fmt.Sprint(want) {
		t.Errorf("answers kept: %+v, want one response %v", answers.Responses, want)
	}

	if got := b.Problems(); len(got) != 0 {
		t.Errorf("Content-Security-Policy violations or errors: %q", got)
	}
}

func expectPage(p playwright.Page) playwright.PageAssertions {
	return playwright.NewPlaywrightAssertions(float64(browsertest.Timeout.Milliseconds())).Page(p)
}
