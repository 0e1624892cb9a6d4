// Workspaces: making, naming and reading them, a user's access, and the 2FA requirement.

package account

import (
	"context"
	"strings"
	"unicode/utf8"

	"github.com/shortlink/shortlink/backend/apperr"
)

// MaxOwnedWorkspaces bounds the workspaces one account owns: each may hold custom aliases that
// every node keeps in memory, and workspaces cost nothing to make.
const MaxOwnedWorkspaces = 20

// ValidateName trims a workspace or API-key name and checks it is 1 to 100 characters.
func ValidateName(name string) (string, error) {
	n := strings.TrimSpace(name)
	if n == "" || !utf8.ValidString(n) || strings.IndexByte(n, 0) >= 0 || utf8.RuneCountInString(n) > 100 {
		return "", apperr.Errorf(apperr.Invalid, "name must be 1 to 100 characters").For("name_invalid", "name")
	}
	return n, nil
}

// WorkspacesOf lists the user's workspaces with their role in each.
func (s *Service) WorkspacesOf(ctx context.Context, userID int64) ([]*Workspace, error) {
	return s.store.WorkspacesOf(ctx, userID)
}

// CreateWorkspace makes a new free workspace owned by the user.
func (s *Service) CreateWorkspace(ctx context.Context, userID int64, name string) (*Workspace, error) {
	n, err := ValidateName(name)
	if err != nil {
		return nil, err
	}
	return s.store.CreateWorkspace(ctx, userID, n, MaxOwnedWorkspaces)
}

// Workspace returns a workspace; callers have checked the caller may see it.
func (s *Service) Workspace(ctx context.Context, id int64) (*Workspace, error) {
	return s.store.Workspace(ctx, id)
}

// RenameWorkspace changes a workspace's name.
func (s *Service) RenameWorkspace(ctx context.Context, id int64, name string) (*Workspace, error) {
	n, err := ValidateName(name)
	if err != nil {
		return nil, err
	}
	return s.store.RenameWorkspace(ctx, id, n)
}

// Access is the user's role in the workspace and whether it requires a 2FA they lack.
func (s *Service) Access(ctx context.Context, workspaceID, userID int64) (Access, error) {
	return s.store.Access(ctx, workspaceID, userID)
}

// SetRequire2FA sets the workspace's 2FA requirement on behalf of a member with role, who has
// 2FA on or not (CheckRequire2FA); the plan is the caller's to check. Reports whether the
// setting changed.
func (s *Service) SetRequire2FA(ctx context.Context, id int64, role string, ownTwoFactor, on bool) (*Workspace, bool, error) {
	if err := CheckRequire2FA(role, ownTwoFactor, on); err != nil {
		return nil, false, err
	}
	return s.store.SetRequire2FA(ctx, id, on)
}
