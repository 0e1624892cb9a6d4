package account

import (
	"context"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/locale"
)

// The language a person reads Shortlink's mails in (docs/web-app.md#language-errors-and-confirmations).

// ParseLanguage reads the language of a request, invalid (language_invalid) when it is none of
// locale.Tags.
func ParseLanguage(s string) (locale.Tag, error) {
	lang, ok := locale.Parse(s)
	if !ok {
		return "", apperr.Errorf(apperr.Invalid, "language must be en or zh").For("language_invalid", "language")
	}
	return lang, nil
}

// SetLanguage makes lang the language of the user's mails.
func (s *Service) SetLanguage(ctx context.Context, userID int64, lang locale.Tag) (*User, error) {
	return s.store.SetLanguage(ctx, userID, lang)
}

// invitationLanguage is the language of the invited address's account, or of the inviter's
// when the address has none (whoever invites likely shares one with whom they invite).
func (s *Service) invitationLanguage(ctx context.Context, inv *Invitation, by int64) locale.Tag {
	if lang, ok, err := s.store.LanguageOf(ctx, inv.Email); err == nil && ok {
		return lang
	}
	if u, err := s.store.User(ctx, by); err == nil {
		return u.Language
	}
	return locale.English
}
