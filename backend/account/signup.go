// Users: signing up (also through an invitation link), signing in, and the checks of
// addresses, passwords and names.

package account

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"unicode/utf8"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/auth"
	"github.com/shortlink/shortlink/backend/locale"
)

// NormalizeEmail trims and lower-cases an address and checks its syntax.
func NormalizeEmail(email string) (string, error) {
	e := strings.ToLower(strings.TrimSpace(email))
	if e == "" {
		return "", apperr.Errorf(apperr.Invalid, "email is required").For("email_required", "email")
	}
	if len(e) > 254 {
		return "", apperr.Errorf(apperr.Invalid, "email must be at most 254 characters").For("email_invalid", "email")
	}
	// ParseAddress also accepts "Name <a@b.c>"; only a bare address that parses to itself
	// is an address we can store and compare.
	a, err := mail.ParseAddress(e)
	at := strings.LastIndexByte(e, '@')
	if err != nil || a.Address != e || at < 1 || !validDomain(e[at+1:]) {
		return "", apperr.Errorf(apperr.Invalid, "email %q is not a valid address", email).For("email_invalid", "email")
	}
	return e, nil
}

func validDomain(d string) bool {
	if !strings.Contains(d, ".") || strings.HasPrefix(d, ".") || strings.HasSuffix(d, ".") || strings.Contains(d, "..") {
		return false
	}
	return !strings.ContainsAny(d, "[]\"\\ ")
}

// ValidatePassword checks a new password's length, in characters.
func ValidatePassword(p string) error {
	if n := utf8.RuneCountInString(p); n < 8 || n > 256 {
		return apperr.Errorf(apperr.Invalid, "password must be 8 to 256 characters").For("password_length", "password")
	}
	return nil
}

// defaultWorkspaceName names a new user's first workspace after their address, in the
// language they signed up in: a person signing up in Chinese is not greeted by "'s workspace".
func defaultWorkspaceName(email string, lang locale.Tag) string {
	suffix := "'s workspace"
	if lang == locale.Chinese {
		suffix = " 的工作区"
	}
	local := email[:strings.LastIndexByte(email, '@')]
	if r, room := []rune(local), 100-utf8.RuneCountInString(suffix); len(r) > room {
		local = string(r[:room])
	}
	return local + suffix
}

// Signup creates a user with a free workspace of their own that they own, and mails them a
// link to verify their address (in the background: a slow mail server delays nothing).
//
// With inv, the link of an invitation mail, the user instead joins the inviting workspace
// with the invited role and gets no workspace of their own; the address must be the invited
// one, and counts as verified: the link's secret was mailed to it. lang ("" for the default)
// is the language of the user's mails.
func (s *Service) Signup(ctx context.Context, email, password string, inv *InvitationLink, lang locale.Tag) (*User, *Workspace, error) {
	e, err := NormalizeEmail(email)
	if err != nil {
		return nil, nil, err
	}
	if err := ValidatePassword(password); err != nil {
		return nil, nil, err
	}
	var preview *InvitationPreview
	if inv != nil {
		if preview, err = s.invitationForSignup(ctx, e, inv); err != nil {
			return nil, nil, err
		}
	}
	hash, err := s.hasher.Hash(ctx, password)
	if err != nil {
		return nil, nil, fmt.Errorf("sign up: %w", err)
	}
	var u *User
	var ws *Workspace
	if preview != nil {
		u, ws, err = s.store.CreateInvitedUser(ctx, e, hash, preview.ID, auth.HashEmailToken(inv.Token))
		if apperr.Is(err, apperr.NotFound) {
			return nil, nil, errInvitationLink
		}
	} else {
		u, ws, err = s.store.CreateUser(ctx, e, hash, defaultWorkspaceName(e, lang))
	}
	if apperr.Is(err, apperr.Conflict) {
		return nil, nil, apperr.Errorf(apperr.Conflict, "an account with this email already exists").For("email_taken", "email")
	}
	if err != nil {
		return nil, nil, err
	}
	if lang != "" && lang != u.Language {
		if u, err = s.store.SetLanguage(ctx, u.ID, lang); err != nil {
			return nil, nil, fmt.Errorf("sign up: %w", err)
		}
	}
	if !u.EmailVerified {
		s.sendVerification(u)
	}
	return u, ws, nil
}

var errInvitationLink = apperr.Errorf(apperr.Invalid,
	"the invitation was withdrawn or used, or its link is incomplete: sign up without it, or ask for a new one").
	For("invitation_invalid", "invitation")

// invitationForSignup checks that a sign-up through an invitation link may join: the link is
// live, the address is the invited one and the workspace has room.
func (s *Service) invitationForSignup(ctx context.Context, email string, inv *InvitationLink) (*InvitationPreview, error) {
	p, err := s.PreviewInvitation(ctx, inv.ID, inv.Token)
	if apperr.Is(err, apperr.NotFound) {
		return nil, errInvitationLink
	}
	if err != nil {
		return nil, err
	}
	if p.Expired {
		return nil, errInvitationExpired(p.InvitedBy)
	}
	if p.Email != email {
		return nil, apperr.Errorf(apperr.Invalid, "the invitation is for %s: sign up with that address, or without the invitation", p.Email).
			For("invitation_email_mismatch", "email")
	}
	if s.memberCheck != nil {
		if err := s.memberCheck(ctx, p.WorkspaceID, 1); err != nil {
			var ae *apperr.Error
			if errors.As(err, &ae) && ae.Code == apperr.QuotaExceeded {
				return nil, ae.For("invitation_workspace_full", "invitation")
			}
			return nil, err
		}
	}
	return p, nil
}

// errLogin is the one answer to a wrong email or a wrong password, so the login form does not
// tell which addresses have accounts.
var errLogin = apperr.Errorf(apperr.Unauthorized, "wrong email or password").For("login_failed", "")

// Login checks an email and password. An unknown email costs a password check too, queue
// included, so the two failures take about the same time. Returns unauthorized for either,
// and unavailable (an *auth.BusyError) when the password could not be checked in time.
func (s *Service) Login(ctx context.Context, email, password string) (*User, error) {
	e, err := NormalizeEmail(email)
	if err != nil {
		return nil, s.spendCheck(ctx, password)
	}
	u, hash, err := s.store.UserByEmail(ctx, e)
	if apperr.Is(err, apperr.NotFound) {
		return nil, s.spendCheck(ctx, password)
	}
	if err != nil {
		return nil, fmt.Errorf("login: %w", err)
	}
	ok, err := s.hasher.Verify(ctx, hash, password)
	if err != nil {
		return nil, fmt.Errorf("login: %w", err)
	}
	if !ok {
		return nil, errLogin
	}
	return u, nil
}

// spendCheck spends a password check on no one and answers a failed login.
func (s *Service) spendCheck(ctx context.Context, password string) error {
	if err := s.hasher.SpendCheck(ctx, password); err != nil {
		return fmt.Errorf("login: %w", err)
	}
	return errLogin
}

// UserByEmail returns the user with the (normalised) address; not_found if there is none.
func (s *Service) UserByEmail(ctx context.Context, email string) (*User, error) {
	u, _, err := s.store.UserByEmail(ctx, email)
	return u, err
}

// User returns a user by ID; not_found if there is none.
func (s *Service) User(ctx context.Context, id int64) (*User, error) { return s.store.User(ctx, id) }
