package moderation_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/locale"
	"github.com/shortlink/shortlink/backend/moderation"
)

func TestQuoted(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{" \r\n\t ", ""},
		{"Fine.", "> Fine.\n"},
		{"a\r\nb\rc\n\nd", "> a\n> b\n> c\n>\n> d\n"},
		{"<b>x</b> & \"y\"", "> <b>x</b> & \"y\"\n"},
		{"tab\there\a\x1b[31m red\u202egnp.exe\u2066 \u2028next", "> tab here[31m redgnp.exe next\n"},
		{"> already quoted", "> > already quoted\n"},
	} {
		if got := moderation.Quoted(c.in); got != c.want {
			t.Errorf("Quoted(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestAppealAnswerMail(t *testing.T) {
	for _, c := range []struct {
		lang          locale.Tag
		outcome       string
		answer        string
		subject, says string
	}{
		{locale.English, moderation.AppealUpheld, "Fine.", "Your appeal was accepted: https://sho.rt/a", "> Fine.\n"},
		{locale.English, moderation.AppealRejected, "", "Your appeal was turned down: https://sho.rt/a", "The moderator wrote no answer with it."},
		{locale.Chinese, moderation.AppealUpheld, "可以。", "您的申诉已通过：https://sho.rt/a", "> 可以。\n"},
		{locale.Chinese, moderation.AppealRejected, "不行", "您的申诉被驳回：https://sho.rt/a", "链接仍被封禁"},
		{locale.Tag("fr"), moderation.AppealRejected, "", "Your appeal was turned down: https://sho.rt/a", "stays banned"},
	} {
		subject, body := moderation.AppealAnswerMail(c.lang, c.outcome, "https://sho.rt/a", "https://shop.example/x", c.answer,
			"https://sho.rt/app/links/7?workspace=3")
		if subject != c.subject || !strings.Contains(body, c.says) || !strings.Contains(body, "https://shop.example/x\n") ||
			!strings.HasSuffix(body, "https://sho.rt/app/links/7?workspace=3\n") {
			t.Errorf("%s %s: %q\n%s", c.lang, c.outcome, subject, body)
		}
	}
}

// readers answers the same readers for every appeal.
type readers []locale.Recipient

func (r readers) AppealReaders(context.Context, int64, *int64) ([]locale.Recipient, error) {
	return r, nil
}

// mailer records what it is asked to send; block holds each send until its context ends, and
// fail refuses it.
type mailer struct {
	mu      sync.Mutex
	sent    []string
	block   bool
	fail    bool
	started chan struct{}
}

func (m *mailer) Send(ctx context.Context, to, subject, _ string) error {
	if m.block {
		m.started <- struct{}{}
		<-ctx.Done()
		return ctx.Err()
	}
	if m.fail {
		return errors.New("550 mailbox unavailable")
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sent = append(m.sent, to+" "+subject)
	return nil
}

// An answer is mailed in the background, to each reader in their language; a mail server that
// never answers holds no decision (Answered returns at once, Close ends the wait), and one
// that refuses is logged.
func TestAppealMail(t *testing.T) {
	answered := &moderation.Decided{AppealAnswered: true,
		Link:   &link.Link{ID: 7, WorkspaceID: 3, Key: "abc", URL: "https://shop.example/x"},
		Appeal: &moderation.Appeal{LinkID: 7, WorkspaceID: 3, Outcome: moderation.AppealUpheld, Answer: "Fine."}}
	to := readers{{Email: "ann@example.com", Language: locale.English}, {Email: "li@example.com", Language: locale.Chinese}}
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	app, _ := url.Parse("https://sho.rt")

	m := &mailer{}
	am := moderation.NewAppealMail(moderation.AppealMailOptions{Readers: to, Mail: m, AppURL: app, Log: log,
		ShortURL: func(_ int64, key string) string { return "https://sho.rt/" + key }})
	am.Answered(answered)
	am.Answered(&moderation.Decided{Link: answered.Link}) // no appeal answered: nothing
	am.Close()
	if got := strings.Join(m.sent, "\n"); got != "ann@example.com Your appeal was accepted: https://sho.rt/abc\nli@example.com 您的申诉已通过：https://sho.rt/abc" || am.Done() != 1 {
		t.Errorf("sent %d answers:\n%s", am.Done(), got)
	}

	slow := &mailer{block: true, started: make(chan struct{}, 2)}
	am = moderation.NewAppealMail(moderation.AppealMailOptions{Readers: to[:1], Mail: slow, AppURL: app, Log: log, Timeout: time.Hour})
	am.Answered(answered) // returns while the send waits
	<-slow.started
	if am.Done() != 0 {
		t.Errorf("a send still waiting counted done")
	}
	am.Close()
	if am.Done() != 1 || !strings.Contains(logs.String(), "appeal answer not mailed") {
		t.Errorf("a send stopped by Close: done %d, log %s", am.Done(), logs.String())
	}

	logs.Reset()
	am = moderation.NewAppealMail(moderation.AppealMailOptions{Readers: to[:1], Mail: &mailer{fail: true}, AppURL: app, Log: log})
	am.Answered(answered)
	am.Close()
	if !strings.Contains(logs.String(), "appeal answer not mailed") || !strings.Contains(logs.String(), "550 mailbox unavailable") {
		t.Errorf("a refused mail is not logged: %s", logs.String())
	}
}
