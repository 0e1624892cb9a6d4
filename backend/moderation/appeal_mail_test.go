package moderation_test

import (
	"strings"
	"testing"

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
