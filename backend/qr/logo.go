package qr

import (
	"bytes"
	"context"
	"image/png"

	"github.com/shortlink/shortlink/backend/apperr"
)

// MaxLogoBytes bounds a workspace's logo.
const MaxLogoBytes = 100 << 10

// MaxLogoPixels bounds a logo's width and height, so that decoding one costs little.
const MaxLogoPixels = 2048

// LogoStore keeps one logo (a PNG) per workspace.
type LogoStore interface {
	// Get returns the workspace's logo, or a logo_missing not_found error.
	Get(ctx context.Context, workspaceID int64) ([]byte, error)
	Put(ctx context.Context, workspaceID int64, png []byte) error
	// Delete removes it; no logo is not an error.
	Delete(ctx context.Context, workspaceID int64) error
}

// Logos manages workspaces' logos. Only PNG is taken: an SVG logo would have to be drawn
// inside SVG codes (a script vector) or rasterised by a renderer this service does not carry.
type Logos struct{ store LogoStore }

// NewLogos returns the logos' service.
func NewLogos(store LogoStore) *Logos { return &Logos{store: store} }

// CheckLogo accepts a PNG of at most MaxLogoBytes and MaxLogoPixels a side.
func CheckLogo(data []byte) error {
	if len(data) > MaxLogoBytes {
		return apperr.Errorf(apperr.TooLarge, "the logo is over %d kB", MaxLogoBytes>>10).For("logo_too_large", "file")
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return apperr.Errorf(apperr.Invalid, "the logo must be a PNG image (SVG is not taken: it could carry scripts)").For("logo_invalid", "file")
	}
	if cfg.Width < 1 || cfg.Height < 1 || cfg.Width > MaxLogoPixels || cfg.Height > MaxLogoPixels {
		return apperr.Errorf(apperr.Invalid, "the logo must be 1 to %d pixels a side", MaxLogoPixels).For("logo_invalid", "file")
	}
	if _, err := png.Decode(bytes.NewReader(data)); err != nil {
		return apperr.Errorf(apperr.Invalid, "the logo is not a readable PNG image").For("logo_invalid", "file")
	}
	return nil
}

// Put replaces the workspace's logo.
func (s *Logos) Put(ctx context.Context, workspaceID int64, data []byte) error {
	if err := CheckLogo(data); err != nil {
		return err
	}
	return s.store.Put(ctx, workspaceID, data)
}

// Get returns the workspace's logo.
func (s *Logos) Get(ctx context.Context, workspaceID int64) ([]byte, error) {
	return s.store.Get(ctx, workspaceID)
}

// Delete removes the workspace's logo.
func (s *Logos) Delete(ctx context.Context, workspaceID int64) error {
	return s.store.Delete(ctx, workspaceID)
}
