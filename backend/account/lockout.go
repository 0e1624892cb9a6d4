package account

import (
	"context"
	"time"

	"github.com/shortlink/shortlink/backend/auth"
)

// forgotPath is the web app's page that mails a password-reset link.
const forgotPath = "/app/forgot-password"

// MailSecondFactorLocked tells the person, in the background, that wrong second-factor codes
// locked their sign-in until until (docs/security.md#two-factor-sign-in): whoever sent them
// had the password.
func (s *Service) MailSecondFactorLocked(userID int64, until time.Time) {
	s.inBackground(func(ctx context.Context) {
		u, err := s.store.User(ctx, userID)
		if err == nil {
			forgot := s.page(forgotPath)
			subject, body := lockoutMail(u.Language, forgot.String(), auth.MaxWrongCodes, until)
			err = s.mailer.Send(ctx, u.Email, subject, body)
		}
		if err != nil {
			s.log.Warn("second-factor lockout mail not sent", "user", userID, "err", err)
		}
	})
}
