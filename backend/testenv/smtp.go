package testenv

import (
	"errors"
	"io"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Mailbox is a real SMTP server on loopback that keeps every message it receives, for tests
// that follow the links the service mails. It accepts mail only after AUTH PLAIN with the
// user and password in URL.
type Mailbox struct {
	// URL is the SMTP_URL that reaches it.
	URL string

	mu       sync.Mutex
	messages []*Message
	arrived  chan struct{} // closed and replaced on each message
}

// Message is a mail the Mailbox received, its body decoded.
type Message struct {
	From    string
	To      []string
	Subject string
	Body    string
	taken   bool
}

const (
	smtpUser     = "shortlink"
	smtpPassword = "mail secret"
)

// SMTP starts a Mailbox for t, stopped when t ends.
func SMTP(t testing.TB) *Mailbox {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("SMTP listen: %v", err)
	}
	m := &Mailbox{URL: "smtp://" + smtpUser + ":mail%20secret@" + ln.Addr().String() + "?tls=none", arrived: make(chan struct{})}
	srv := smtp.NewServer(m)
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	srv.ReadTimeout = 10 * time.Second
	srv.WriteTimeout = 10 * time.Second
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return m
}

// NewSession implements smtp.Backend.
func (m *Mailbox) NewSession(*smtp.Conn) (smtp.Session, error) { return &session{box: m}, nil }

type session struct {
	box    *Mailbox
	authed bool
	from   string
	to     []string
}

func (s *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pass string) error {
		if user != smtpUser || pass != smtpPassword {
			return errors.New("wrong user or password")
		}
		s.authed = true
		return nil
	}), nil
}

func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	if !s.authed {
		return smtp.ErrAuthRequired
	}
	s.from = from
	return nil
}

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.to = append(s.to, to)
	return nil
}

func (s *session) Data(r io.Reader) error {
	msg, err := mail.ReadMessage(r)
	if err != nil {
		return err
	}
	body := msg.Body
	if strings.EqualFold(msg.Header.Get("Content-Transfer-Encoding"), "quoted-printable") {
		body = quotedprintable.NewReader(body)
	}
	text, err := io.ReadAll(body)
	if err != nil {
		return err
	}
	subject, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	if err != nil {
		return err
	}
	s.box.mu.Lock()
	s.box.messages = append(s.box.messages, &Message{From: s.from, To: s.to, Subject: subject, Body: string(text)})
	close(s.box.arrived)
	s.box.arrived = make(chan struct{})
	s.box.mu.Unlock()
	return nil
}

func (s *session) Reset()        { s.from, s.to = "", nil }
func (s *session) Logout() error { return nil }

// Wait returns the oldest message to the address that no earlier Wait returned, waiting up to
// ten seconds for one to arrive.
func (m *Mailbox) Wait(t testing.TB, to string) *Message {
	t.Helper()
	return m.WaitSubject(t, to, "")
}

// WaitSubject is Wait for the messages whose subject starts with prefix: mails sent in the
// background (a verification, an invitation) may arrive in any order.
func (m *Mailbox) WaitSubject(t testing.TB, to, prefix string) *Message {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		m.mu.Lock()
		for _, msg := range m.messages {
			if !msg.taken && containsFold(msg.To, to) && strings.HasPrefix(msg.Subject, prefix) {
				msg.taken = true
				m.mu.Unlock()
				return msg
			}
		}
		arrived := m.arrived
		m.mu.Unlock()
		select {
		case <-arrived:
		case <-deadline:
			t.Fatalf("no mail to %s within 10s", to)
			return nil
		}
	}
}

// Count is how many messages to the address have arrived so far.
func (m *Mailbox) Count(to string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, msg := range m.messages {
		if containsFold(msg.To, to) {
			n++
		}
	}
	return n
}

func containsFold(list []string, s string) bool {
	for _, v := range list {
		if strings.EqualFold(v, s) {
			return true
		}
	}
	return false
}

var linkRE = regexp.MustCompile(`https?://\S+`)

// Link is the first URL in the message's body, failing the test when there is none.
func (msg *Message) Link(t testing.TB) string {
	t.Helper()
	l := linkRE.FindString(msg.Body)
	if l == "" {
		t.Fatalf("no link in the mail %q: %s", msg.Subject, msg.Body)
	}
	return l
}

// Token is the token query parameter of the message's link.
func (msg *Message) Token(t testing.TB) string {
	t.Helper()
	_, q, _ := strings.Cut(msg.Link(t), "?token=")
	if q == "" {
		t.Fatalf("no token in the link of %q: %s", msg.Subject, msg.Body)
	}
	return q
}
