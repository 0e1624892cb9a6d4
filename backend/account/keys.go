// Workspace API keys: making, listing, revoking and checking them, with this node's cache.

package account

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/auth"
)

// keyCacheTTL bounds how long a key revoked on another node keeps working here.
const keyCacheTTL = 5 * time.Second

// touchEvery bounds how often a key's last-used time is written.
const touchEvery = time.Minute

// OnKeyRevoked sets what is told of each revoked API key (after this node forgot it), so that
// other nodes can forget their cached copies at once rather than when those expire.
func (s *Service) OnKeyRevoked(fn func(ctx context.Context, keyID int64)) { s.keyRevoked = fn }

// ForgetKey drops this node's cached copy of an API key, revoked elsewhere.
func (s *Service) ForgetKey(id int64) { s.forgetKeys(func(k *APIKey) bool { return k.ID == id }) }

// ForgetAllKeys drops every cached API key (news of revocations may have been missed).
func (s *Service) ForgetAllKeys() { s.keys.InvalidateAll() }

// ValidateScopes checks API-key scopes and returns them without repeats.
func ValidateScopes(scopes []string) ([]string, error) {
	if len(scopes) == 0 {
		return nil, apperr.Errorf(apperr.Invalid, "scopes must name at least one of %s", strings.Join(Scopes, ", ")).For("scopes_required", "scopes")
	}
	var clean []string
	for _, sc := range scopes {
		if !slices.Contains(Scopes, sc) {
			return nil, apperr.Errorf(apperr.Invalid, "scope %q is unknown: use %s", sc, strings.Join(Scopes, ", ")).For("scope_unknown", "scopes")
		}
		if !slices.Contains(clean, sc) {
			clean = append(clean, sc)
		}
	}
	return clean, nil
}

// CreateAPIKey makes a key of the workspace and returns it with its secret, which is shown
// this once and never stored. by is the creating user.
func (s *Service) CreateAPIKey(ctx context.Context, workspaceID, by int64, name string, scopes []string) (*APIKey, string, error) {
	n, err := ValidateName(name)
	if err != nil {
		return nil, "", err
	}
	clean, err := ValidateScopes(scopes)
	if err != nil {
		return nil, "", err
	}
	secret, prefix, hash, err := auth.NewAPIKey()
	if err != nil {
		return nil, "", err
	}
	k := &APIKey{WorkspaceID: workspaceID, Name: n, Prefix: prefix, Scopes: clean}
	if by != 0 {
		k.CreatedBy = &by
	}
	k, err = s.store.CreateAPIKey(ctx, k, hash)
	if err != nil {
		return nil, "", err
	}
	return k, secret, nil
}

// APIKeys lists a workspace's live keys (never their secrets).
func (s *Service) APIKeys(ctx context.Context, workspaceID int64) ([]*APIKey, error) {
	return s.store.APIKeys(ctx, workspaceID, false)
}

// APIKeysWithRevoked lists every key of a workspace, revoked ones with when and why.
func (s *Service) APIKeysWithRevoked(ctx context.Context, workspaceID int64) ([]*APIKey, error) {
	return s.store.APIKeys(ctx, workspaceID, true)
}

// RevokeAPIKey stops a key at once on this node and, through OnKeyRevoked, on every other
// (within keyCacheTTL should that news be lost).
func (s *Service) RevokeAPIKey(ctx context.Context, workspaceID, id int64) error {
	if err := s.store.RevokeAPIKey(ctx, workspaceID, id); err != nil {
		return err
	}
	s.keysRevoked(ctx, []int64{id})
	return nil
}

// RevokeKeysCreatedBy revokes, for reason (one of the Revoked* reasons), every live key the
// user made in the workspace, or in every workspace when workspaceID is 0, and stops them
// like RevokeAPIKey does. It returns how many it revoked.
func (s *Service) RevokeKeysCreatedBy(ctx context.Context, userID, workspaceID int64, reason string) (int, error) {
	// Forgotten first: should the revocation fail, AuthenticateAPIKey still refuses a key
	// whose creator lost the right to it, once it reloads the key.
	s.forgetKeys(func(k *APIKey) bool {
		return k.CreatedBy != nil && *k.CreatedBy == userID && (workspaceID == 0 || k.WorkspaceID == workspaceID)
	})
	ids, err := s.store.RevokeKeysCreatedBy(ctx, userID, workspaceID, reason)
	if err != nil {
		return 0, err
	}
	s.keysRevoked(ctx, ids)
	if len(ids) > 0 {
		s.log.Info("revoked api keys with their creator's rights", "user", userID, "workspace", workspaceID,
			"reason", reason, "keys", len(ids))
	}
	return len(ids), nil
}

func (s *Service) forgetKeys(match func(*APIKey) bool) {
	for h, k := range s.keys.All() {
		if match(k) {
			s.keys.Invalidate(h)
		}
	}
}

var errBadKey = apperr.Errorf(apperr.Unauthorized, "the API key is invalid or revoked").For("api_key_invalid", "")

// AuthenticateAPIKey returns the live key behind a secret; unauthorized otherwise.
func (s *Service) AuthenticateAPIKey(ctx context.Context, secret string) (*APIKey, error) {
	if !auth.IsAPIKey(secret) {
		return nil, errBadKey
	}
	hash := auth.HashAPIKey(secret)
	ck := string(hash)
	k, ok := s.keys.GetIfPresent(ck)
	if !ok {
		var err error
		k, err = s.store.APIKeyByHash(ctx, hash)
		if apperr.Is(err, apperr.NotFound) {
			return nil, errBadKey
		}
		if err != nil {
			return nil, fmt.Errorf("authenticate api key: %w", err)
		}
		s.keys.Set(ck, k)
	}
	// A key stops with its creator's right to make it, even where the revocation that
	// followed a role change has not happened (a failure, or a key made during the change).
	if k.RevokedAt != nil || !KeyAllowedFor(k.CreatorRole, k.Scopes) {
		return nil, errBadKey
	}
	s.touch(k)
	return k, nil
}

// touch records a key's use at most once a minute, off the request path: a slow database
// delays nothing but the last-used column.
func (s *Service) touch(k *APIKey) {
	now := time.Now()
	s.mu.Lock()
	if last, seen := s.touched[k.ID]; seen && now.Sub(last) < touchEvery {
		s.mu.Unlock()
		return
	}
	if len(s.touched) >= 100_000 {
		// Forgetting only costs an extra write per key; the map must not grow without end.
		clear(s.touched)
	}
	s.touched[k.ID] = now
	s.mu.Unlock()
	wsID, id := k.WorkspaceID, k.ID
	s.pending.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := s.store.TouchAPIKey(ctx, wsID, id, now); err != nil {
			s.log.Warn("record api key use", "key", id, "err", err)
		}
	})
}
