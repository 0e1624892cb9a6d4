// Editing and deleting one link.

package link

import (
	"context"
	"fmt"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/tag"
)

// Update applies p to one of the workspace's links; every node sees the change within a second.
func (s *Service) Update(ctx context.Context, workspaceID, id int64, p Patch) (*Link, error) {
	if p.URL.Set {
		target, err := s.normalizeTarget(p.URL.Value)
		if err != nil {
			return nil, err
		}
		p.URL.Value = target
	}
	title, status := "", 302
	if p.Title.Set {
		title = p.Title.Value
	}
	if p.RedirectStatus.Set {
		if p.RedirectStatus.Value == 0 {
			return nil, apperr.Errorf(apperr.Invalid, "redirect_status must be 301, 302 or 307").For("value_invalid", "redirect_status")
		}
		status = p.RedirectStatus.Value
	}
	if err := s.validateFields(title, &status, p.ExpiresAt.Value); err != nil {
		return nil, err
	}
	if p.Status.Set && p.Status.Value != StatusActive && p.Status.Value != StatusDisabled {
		return nil, apperr.Errorf(apperr.Invalid, "status must be active or disabled").For("value_invalid", "status")
	}
	if p.UTM.Set && p.UTM.Value != nil {
		p.UTM.Value.Trim()
		if err := p.UTM.Value.Validate("utm"); err != nil {
			return nil, err
		}
	}
	if p.QR.Set {
		look, err := qrLook(p.QR.Value)
		if err != nil {
			return nil, err
		}
		p.QR.Value = look
	}
	if err := p.RuleFields.Validate(s.ruleCheck); err != nil {
		return nil, err
	}
	fields := p.RuleFields.Setting()
	if p.URL.Set {
		fields = append(fields, "url")
	}
	if err := s.checkPlan(ctx, workspaceID, fields, true); err != nil {
		return nil, err
	}
	if p.Tags.Set {
		names, err := tag.Names(p.Tags.Value, "tags")
		if err != nil {
			return nil, err
		}
		p.TagIDs = []int64{}
		if len(names) > 0 {
			if s.tags == nil {
				return nil, fmt.Errorf("edit link: no tag service configured")
			}
			// No tags are made for a link that is not the workspace's.
			if _, err := s.store.Get(ctx, workspaceID, id); err != nil {
				return nil, err
			}
			tags, err := s.tags.Ensure(ctx, workspaceID, names)
			if err != nil {
				return nil, err
			}
			for _, t := range tags {
				p.TagIDs = append(p.TagIDs, t.ID)
			}
		}
	}
	hash, err := s.hashPassword(ctx, &p.RuleFields)
	if err != nil {
		return nil, err
	}
	p.Rules = p.RuleFields.Edit(hash)
	l, err := s.store.Update(ctx, workspaceID, id, p)
	if err != nil {
		return nil, err
	}
	s.cache.Changed(ctx, l)
	return s.Decorate(l), nil
}

// Delete removes one of the workspace's links; its short URL answers 404 everywhere.
func (s *Service) Delete(ctx context.Context, workspaceID, id int64) error {
	l, err := s.store.Delete(ctx, workspaceID, id)
	if err != nil {
		return err
	}
	s.cache.Removed(ctx, l)
	return nil
}
