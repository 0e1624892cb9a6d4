package domain

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/plan"
)

// MaxAppLinkBytes bounds each app-link file.
const MaxAppLinkBytes = 64 << 10

// AppLinks are the files a verified domain serves for deep links: Apple's
// apple-app-site-association (a JSON object) and Android's assetlinks.json (a JSON array of
// statements). Each is nil when not set; they are stored and served as compact JSON.
type AppLinks struct {
	AppleAppSiteAssociation json.RawMessage `json:"apple_app_site_association"`
	AssetLinks              json.RawMessage `json:"assetlinks"`
}

// Well-known paths the files are served at.
const (
	AASAPath       = "/.well-known/apple-app-site-association"
	AssetLinksPath = "/.well-known/assetlinks.json"
)

// Validate checks both files' shapes and sizes and compacts them; a JSON null is "not set".
func (a *AppLinks) Validate() error {
	var err error
	if a.AppleAppSiteAssociation, err = checkAASA(a.AppleAppSiteAssociation); err != nil {
		return err
	}
	a.AssetLinks, err = checkAssetLinks(a.AssetLinks)
	return err
}

func compact(raw json.RawMessage, field string) (json.RawMessage, error) {
	if len(raw) > MaxAppLinkBytes {
		return nil, apperr.Errorf(apperr.TooLarge, "%s is over %d kB", field, MaxAppLinkBytes>>10).For("app_links_too_large", field)
	}
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return nil, nil
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return nil, invalidAppLinks(field, "is not JSON")
	}
	return b.Bytes(), nil
}

func invalidAppLinks(field, why string) error {
	return apperr.Errorf(apperr.Invalid, "%s %s", field, why).For("app_links_invalid", field)
}

// checkAASA: an object with at least one of applinks, webcredentials, appclips or activitycontinuation,
// each an object; applinks, when given, has details (an array) or is the newer components form.
func checkAASA(raw json.RawMessage) (json.RawMessage, error) {
	const field = "apple_app_site_association"
	raw, err := compact(raw, field)
	if raw == nil || err != nil {
		return raw, err
	}
	var doc map[string]json.RawMessage
	if json.Unmarshal(raw, &doc) != nil {
		return nil, invalidAppLinks(field, "must be a JSON object")
	}
	known := 0
	for _, k := range []string{"applinks", "webcredentials", "appclips", "activitycontinuation"} {
		v, ok := doc[k]
		if !ok {
			continue
		}
		known++
		var obj map[string]json.RawMessage
		if json.Unmarshal(v, &obj) != nil || obj == nil {
			return nil, invalidAppLinks(field, "must hold "+k+" as an object")
		}
		if k == "applinks" {
			if d, ok := obj["details"]; ok {
				var arr []json.RawMessage
				if json.Unmarshal(d, &arr) != nil {
					return nil, invalidAppLinks(field, "must hold applinks.details as an array")
				}
			}
		}
	}
	if known == 0 {
		return nil, invalidAppLinks(field, "must hold applinks, webcredentials, appclips or activitycontinuation")
	}
	return raw, nil
}

// checkAssetLinks: an array of statements, each with relation (an array of strings) and target
// (an object with namespace).
func checkAssetLinks(raw json.RawMessage) (json.RawMessage, error) {
	const field = "assetlinks"
	raw, err := compact(raw, field)
	if raw == nil || err != nil {
		return raw, err
	}
	var stmts []struct {
		Relation []string                   `json:"relation"`
		Target   map[string]json.RawMessage `json:"target"`
	}
	if json.Unmarshal(raw, &stmts) != nil {
		return nil, invalidAppLinks(field, "must be an array of statements, each with relation (strings) and target (an object)")
	}
	for _, s := range stmts {
		if len(s.Relation) == 0 || s.Target == nil || s.Target["namespace"] == nil {
			return nil, invalidAppLinks(field, "statements need relation and a target with namespace")
		}
	}
	return raw, nil
}

// GetAppLinks returns one of the workspace's domains' app-link files.
func (s *Service) GetAppLinks(ctx context.Context, workspaceID, id int64) (*AppLinks, error) {
	if _, err := s.store.Get(ctx, workspaceID, id); err != nil {
		return nil, err
	}
	return s.store.AppLinks(ctx, workspaceID, id)
}

// SetAppLinks replaces the files of one of the workspace's verified domains (both nil clears
// them); every node serves them within a second.
func (s *Service) SetAppLinks(ctx context.Context, workspaceID, id int64, a AppLinks) (*AppLinks, error) {
	d, err := s.store.Get(ctx, workspaceID, id)
	if err != nil {
		return nil, err
	}
	if !d.Verified() {
		return nil, apperr.Errorf(apperr.Conflict, "verify the domain before giving it app links").For("domain_unverified", "")
	}
	if err := a.Validate(); err != nil {
		return nil, err
	}
	if a.AppleAppSiteAssociation != nil || a.AssetLinks != nil {
		// Clearing the files is allowed on every plan; setting them needs custom domains.
		if err := s.plans.Require(ctx, workspaceID, plan.CustomDomains); err != nil {
			return nil, err
		}
	}
	if err := s.store.SetAppLinks(ctx, workspaceID, id, a); err != nil {
		return nil, err
	}
	s.changed(ctx, id)
	return &a, nil
}
