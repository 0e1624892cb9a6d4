package mail_test

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/mail"
	"github.com/shortlink/shortlink/backend/testenv"
)

func TestSendThroughSMTP(t *testing.T) {
	box := testenv.SMTP(t)
	s, err := mail.NewSMTP(box.URL, "Shortlink <no-reply@sho.rt>")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Send(context.Background(), "ann@example.com", "Hello there", "Open https://sho.rt/app/verify?token=abc now.\n"); err != nil {
		t.Fatal(err)
	}
	msg := box.Wait(t, "ann@example.com")
	if msg.Subject != "Hello there" || msg.Link(t) != "https://sho.rt/app/verify?token=abc" || msg.From != "no-reply@sho.rt" {
		t.Errorf("received %+v", msg)
	}
	// Wrong credentials: the server refuses, and Send says so.
	bad, err := mail.NewSMTP(strings.Replace(box.URL, "mail%20secret", "wrong", 1), "no-reply@sho.rt")
	if err != nil {
		t.Fatal(err)
	}
	if err := bad.Send(context.Background(), "ann@example.com", "x", "y"); err == nil {
		t.Error("Send with a wrong password succeeded")
	}
}

// TestSendTimesOut: a server that accepts the connection and never speaks holds Send only
// as long as its context allows.
func TestSendTimesOut(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = ln.Close() }()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer func() { _ = c.Close() }()
		}
	}()
	s, err := mail.NewSMTP("smtp://"+ln.Addr().String()+"?tls=none", "no-reply@sho.rt")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	if err := s.Send(ctx, "ann@example.com", "x", "y"); err == nil {
		t.Error("Send to a silent server succeeded")
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Send took %s with a 300ms deadline", d)
	}
}

func TestBadURLs(t *testing.T) {
	for _, u := range []string{"http://mail.example", "smtp://", "smtps://mail.example?tls=none", "smtp://mail.example:0", "smtp://mail.example?tls=maybe"} {
		if _, err := mail.NewSMTP(u, "no-reply@sho.rt"); err == nil {
			t.Errorf("NewSMTP(%q) accepted", u)
		}
	}
}
