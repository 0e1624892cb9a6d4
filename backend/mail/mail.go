// Package mail sends the service's mail through an SMTP server.
package mail

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// SMTP sends mail through one SMTP server.
type SMTP struct {
	host string
	from string
	opts []gomail.Option
}

// NewSMTP returns a sender for an smtp:// or smtps:// URL (user and password in the URL
// authenticate) with from as the sender. smtps:// speaks TLS from the start (port 465 by
// default); smtp:// must upgrade with STARTTLS (port 587 by default), unless the URL ends in
// ?tls=none, for a relay on the same machine or network (port 25 by default).
func NewSMTP(rawURL, from string) (*SMTP, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("parse SMTP URL: %w", err)
	}
	if u.Hostname() == "" {
		return nil, fmt.Errorf("SMTP URL needs a host")
	}
	var opts []gomail.Option
	port := 0
	if p := u.Port(); p != "" {
		if port, err = strconv.Atoi(p); err != nil || port < 1 || port > 65535 {
			return nil, fmt.Errorf("SMTP URL port %q is not a port", p)
		}
	}
	tlsMode := u.Query().Get("tls")
	switch {
	case u.Scheme == "smtps" && tlsMode == "":
		opts = append(opts, gomail.WithSSL())
		port = cmp(port, 465)
	case u.Scheme == "smtp" && tlsMode == "":
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
		port = cmp(port, 587)
	case u.Scheme == "smtp" && tlsMode == "none":
		opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
		port = cmp(port, 25)
	default:
		return nil, fmt.Errorf("SMTP URL must be smtps://host[:port], smtp://host[:port] (STARTTLS) or smtp://host[:port]?tls=none")
	}
	opts = append(opts, gomail.WithPort(port))
	if u.User != nil {
		pass, _ := u.User.Password()
		// Over TLS the strongest mechanism the server offers; without TLS only PLAIN, which
		// go-mail sends only to a server on loopback.
		mech := gomail.SMTPAuthAutoDiscover
		if tlsMode == "none" {
			mech = gomail.SMTPAuthPlain
		}
		opts = append(opts, gomail.WithSMTPAuth(mech),
			gomail.WithUsername(u.User.Username()), gomail.WithPassword(pass))
	}
	if _, err := gomail.NewClient(u.Hostname(), opts...); err != nil {
		return nil, fmt.Errorf("SMTP client: %w", err)
	}
	return &SMTP{host: u.Hostname(), from: from, opts: opts}, nil
}

func cmp(port, fallback int) int {
	if port == 0 {
		return fallback
	}
	return port
}

// Send delivers one plain-text message; ctx bounds the whole exchange with the server.
func (s *SMTP) Send(ctx context.Context, to, subject, body string) error {
	m := gomail.NewMsg()
	if err := m.From(s.from); err != nil {
		return fmt.Errorf("mail from: %w", err)
	}
	if err := m.To(to); err != nil {
		return fmt.Errorf("mail to: %w", err)
	}
	m.Subject(subject)
	m.SetBodyString(gomail.TypeTextPlain, body)
	// A client per message: sends are rare and run side by side in the background. The
	// context's deadline bounds every read and write, the server's greeting included.
	opts := s.opts
	if d, ok := ctx.Deadline(); ok {
		opts = append(opts[:len(opts):len(opts)], gomail.WithTimeout(max(time.Until(d), time.Millisecond)))
	}
	c, err := gomail.NewClient(s.host, opts...)
	if err != nil {
		return fmt.Errorf("SMTP client: %w", err)
	}
	// A server that accepted the connection and stays silent holds a read that only the
	// timeout ends, not the context: the exchange runs aside, and a cancelled context returns
	// at once (the exchange then ends by its own deadline).
	done := make(chan error, 1)
	go func() { done <- c.DialAndSendWithContext(ctx, m) }()
	select {
	case err = <-done:
	case <-ctx.Done():
		err = ctx.Err()
	}
	if err != nil {
		return fmt.Errorf("send mail: %w", err)
	}
	return nil
}
