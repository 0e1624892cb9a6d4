// Package tag holds a workspace's tags (docs/api.md#tags): the rules of their names and colours, and
// the Service that creates, renames, recolours and deletes them and finds them by name for the
// links that carry them. It knows nothing of HTTP or SQL.
package tag

import (
	"context"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/shortlink/shortlink/backend/apperr"
)

// Limits of tags.
const (
	// MaxNameLength bounds a tag's name, in characters.
	MaxNameLength = 50
	// MaxPerLink is the most tags one link carries.
	MaxPerLink = 20
	// MaxPerWorkspace is the most tags a workspace has, whatever its plan.
	MaxPerWorkspace = 1000
)

// Palette is the colours a tag is given when none is asked for: one picked by its name, so
// that a name always gets the same one.
var Palette = []string{"#3b82f6", "#10b981", "#f59e0b", "#ef4444", "#8b5cf6", "#ec4899", "#14b8a6", "#f97316", "#6366f1", "#84cc16"}

// Tag is a label of a workspace's links.
type Tag struct {
	ID          int64     `json:"id"`
	WorkspaceID int64     `json:"-"`
	Name        string    `json:"name"`
	Color       string    `json:"color"` // #rrggbb, lower case
	CreatedAt   time.Time `json:"created_at"`
	// LinkCount is how many links carry the tag, archived ones included: in listings only.
	LinkCount *int64 `json:"link_count,omitempty"`
}

// Input is what a client sends to create a tag.
type Input struct {
	Name  string `json:"name"`
	Color string `json:"color,omitempty"`
}

// Patch is what a client changes of a tag; nil fields stay as they are.
type Patch struct {
	Name  *string `json:"name"`
	Color *string `json:"color"`
}

// Fold is the form of a name that two names share when they are one tag: lower case.
func Fold(name string) string { return strings.ToLower(name) }

// Name checks a tag's name and returns it trimmed of surrounding spaces: 1 to MaxNameLength
// characters of valid text, no control characters, no ; or , (they separate tags in CSV
// files).
func Name(raw string) (string, error) {
	name := strings.TrimFunc(raw, unicode.IsSpace)
	n := utf8.RuneCountInString(name)
	if n == 0 || n > MaxNameLength || !utf8.ValidString(name) ||
		strings.ContainsFunc(name, func(r rune) bool { return unicode.IsControl(r) || r == ';' || r == ',' }) {
		return "", apperr.Errorf(apperr.Invalid, "a tag name must be 1 to %d characters without control characters, ; or ,", MaxNameLength).For("tag_name_invalid", "name")
	}
	return name, nil
}

// Names checks the tag names of one link (field names the field they came in) and returns them
// trimmed, each once whatever its case (the first spelling kept), in the order given: at most
// MaxPerLink of them.
func Names(raw []string, field string) ([]string, error) {
	out := make([]string, 0, len(raw))
	seen := make(map[string]bool, len(raw))
	for _, r := range raw {
		name, err := Name(r)
		if err != nil {
			return nil, apperr.Errorf(apperr.Invalid, "%s: %q: %s", field, truncate(r, 60), apperr.MessageOf(err)).For("tag_name_invalid", field)
		}
		if f := Fold(name); !seen[f] {
			seen[f] = true
			out = append(out, name)
		}
	}
	if len(out) > MaxPerLink {
		return nil, apperr.Errorf(apperr.Invalid, "a link carries at most %d tags", MaxPerLink).For("tags_too_many", field)
	}
	return out, nil
}

// Sort orders tag names as links answer them: by folded name, bytewise, then as written.
func Sort(names []string) {
	slices.SortFunc(names, func(a, b string) int {
		if c := strings.Compare(Fold(a), Fold(b)); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
}

// Color checks a colour, #rrggbb in either case, and returns it in lower case; "" picks the
// palette's colour of name.
func Color(raw, name string) (string, error) {
	if raw == "" {
		h := fnv.New32a()
		_, _ = h.Write([]byte(Fold(name)))
		return Palette[h.Sum32()%uint32(len(Palette))], nil
	}
	if len(raw) != 7 || raw[0] != '#' || strings.IndexFunc(raw[1:], func(r rune) bool {
		return !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F')
	}) >= 0 {
		return "", apperr.Errorf(apperr.Invalid, "color must be #RRGGBB, such as #3b82f6").For("tag_color_invalid", "color")
	}
	return strings.ToLower(raw), nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// Store keeps tags; every method takes the workspace.
type Store interface {
	// Create inserts t; conflict (tag_exists) when the workspace has a tag of that folded
	// name, quota_exceeded when it has max tags already.
	Create(ctx context.Context, t *Tag, max int) (*Tag, error)
	// List returns the workspace's tags by folded name.
	List(ctx context.Context, workspaceID int64) ([]Tag, error)
	// Update sets the tag's name (when name is not "") and colour (when color is not "");
	// not_found when it is not the workspace's, conflict when another tag has the name.
	Update(ctx context.Context, workspaceID, id int64, name, color string) (*Tag, error)
	// Delete removes the tag from the workspace and from every link; not_found when it is
	// not the workspace's.
	Delete(ctx context.Context, workspaceID, id int64) error
	// Ensure returns the workspace's tags of the names given (valid, each once), creating
	// with the colours given those it lacks, in no particular order; quota_exceeded when the
	// new ones would take the workspace past max tags.
	Ensure(ctx context.Context, workspaceID int64, names, colors []string, max int) ([]Tag, error)
	// Find returns the workspace's tags whose folded names are among folded.
	Find(ctx context.Context, workspaceID int64, folded []string) ([]Tag, error)
}

// Service manages the workspaces' tags.
type Service struct {
	store Store
}

// NewService returns the tag service.
func NewService(store Store) *Service { return &Service{store: store} }

// Create makes a tag; conflict when the workspace has one of that name in any case.
func (s *Service) Create(ctx context.Context, workspaceID int64, in Input) (*Tag, error) {
	name, err := Name(in.Name)
	if err != nil {
		return nil, err
	}
	color, err := Color(in.Color, name)
	if err != nil {
		return nil, err
	}
	return s.store.Create(ctx, &Tag{WorkspaceID: workspaceID, Name: name, Color: color}, MaxPerWorkspace)
}

// List returns the workspace's tags by name.
func (s *Service) List(ctx context.Context, workspaceID int64) ([]Tag, error) {
	return s.store.List(ctx, workspaceID)
}

// Update renames or recolours a tag; its links show the new name at once.
func (s *Service) Update(ctx context.Context, workspaceID, id int64, p Patch) (*Tag, error) {
	var name, color string
	var err error
	if p.Name != nil {
		if name, err = Name(*p.Name); err != nil {
			return nil, err
		}
	}
	if p.Color != nil {
		if *p.Color == "" {
			return nil, apperr.Errorf(apperr.Invalid, "color must be #RRGGBB, such as #3b82f6").For("tag_color_invalid", "color")
		}
		if color, err = Color(*p.Color, ""); err != nil {
			return nil, err
		}
	}
	return s.store.Update(ctx, workspaceID, id, name, color)
}

// Delete removes a tag from the workspace and from its links.
func (s *Service) Delete(ctx context.Context, workspaceID, id int64) error {
	return s.store.Delete(ctx, workspaceID, id)
}

// Ensure returns the workspace's spelling of each of names (valid, each once: see Names),
// creating the tags it lacks with the palette's colours.
func (s *Service) Ensure(ctx context.Context, workspaceID int64, names []string) ([]Tag, error) {
	if len(names) == 0 {
		return nil, nil
	}
	colors := make([]string, len(names))
	for i, n := range names {
		colors[i], _ = Color("", n)
	}
	tags, err := s.store.Ensure(ctx, workspaceID, names, colors, MaxPerWorkspace)
	if err != nil {
		return nil, fmt.Errorf("ensure tags: %w", err)
	}
	return tags, nil
}

// Find returns the workspace's tags named names, in any case; names it has no tag of are left
// out.
func (s *Service) Find(ctx context.Context, workspaceID int64, names []string) ([]Tag, error) {
	if len(names) == 0 {
		return nil, nil
	}
	folded := make([]string, len(names))
	for i, n := range names {
		folded[i] = Fold(strings.TrimFunc(n, unicode.IsSpace))
	}
	return s.store.Find(ctx, workspaceID, folded)
}
