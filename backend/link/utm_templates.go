package link

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shortlink/shortlink/backend/apperr"
)

// Limits of a workspace's UTM templates.
const (
	MaxUTMTemplates          = 100
	MaxUTMTemplateNameLength = 100
)

// UTMTemplate is a named set of UTM parameters a workspace applies to its links.
type UTMTemplate struct {
	ID          int64
	WorkspaceID int64
	Name        string
	UTM         UTM
	CreatedAt   time.Time
}

// UTMTemplateStore keeps the templates; every method takes the workspace.
type UTMTemplateStore interface {
	// Create adds t unless the workspace holds limit templates (quota_exceeded) or one of its
	// name (conflict), and sets its ID and CreatedAt.
	Create(ctx context.Context, t *UTMTemplate, limit int) error
	// List returns the workspace's templates by name.
	List(ctx context.Context, workspaceID int64) ([]*UTMTemplate, error)
	// Delete removes one, or answers not_found.
	Delete(ctx context.Context, workspaceID, id int64) error
}

// UTMTemplates manages workspaces' UTM templates.
type UTMTemplates struct{ store UTMTemplateStore }

// NewUTMTemplates returns the templates' service.
func NewUTMTemplates(store UTMTemplateStore) *UTMTemplates { return &UTMTemplates{store: store} }

// Create validates and adds a template.
func (s *UTMTemplates) Create(ctx context.Context, workspaceID int64, name string, u UTM) (*UTMTemplate, error) {
	name = strings.TrimSpace(name)
	switch {
	case name == "":
		return nil, apperr.Errorf(apperr.Invalid, "name is required").For("utm_template_name_required", "name")
	case utf8.RuneCountInString(name) > MaxUTMTemplateNameLength:
		return nil, apperr.Errorf(apperr.Invalid, "name is longer than %d characters", MaxUTMTemplateNameLength).For("utm_template_name_too_long", "name")
	case !utf8.ValidString(name) || strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return nil, apperr.Errorf(apperr.Invalid, "name holds characters that are not allowed").For("value_invalid", "name")
	}
	u.Trim()
	if err := u.Validate("utm"); err != nil {
		return nil, err
	}
	t := &UTMTemplate{WorkspaceID: workspaceID, Name: name, UTM: u}
	if err := s.store.Create(ctx, t, MaxUTMTemplates); err != nil {
		return nil, err
	}
	return t, nil
}

// List returns the workspace's templates.
func (s *UTMTemplates) List(ctx context.Context, workspaceID int64) ([]*UTMTemplate, error) {
	return s.store.List(ctx, workspaceID)
}

// Delete removes one of the workspace's templates.
func (s *UTMTemplates) Delete(ctx context.Context, workspaceID, id int64) error {
	return s.store.Delete(ctx, workspaceID, id)
}
