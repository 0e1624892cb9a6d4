package account

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/auth"
)

// Mailer sends one plain-text message.
type Mailer interface {
	Send(ctx context.Context, to, subject, body string) error
}

// Purposes of the tokens sent by email.
const (
	PurposeVerify = "verify"
	PurposeReset  = "reset"
	// PurposeEmail: a link sent to a new address; using it makes that address the account's.
	PurposeEmail = "email"
)

// Lifetimes of the links sent by email: a verification link may wait in an inbox for a day; a
// password reset is asked for and used at once.
const (
	VerifyTTL = 24 * time.Hour
	ResetTTL  = time.Hour
)

// mailTimeout bounds one background send, so a slow SMTP server holds nothing for long.
const mailTimeout = 30 * time.Second

// Web-app paths the links in the mails open; the app posts the token to the API.
const (
	verifyPath = "/app/verify"
	resetPath  = "/app/reset-password"
	// invitationsPath is the web app's page of the invitations a signed-in address received.
	invitationsPath = "/app/invitations"
)

var errUnverified = apperr.Errorf(apperr.EmailUnverified,
	"verify your email address first: follow the link in the mail we sent, or ask for a new one").For("email_unverified", "")

var errBadEmailToken = apperr.Errorf(apperr.Invalid, "the link is invalid, expired or already used: ask for a new one").For("email_link_invalid", "")

// UseMail sets how mail is sent (nil: into the log) and the base URL of the web app
// (PUBLIC_URL) that the links in the mails point at.
func (s *Service) UseMail(m Mailer, appBase *url.URL) {
	if m == nil {
		m = logMailer{s}
	}
	s.mailer, s.appBase = m, appBase
}

// logMailer writes each message into the log instead of sending it, for deployments without
// an SMTP server: `make run` shows the links there. The links are secrets while they last,
// which is why production sets SMTP_URL.
type logMailer struct{ s *Service }

func (l logMailer) Send(_ context.Context, to, subject, body string) error {
	l.s.log.Info("mail not sent (SMTP_URL is unset); its text follows", "to", to, "subject", subject, "body", body)
	return nil
}

// link is the web-app URL that hands token to the page at path.
func (s *Service) link(path, token string) string {
	u := s.page(path)
	u.RawQuery = url.Values{"token": {token}}.Encode()
	return u.String()
}

// page is the web app's URL of path.
func (s *Service) page(path string) url.URL {
	u := url.URL{Scheme: "http", Host: "localhost:8080"}
	if s.appBase != nil {
		u = *s.appBase
	}
	u.Path = path
	return u
}

// mailInvitation tells the invited address where to accept, in the background. The link's
// secret shows whoever opens it what the invitation is and lets them sign up with that
// address straight into the workspace: it proves the mailbox as a verification link does.
// Anyone with an account signs in with the address to accept. It is in the language of the
// address's account, or of the inviter (by) when the address has none.
func (s *Service) mailInvitation(inv *Invitation, by int64) {
	if s.mailer == nil {
		return
	}
	link := s.link(invitationsPath+"/"+strconv.FormatInt(inv.ID, 10), inv.Token)
	if inv.Token == "" {
		u := s.page(invitationsPath + "/" + strconv.FormatInt(inv.ID, 10))
		link = u.String()
	}
	s.inBackground(func(ctx context.Context) {
		subject, body := invitationMail(s.invitationLanguage(ctx, inv, by), inv, link)
		if err := s.mailer.Send(ctx, inv.Email, subject, body); err != nil {
			s.log.Warn("invitation mail not sent: the address still sees it once signed in", "invitation", inv.ID, "err", err)
		}
	})
}

// inBackground runs fn off the request path with its own deadline; Close stops it.
func (s *Service) inBackground(fn func(ctx context.Context)) {
	s.pending.Go(func() {
		ctx, cancel := context.WithTimeout(s.bg, mailTimeout)
		defer cancel()
		fn(ctx)
	})
}

// mailToken stores a new single-use token for the user and mails them the link carrying it.
// It runs in the background: failures are logged, and the user can ask again.
func (s *Service) mailToken(ctx context.Context, u *User, purpose string) {
	token, hash, err := auth.NewEmailToken()
	if err == nil {
		ttl := VerifyTTL
		if purpose == PurposeReset {
			ttl = ResetTTL
		}
		err = s.store.CreateEmailToken(ctx, u.ID, purpose, u.Email, hash, time.Now().Add(ttl))
	}
	if err == nil {
		subject, body := verifyMail(u.Language, u.Email, s.link(verifyPath, token))
		if purpose == PurposeReset {
			subject, body = resetMail(u.Language, s.link(resetPath, token))
		}
		err = s.mailer.Send(ctx, u.Email, subject, body)
	}
	if err != nil {
		s.log.Warn("mail not sent: the user may ask for another", "purpose", purpose, "user", u.ID, "err", err)
	}
}

// sendVerification mails u a verification link, in the background.
func (s *Service) sendVerification(u *User) {
	s.inBackground(func(ctx context.Context) { s.mailToken(ctx, u, PurposeVerify) })
}

// ResendVerification mails the user a new verification link, in the background. Returns
// conflict when the address is verified already.
func (s *Service) ResendVerification(ctx context.Context, userID int64) error {
	u, err := s.store.User(ctx, userID)
	if err != nil {
		return err
	}
	if u.EmailVerified {
		return apperr.Errorf(apperr.Conflict, "your email address is verified already").For("email_already_verified", "")
	}
	s.sendVerification(u)
	return nil
}

// VerifyEmail uses up a verification token and marks the address it was sent to verified, or
// uses up an email-change token and makes the address it was sent to the account's.
func (s *Service) VerifyEmail(ctx context.Context, token string) (*User, error) {
	if !auth.IsEmailToken(token) {
		return nil, errBadEmailToken
	}
	hash := auth.HashEmailToken(token)
	u, err := s.store.VerifyEmail(ctx, hash)
	if apperr.Is(err, apperr.NotFound) {
		// The same page opens the links that change an address.
		u, err = s.confirmEmailChange(ctx, hash)
	}
	if apperr.Is(err, apperr.NotFound) {
		return nil, errBadEmailToken
	}
	if apperr.Is(err, apperr.Forbidden) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("verify email: %w", err)
	}
	return u, nil
}

// RequestPasswordReset mails a reset link to the account with that email, if there is one.
// Everything after the syntax check happens in the background, so the answer and its timing
// are the same whether or not the account exists.
func (s *Service) RequestPasswordReset(email string) error {
	e, err := NormalizeEmail(email)
	if err != nil {
		return err
	}
	s.inBackground(func(ctx context.Context) {
		u, _, err := s.store.UserByEmail(ctx, e)
		if apperr.Is(err, apperr.NotFound) {
			return
		}
		if err != nil {
			s.log.Warn("password reset: look up the account", "err", err)
			return
		}
		s.mailToken(ctx, u, PurposeReset)
	})
	return nil
}

// ResetPassword uses up a reset token and sets the account's new password. Every session of
// the account ends, and the address the token was sent to counts as verified (its owner read
// the mail). The guard decides first: a link mailed before the account's workspace enforced
// single sign-on sets no password (the token stays unused).
func (s *Service) ResetPassword(ctx context.Context, token, password string) error {
	if err := ValidatePassword(password); err != nil {
		return err
	}
	if !auth.IsEmailToken(token) {
		return errBadEmailToken
	}
	if s.guard != nil {
		userID, _, err := s.store.EmailToken(ctx, PurposeReset, auth.HashEmailToken(token))
		if apperr.Is(err, apperr.NotFound) {
			return errBadEmailToken
		}
		if err != nil {
			return fmt.Errorf("reset password: %w", err)
		}
		if err := s.MayChangePassword(ctx, userID); err != nil {
			return err
		}
	}
	hash, err := s.hasher.Hash(ctx, password)
	if err != nil {
		return err
	}
	_, err = s.store.ResetPassword(ctx, auth.HashEmailToken(token), hash)
	if apperr.Is(err, apperr.NotFound) {
		return errBadEmailToken
	}
	if err != nil {
		return fmt.Errorf("reset password: %w", err)
	}
	return nil
}

// KeysRevoked is keysRevoked for keys another package's store revoked (a single sign-on that
// took an account over).
func (s *Service) KeysRevoked(ctx context.Context, ids []int64) { s.keysRevoked(ctx, ids) }

// keysRevoked forgets revoked keys here and tells the other nodes.
func (s *Service) keysRevoked(ctx context.Context, ids []int64) {
	for _, id := range ids {
		s.ForgetKey(id)
		if s.keyRevoked != nil {
			s.keyRevoked(ctx, id)
		}
	}
}
