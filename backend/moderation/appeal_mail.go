package moderation

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/locale"
)

// An answered appeal is mailed to the link's owner and to the member who appealed, each in
// the language they read (docs/moderation.md#appeals): the link, the outcome, the moderator's
// words quoted as text, and the link's page in the app.

// Mailer sends one plain-text message; mail.SMTP is one.
type Mailer interface {
	Send(ctx context.Context, to, subject, body string) error
}

// AppealReaders finds who is told of an appeal's answer (package postgres).
type AppealReaders interface {
	// AppealReaders are the workspace's first owner (the owner the desk shows) and, when still a
	// member of the workspace, the user who appealed (appellant; nil for an API key): each once.
	AppealReaders(ctx context.Context, workspaceID int64, appellant *int64) ([]locale.Recipient, error)
}

// AppealMailOptions configure an AppealMail.
type AppealMailOptions struct {
	Readers AppealReaders
	Mail    Mailer
	// AppURL is the web app's public URL (PUBLIC_URL): the mail links to the link's page there.
	AppURL *url.URL
	// ShortURL is the link's short URL (link.Service.ShortURL); "" for none.
	ShortURL func(domainID int64, key string) string
	// Timeout bounds one answer's mails (30 s when 0).
	Timeout time.Duration
	Log     *slog.Logger
}

// AppealMail mails appeals' answers in the background: a slow mail server delays no decision,
// and a mail that fails is logged, the answer standing on the link's page.
type AppealMail struct {
	o       AppealMailOptions
	bg      context.Context
	stop    context.CancelFunc
	pending sync.WaitGroup
	done    atomic.Int64
}

// NewAppealMail returns the mailer of appeals' answers; Close stops it.
func NewAppealMail(o AppealMailOptions) *AppealMail {
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Second
	}
	bg, stop := context.WithCancel(context.Background())
	return &AppealMail{o: o, bg: bg, stop: stop}
}

// Answered mails the answer of the appeal a decision closed, in the background; nothing when
// it closed none.
func (m *AppealMail) Answered(d *Decided) {
	if d == nil || !d.AppealAnswered || d.Appeal == nil || d.Link == nil {
		return
	}
	l, a := *d.Link, *d.Appeal
	m.pending.Go(func() {
		defer m.done.Add(1)
		ctx, cancel := context.WithTimeout(m.bg, m.o.Timeout)
		defer cancel()
		m.send(ctx, l, a)
	})
}

// Done counts the answers whose mails were sent or given up: a test's sign that the mails of
// an answer had their chance.
func (m *AppealMail) Done() int64 { return m.done.Load() }

// Close stops the mails under way and waits for them.
func (m *AppealMail) Close() {
	m.stop()
	m.pending.Wait()
}

func (m *AppealMail) send(ctx context.Context, l link.Link, a Appeal) {
	readers, err := m.o.Readers.AppealReaders(ctx, l.WorkspaceID, a.UserID)
	if err != nil {
		m.o.Log.Warn("appeal answer not mailed: the owner reads it on the link's page", "link", l.ID, "err", err)
		return
	}
	short := ""
	if m.o.ShortURL != nil {
		short = m.o.ShortURL(l.DomainID, l.Key)
	}
	if short == "" {
		short = "/" + l.Key
	}
	page := m.page(l)
	for _, to := range readers {
		subject, body := AppealAnswerMail(to.Language, a.Outcome, short, l.URL, a.Answer, page)
		if err := m.o.Mail.Send(ctx, to.Email, subject, body); err != nil {
			m.o.Log.Warn("appeal answer not mailed: the owner reads it on the link's page", "link", l.ID, "err", err)
		}
	}
}

// page is the link's page in the web app, in the link's workspace.
func (m *AppealMail) page(l link.Link) string {
	u := url.URL{Scheme: "http", Host: "localhost:8080"}
	if m.o.AppURL != nil {
		u = *m.o.AppURL
	}
	u.Path = "/app/links/" + strconv.FormatInt(l.ID, 10)
	u.RawQuery = url.Values{"workspace": {strconv.FormatInt(l.WorkspaceID, 10)}}.Encode()
	return u.String()
}

// appealTexts are an answer's mail in one language.
type appealTexts struct {
	upheld, rejected         string // subjects; %s is the short link
	intro                    string
	link, destination, state string
	upheldState              string
	rejectedState            string
	words, noWords           string
	page                     string
}

var appealIn = map[locale.Tag]appealTexts{
	locale.English: {
		upheld:        "Your appeal was accepted: %s",
		rejected:      "Your appeal was turned down: %s",
		intro:         "Hello,\n\na moderator answered the appeal of a link of your workspace on Shortlink.\n\n",
		link:          "Link:        ",
		destination:   "Destination: ",
		state:         "Outcome:     ",
		upheldState:   "the appeal was accepted: the link is not banned, and it works again.",
		rejectedState: "the appeal was turned down: the link stays banned, and its visitors see a warning page.",
		words:         "The moderator's answer, as they wrote it:\n\n",
		noWords:       "The moderator wrote no answer with it.\n",
		page:          "\nThe link's page in the app: %s\n",
	},
	locale.Chinese: {
		upheld:        "您的申诉已通过：%s",
		rejected:      "您的申诉被驳回：%s",
		intro:         "您好：\n\n审核员答复了您工作区中一个链接在 Shortlink 上的申诉。\n\n",
		link:          "链接：",
		destination:   "目标地址：",
		state:         "结果：",
		upheldState:   "申诉已通过：链接不再被封禁，恢复正常使用。",
		rejectedState: "申诉被驳回：链接仍被封禁，访客会看到警告页面。",
		words:         "审核员的答复（原文）：\n\n",
		noWords:       "审核员没有附上答复。\n",
		page:          "\n在应用中查看该链接：%s\n",
	},
}

// AppealAnswerMail is the subject and text, in lang, of the answer of an appeal of the link
// short (to destination): outcome AppealUpheld or AppealRejected, the moderator's words
// answer quoted as text, page the link's page in the app.
func AppealAnswerMail(lang locale.Tag, outcome, short, destination, answer, page string) (subject, body string) {
	w, ok := appealIn[lang]
	if !ok {
		w = appealIn[locale.English]
	}
	subject, state := fmt.Sprintf(w.rejected, short), w.rejectedState
	if outcome == AppealUpheld {
		subject, state = fmt.Sprintf(w.upheld, short), w.upheldState
	}
	var b strings.Builder
	b.WriteString(w.intro)
	b.WriteString(w.link + short + "\n")
	b.WriteString(w.destination + destination + "\n")
	b.WriteString(w.state + state + "\n\n")
	if q := Quoted(answer); q != "" {
		b.WriteString(w.words)
		b.WriteString(q)
	} else {
		b.WriteString(w.noWords)
	}
	fmt.Fprintf(&b, w.page, page)
	return subject, b.String()
}

// Quoted is a moderator's words as a plain-text mail quotes them: every line after "> ",
// control characters and those that turn the direction of text dropped (tabs become spaces),
// so that nothing in them reads as a line of the mail's own or hides what follows. "" for
// words with nothing to show.
func Quoted(words string) string {
	words = strings.ReplaceAll(strings.ReplaceAll(words, "\r\n", "\n"), "\r", "\n")
	clean := strings.Map(func(r rune) rune {
		switch {
		case r == '\n':
			return r
		case r == '\t':
			return ' '
		case unicode.IsControl(r), unicode.Is(unicode.Bidi_Control, r), r == '\u2028', r == '\u2029':
			return -1
		}
		return r
	}, words)
	clean = strings.TrimSpace(clean)
	if clean == "" {
		return ""
	}
	var b strings.Builder
	for _, line := range strings.Split(clean, "\n") {
		b.WriteString(strings.TrimRight("> "+line, " ") + "\n")
	}
	return b.String()
}
