package account

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/auth"
)

// A person's own settings: password, address, and the account itself. The handlers check the
// current password (CheckPassword, under the login limits) before calling the others.

// errWrongPassword is the answer to a wrong current password: invalid input, not a failed
// sign-in, so the caller stays signed in.
var errWrongPassword = apperr.Errorf(apperr.Invalid, "the current password is wrong").For("wrong_password", "current_password")

// CheckPassword reports, with errWrongPassword, whether password is the user's; unavailable
// (an *auth.BusyError) when it could not be checked in time.
func (s *Service) CheckPassword(ctx context.Context, userID int64, password string) error {
	if password == "" {
		return apperr.Errorf(apperr.Invalid, "current_password is required").For("current_password_required", "current_password")
	}
	hash, err := s.store.PasswordHash(ctx, userID)
	if err != nil {
		return fmt.Errorf("check password: %w", err)
	}
	ok, err := s.hasher.Verify(ctx, hash, password)
	if err != nil {
		return fmt.Errorf("check password: %w", err)
	}
	if !ok {
		return errWrongPassword
	}
	return nil
}

// CheckNewPassword checks a new password as ValidatePassword does, naming the field.
func CheckNewPassword(p string) error {
	if err := ValidatePassword(p); err != nil {
		return apperr.Errorf(apperr.Invalid, "%s", apperr.MessageOf(err)).For("password_length", "new_password")
	}
	return nil
}

// CredentialGuard decides the changes of a password or an address that a workspace's single
// sign-on forbids (backend/sso is one). Each answers forbidden (sso_required) to refuse, and
// another error when it could not tell, which refuses too.
type CredentialGuard interface {
	// PasswordChangeAllowed decides whether u may set or change a password.
	PasswordChangeAllowed(ctx context.Context, u *User) error
	// EmailChangeAllowed decides whether u may move to the (normalised) address email.
	EmailChangeAllowed(ctx context.Context, u *User, email string) error
}

// GuardCredentials has g decide every change of a password (a change, a reset) and of an
// address (the request and the use of its link). Call it before serving.
func (s *Service) GuardCredentials(g CredentialGuard) { s.guard = g }

// MayChangePassword answers the guard's refusal of a new password for the user, if any.
func (s *Service) MayChangePassword(ctx context.Context, userID int64) error {
	if s.guard == nil {
		return nil
	}
	u, err := s.store.User(ctx, userID)
	if err != nil {
		return err
	}
	return s.guard.PasswordChangeAllowed(ctx, u)
}

// MayChangeEmail answers the guard's refusal of the user's move to email, if any; email is
// normalised first (invalid when it is no address).
func (s *Service) MayChangeEmail(ctx context.Context, userID int64, email string) error {
	if s.guard == nil {
		return nil
	}
	u, err := s.store.User(ctx, userID)
	if err != nil {
		return err
	}
	e, err := CheckNewEmail(u.Email, email)
	if err != nil {
		return err
	}
	return s.guard.EmailChangeAllowed(ctx, u, e)
}

// ChangePassword sets the user's new password and signs out every other session of theirs
// (keep is the caller's own; uuid.Nil signs out all). Refused as the guard decides.
func (s *Service) ChangePassword(ctx context.Context, userID int64, password string, keep uuid.UUID) error {
	if err := CheckNewPassword(password); err != nil {
		return err
	}
	if err := s.MayChangePassword(ctx, userID); err != nil {
		return err
	}
	hash, err := s.hasher.Hash(ctx, password)
	if err != nil {
		return fmt.Errorf("change password: %w", err)
	}
	if err := s.store.SetPassword(ctx, userID, hash, keep); err != nil {
		return fmt.Errorf("change password: %w", err)
	}
	u, err := s.store.User(ctx, userID)
	if err == nil {
		s.inBackground(func(ctx context.Context) {
			subject, body := passwordChangedMail(u.Language)
			if err := s.mailer.Send(ctx, u.Email, subject, body); err != nil {
				s.log.Warn("password-change notice not sent", "user", u.ID, "err", err)
			}
		})
	}
	return nil
}

// CheckNewEmail normalises the address a user asks to move to: valid, not theirs already.
func CheckNewEmail(current, email string) (string, error) {
	e, err := NormalizeEmail(email)
	if err != nil {
		return "", err
	}
	if strings.EqualFold(e, current) {
		return "", apperr.Errorf(apperr.Invalid, "this is your address already").For("email_unchanged", "email")
	}
	return e, nil
}

var errEmailTaken = apperr.Errorf(apperr.Conflict, "another account uses this email address").For("email_taken", "email")

// RequestEmailChange mails a link to the new address; the account's address changes only when
// that link is used (VerifyEmail), and the former address is then told. Returns the normalised
// new address.
func (s *Service) RequestEmailChange(ctx context.Context, userID int64, email string) (string, error) {
	u, err := s.store.User(ctx, userID)
	if err != nil {
		return "", err
	}
	e, err := CheckNewEmail(u.Email, email)
	if err != nil {
		return "", err
	}
	if s.guard != nil {
		if err := s.guard.EmailChangeAllowed(ctx, u, e); err != nil {
			return "", err
		}
	}
	if _, _, err := s.store.UserByEmail(ctx, e); err == nil {
		return "", errEmailTaken
	} else if !apperr.Is(err, apperr.NotFound) {
		return "", fmt.Errorf("change email: %w", err)
	}
	token, hash, err := auth.NewEmailToken()
	if err != nil {
		return "", err
	}
	if err := s.store.CreateEmailToken(ctx, u.ID, PurposeEmail, e, hash, time.Now().Add(VerifyTTL)); err != nil {
		return "", fmt.Errorf("change email: %w", err)
	}
	link := s.link(verifyPath, token)
	s.inBackground(func(ctx context.Context) {
		subject, body := changeEmailMail(u.Language, u.Email, e, link)
		if err := s.mailer.Send(ctx, e, subject, body); err != nil {
			s.log.Warn("email-change mail not sent: the user may ask again", "user", u.ID, "err", err)
		}
	})
	return e, nil
}

// PendingEmail is the address the user asked to move to and has not confirmed, "" if none.
func (s *Service) PendingEmail(ctx context.Context, userID int64) (string, error) {
	return s.store.PendingEmail(ctx, userID)
}

// confirmEmailChange uses an email-change token; not_found when it is none. The guard decides
// again: a link mailed before its workspace enforced single sign-on does not move a member
// the enforcement now binds.
func (s *Service) confirmEmailChange(ctx context.Context, hash []byte) (*User, error) {
	if s.guard != nil {
		userID, email, err := s.store.EmailToken(ctx, PurposeEmail, hash)
		if err != nil {
			return nil, err
		}
		u, err := s.store.User(ctx, userID)
		if err != nil {
			return nil, err
		}
		if err := s.guard.EmailChangeAllowed(ctx, u, email); err != nil {
			return nil, err
		}
	}
	u, old, err := s.store.ChangeEmail(ctx, hash)
	if apperr.Is(err, apperr.Conflict) {
		return nil, errEmailTaken
	}
	if err != nil {
		return nil, err
	}
	s.inBackground(func(ctx context.Context) {
		subject, body := emailChangedMail(u.Language, old, u.Email)
		if err := s.mailer.Send(ctx, old, subject, body); err != nil {
			s.log.Warn("email-change notice to the former address not sent", "user", u.ID, "err", err)
		}
	})
	return u, nil
}

// DeleteAccount deletes the user. Workspaces they alone belong to go with them (their links
// stop answering at once and are removed in the background); memberships of shared workspaces
// end, and the API keys they made there are revoked; links they made there stay with those
// workspaces. Refused with conflict while they are the only owner of a workspace with other
// members: they transfer ownership or delete it first.
func (s *Service) DeleteAccount(ctx context.Context, userID int64) error {
	ids, err := s.store.DeleteUser(ctx, userID)
	if err != nil {
		if apperr.Is(err, apperr.Conflict) {
			return apperr.Errorf(apperr.Conflict, "%s", apperr.MessageOf(err)).For("owns_shared_workspace", "")
		}
		return fmt.Errorf("delete account: %w", err)
	}
	s.forgetKeys(func(k *APIKey) bool { return k.CreatedBy != nil && *k.CreatedBy == userID })
	for _, id := range ids {
		s.workspaceMarkedDeleted(ctx, id)
	}
	return nil
}
