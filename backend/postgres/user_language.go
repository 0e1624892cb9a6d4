package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/locale"
)

// SetLanguage implements account.Store: the language the user reads mails in.
func (s *AccountStore) SetLanguage(ctx context.Context, userID int64, lang locale.Tag) (*account.User, error) {
	u, err := scanUser(s.db.Pool.QueryRow(ctx, `UPDATE users SET language = $2 WHERE id = $1 RETURNING `+userColumns,
		userID, string(lang)))
	if err != nil {
		return nil, fmt.Errorf("set language: %w", notFound(err, "user"))
	}
	return u, nil
}

// LanguageOf implements account.Store: the language of the account that uses email, and
// whether there is one.
func (s *AccountStore) LanguageOf(ctx context.Context, email string) (locale.Tag, bool, error) {
	var lang string
	err := s.db.Pool.QueryRow(ctx, `SELECT language FROM users WHERE lower(email) = lower($1)`, email).Scan(&lang)
	if errors.Is(err, pgx.ErrNoRows) {
		return locale.English, false, nil
	}
	if err != nil {
		return locale.English, false, fmt.Errorf("language of an address: %w", err)
	}
	return locale.Of(lang), true, nil
}
