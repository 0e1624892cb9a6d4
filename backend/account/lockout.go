package account

import (
	"context"
	"fmt"
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
			subject, body := lockoutMail(forgot.String(), auth.MaxWrongCodes, until)
			err = s.mailer.Send(ctx, u.Email, subject, body)
		}
		if err != nil {
			s.log.Warn("second-factor lockout mail not sent", "user", userID, "err", err)
		}
	})
}

func lockoutMail(forgot string, failures int, until time.Time) (subject, body string) {
	return "Wrong sign-in codes on your Shortlink account", fmt.Sprintf(`Hello,

%d wrong two-factor codes in a row were entered to sign in to your Shortlink account. They
come after the password, so whoever entered them knows your password.

Until %s no code is taken for your account, not even a right one
or a recovery code. Each further run of wrong codes locks it longer, up to a day at a time;
a right code ends this.

If it was not you, choose a new password now: sessions signed in with the old one end, and
the codes become useless to whoever has it.

%s
`, failures, until.UTC().Format("2006-01-02 15:04 MST"), forgot)
}
