package qr

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"strconv"

	"golang.org/x/sync/singleflight"

	"github.com/shortlink/shortlink/backend/apperr"
)

// MaxLogoBytes bounds an uploaded logo.
const MaxLogoBytes = 100 << 10

// MaxLogoPixels bounds an uploaded logo's width and height, read from its header before any
// decoding: decoding the largest one taken (2048×2048 at 16 bits a channel) holds 32 MiB.
const MaxLogoPixels = 2048

// LogoMaxSide is the largest side a stored logo keeps. No code draws a logo larger: its box is
// px·(n−8)·LogoShare pixels a side for n modules of px pixels, and px·n ≤ MaxSize, so the box
// is under MaxSize·LogoShare = 450.56 pixels at every size (the largest drawn is 428, version 40
// at 2048 pixels: TestLogoBoxWithinMaxSide). Uploads are scaled down to it once, so drawing a
// code never decodes more than 450×450 pixels of logo (docs/api.md, What a code costs).
const LogoMaxSide = 450

// Logo is a workspace's logo as stored: an 8-bit PNG of at most LogoMaxSide a side (once
// normalised), and its version, which changes whenever the logo is replaced.
type Logo struct {
	Data    []byte
	Version int64
}

// LogoStore keeps one logo (a PNG) per workspace.
type LogoStore interface {
	// Get returns the workspace's logo, or a logo_missing not_found error.
	Get(ctx context.Context, workspaceID int64) (Logo, error)
	// Version returns the version of the workspace's logo, or a logo_missing not_found error.
	Version(ctx context.Context, workspaceID int64) (int64, error)
	// Put stores a new logo: a new version.
	Put(ctx context.Context, workspaceID int64, png []byte) error
	// Replace swaps the data of the logo of that version, keeping the version: the same
	// picture, normalised. A logo replaced meanwhile is left alone; that is not an error.
	Replace(ctx context.Context, workspaceID, version int64, png []byte) error
	// Delete removes it; no logo is not an error.
	Delete(ctx context.Context, workspaceID int64) error
}

// Logos manages workspaces' logos. Only PNG is taken: an SVG logo would have to be drawn
// inside SVG codes (a script vector) or rasterised by a renderer this service does not carry.
// A logo is normalised when it is uploaded (NormalizeLogo); one stored before that was done is
// normalised the first time it is read, once per workspace however many read it at once.
type Logos struct {
	store LogoStore
	slots *Slots
	// fixing normalises each old logo once at a time, by workspace and version.
	fixing singleflight.Group
}

// NewLogos returns the logos' service; decoding a logo takes one of slots.
func NewLogos(store LogoStore, slots *Slots) *Logos { return &Logos{store: store, slots: slots} }

// CheckLogo accepts a PNG of at most MaxLogoBytes and MaxLogoPixels a side, reading only its
// header: an image that claims absurd dimensions is refused before any of it is decoded.
func CheckLogo(data []byte) error {
	_, err := logoConfig(data)
	return err
}

func logoConfig(data []byte) (image.Config, error) {
	if len(data) > MaxLogoBytes {
		return image.Config{}, apperr.Errorf(apperr.TooLarge, "the logo is over %d kB", MaxLogoBytes>>10).For("logo_too_large", "file")
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil || cfg.Width < 1 || cfg.Height < 1 {
		return image.Config{}, apperr.Errorf(apperr.Invalid, "the logo must be a PNG image (SVG is not taken: it could carry scripts)").For("logo_invalid", "file")
	}
	if cfg.Width > MaxLogoPixels || cfg.Height > MaxLogoPixels {
		return image.Config{}, apperr.Errorf(apperr.Invalid, "the logo is %d×%d pixels: at most %d pixels a side is taken",
			cfg.Width, cfg.Height, MaxLogoPixels).For("logo_dimensions", "file")
	}
	return cfg, nil
}

// NormalizeLogo decodes a logo that CheckLogo accepts and returns it as an 8-bit PNG
// (non-premultiplied RGBA) of at most LogoMaxSide a side, its aspect ratio kept, scaled down
// by averaging the pixels each one covers. Ancillary chunks (text, colour profiles) are not
// kept.
func NormalizeLogo(data []byte) ([]byte, error) {
	if _, err := logoConfig(data); err != nil {
		return nil, err
	}
	src, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, apperr.Errorf(apperr.Invalid, "the logo is not a readable PNG image").For("logo_invalid", "file")
	}
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	dw, dh := w, h
	if w > LogoMaxSide || h > LogoMaxSide {
		if w >= h {
			dw, dh = LogoMaxSide, max(1, h*LogoMaxSide/w)
		} else {
			dw, dh = max(1, w*LogoMaxSide/h), LogoMaxSide
		}
	}
	dst := image.NewNRGBA(image.Rect(0, 0, dw, dh))
	shrink(dst, src)
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, dst); err != nil {
		return nil, fmt.Errorf("qr: encode logo: %w", err)
	}
	return buf.Bytes(), nil
}

// shrink fills dst with src scaled to dst's size: each pixel of dst is the mean of the source
// pixels it covers, weighted by their opacity (premultiplied), so transparent pixels lend no
// colour to their neighbours.
func shrink(dst *image.NRGBA, src image.Image) {
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	dw, dh := dst.Rect.Dx(), dst.Rect.Dy()
	at := func(x, y int) color.RGBA64 {
		r, g, bl, a := src.At(x, y).RGBA()
		return color.RGBA64{R: uint16(r), G: uint16(g), B: uint16(bl), A: uint16(a)}
	}
	if fast, ok := src.(image.RGBA64Image); ok {
		at = fast.RGBA64At
	}
	for y := range dh {
		y0, y1 := b.Min.Y+y*h/dh, b.Min.Y+max((y+1)*h/dh, y*h/dh+1)
		for x := range dw {
			x0, x1 := b.Min.X+x*w/dw, b.Min.X+max((x+1)*w/dw, x*w/dw+1)
			var r, g, bl, a uint64
			for sy := y0; sy < y1; sy++ {
				for sx := x0; sx < x1; sx++ {
					c := at(sx, sy)
					r, g, bl, a = r+uint64(c.R), g+uint64(c.G), bl+uint64(c.B), a+uint64(c.A)
				}
			}
			i := dst.PixOffset(x, y)
			if a == 0 {
				continue // transparent: NewNRGBA's zeroes
			}
			n := uint64((y1 - y0) * (x1 - x0))
			// Un-premultiply: the colour is the mean colour of the opaque part.
			dst.Pix[i] = uint8((r*0xff + a/2) / a)
			dst.Pix[i+1] = uint8((g*0xff + a/2) / a)
			dst.Pix[i+2] = uint8((bl*0xff + a/2) / a)
			dst.Pix[i+3] = uint8((a/n + 0x80) / 0x101)
		}
	}
}

// IsNormal reports whether a stored logo is as NormalizeLogo leaves one: a PNG of 8 bits a
// channel and at most LogoMaxSide a side. Only its header is read.
func IsNormal(data []byte) bool {
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil || cfg.Width > LogoMaxSide || cfg.Height > LogoMaxSide {
		return false
	}
	switch cfg.ColorModel {
	case color.RGBA64Model, color.NRGBA64Model, color.Gray16Model:
		return false
	}
	return true
}

// Put replaces the workspace's logo with the upload, normalised. Returns invalid
// (logo_invalid, logo_dimensions) or too_large (logo_too_large) for an upload refused, and
// unavailable (a *BusyError) when no image slot freed up in time.
func (s *Logos) Put(ctx context.Context, workspaceID int64, data []byte) error {
	if err := CheckLogo(data); err != nil {
		return err
	}
	release, err := s.slots.Acquire(ctx)
	if err != nil {
		return err
	}
	norm, err := NormalizeLogo(data)
	release()
	if err != nil {
		return err
	}
	return s.store.Put(ctx, workspaceID, norm)
}

// Get returns the workspace's logo, normalising it first if it was stored before uploads were
// (and saving it so, for every later read). Returns not_found (logo_missing) without one.
func (s *Logos) Get(ctx context.Context, workspaceID int64) (Logo, error) {
	l, err := s.store.Get(ctx, workspaceID)
	if err != nil || IsNormal(l.Data) {
		return l, err
	}
	key := strconv.FormatInt(workspaceID, 10) + "/" + strconv.FormatInt(l.Version, 10)
	return shared(ctx, &s.fixing, key, func(ctx context.Context) (Logo, error) {
		release, err := s.slots.Acquire(ctx)
		if err != nil {
			return Logo{}, err
		}
		norm, err := NormalizeLogo(l.Data)
		release()
		if err != nil {
			return Logo{}, apperr.Errorf(apperr.Invalid, "the workspace's logo cannot be read: upload it again").For("logo_invalid", "logo")
		}
		if err := s.store.Replace(ctx, workspaceID, l.Version, norm); err != nil {
			return Logo{}, err
		}
		return Logo{Data: norm, Version: l.Version}, nil
	})
}

// Version returns the version of the workspace's logo, or not_found (logo_missing).
func (s *Logos) Version(ctx context.Context, workspaceID int64) (int64, error) {
	return s.store.Version(ctx, workspaceID)
}

// Delete removes the workspace's logo.
func (s *Logos) Delete(ctx context.Context, workspaceID int64) error {
	return s.store.Delete(ctx, workspaceID)
}

// shared runs fn once for every caller of key at the same time, each waiting at most until
// its own ctx ends. fn runs under the first caller's context; should that caller go away and
// fn fail for it, a caller still waiting runs fn again under its own.
func shared[T any](ctx context.Context, g *singleflight.Group, key string, fn func(context.Context) (T, error)) (T, error) {
	for {
		ch := g.DoChan(key, func() (any, error) { return fn(ctx) })
		select {
		case <-ctx.Done():
			var zero T
			return zero, fmt.Errorf("qr: %w", ctx.Err())
		case res := <-ch:
			if res.Err != nil {
				if isContextErr(res.Err) && ctx.Err() == nil {
					continue // the first caller went away; this one has not
				}
				var zero T
				return zero, res.Err
			}
			return res.Val.(T), nil
		}
	}
}

func isContextErr(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}
