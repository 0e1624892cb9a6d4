package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/sso"
)

// protocolOf is the settings' protocol, OpenID Connect when unset.
func protocolOf(s *sso.Settings) string {
	if s.Protocol == "" {
		return sso.ProtocolOIDC
	}
	return s.Protocol
}

// ConsumeAssertion implements sso.Store: the primary key makes an assertion good once, even
// for two posts at the same moment; assertions past their time go on the way.
func (s *SSOStore) ConsumeAssertion(ctx context.Context, workspaceID int64, assertionID string, expires time.Time) error {
	if _, err := s.db.Pool.Exec(ctx, `DELETE FROM saml_assertions WHERE expires_at < now()`); err != nil {
		return fmt.Errorf("purge saml assertions: %w", err)
	}
	tag, err := s.db.Pool.Exec(ctx, `INSERT INTO saml_assertions (workspace_id, assertion_id, expires_at)
		VALUES ($1, $2, $3) ON CONFLICT (workspace_id, assertion_id) DO NOTHING`, workspaceID, assertionID, expires)
	if err != nil {
		return fmt.Errorf("record saml assertion: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return apperr.Errorf(apperr.Conflict, "the assertion was used already").For("sso_failed", "")
	}
	return nil
}
