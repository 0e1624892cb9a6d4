package qr_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/qr"
	"github.com/shortlink/shortlink/backend/testenv"
)

// deepLogo is a w×h PNG of 16 bits a channel (testenv.DeepPNG).
func deepLogo(t testing.TB, w, h int) []byte { return testenv.DeepPNG(t, w, h) }

// withSize rewrites a PNG's header to claim w×h pixels (its CRC made right): what a
// decompression bomb looks like to DecodeConfig.
func withSize(data []byte, w, h uint32) []byte {
	out := bytes.Clone(data)
	// 8 bytes of signature, 4 of length, then "IHDR", width and height.
	binary.BigEndian.PutUint32(out[16:], w)
	binary.BigEndian.PutUint32(out[20:], h)
	binary.BigEndian.PutUint32(out[29:], crc32.ChecksumIEEE(out[12:29]))
	return out
}

// TestNormalizeLogo: an upload is stored at 8 bits a channel and at most LogoMaxSide a side,
// its aspect ratio and transparency kept; a small 8-bit logo keeps its pixels.
func TestNormalizeLogo(t *testing.T) {
	for _, c := range []struct {
		name       string
		data       []byte
		wantW, wan int
	}{
		{"2048×2048 at 16 bits", deepLogo(t, 2048, 2048), qr.LogoMaxSide, qr.LogoMaxSide},
		{"2048×1024 at 16 bits", deepLogo(t, 2048, 1024), qr.LogoMaxSide, qr.LogoMaxSide / 2},
		{"300×900 at 16 bits", deepLogo(t, 300, 900), qr.LogoMaxSide / 3, qr.LogoMaxSide},
		{"90×60 at 16 bits", deepLogo(t, 90, 60), 90, 60},
		{"90×60 at 8 bits", testLogo(t, 90, 60), 90, 60},
	} {
		if qr.IsNormal(c.data) != (c.wantW == 90 && c.name == "90×60 at 8 bits") {
			t.Errorf("%s: IsNormal before = %v", c.name, qr.IsNormal(c.data))
		}
		out, err := qr.NormalizeLogo(c.data)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !qr.IsNormal(out) {
			t.Errorf("%s: not normal after", c.name)
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(out))
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Width != c.wantW || cfg.Height != c.wan {
			t.Errorf("%s: %d×%d, want %d×%d", c.name, cfg.Width, cfg.Height, c.wantW, c.wan)
		}
		if cfg.ColorModel != color.NRGBAModel && cfg.ColorModel != color.RGBAModel {
			t.Errorf("%s: colour model %v, want 8-bit RGBA", c.name, cfg.ColorModel)
		}
		pic, err := png.Decode(bytes.NewReader(out))
		if err != nil {
			t.Fatal(err)
		}
		// The corners are outside the disc of the deep logos: transparent still.
		if _, _, _, a := pic.At(0, 0).RGBA(); c.name != "90×60 at 8 bits" && a != 0 {
			t.Errorf("%s: corner alpha %d, want 0", c.name, a)
		}
		// The middle is opaque and of the gradient's colour there (blue 0x80).
		mid := color.NRGBAModel.Convert(pic.At(cfg.Width/2, cfg.Height/2)).(color.NRGBA)
		if c.name != "90×60 at 8 bits" && (mid.A != 0xff || mid.B < 0x7f || mid.B > 0x81) {
			t.Errorf("%s: middle %v", c.name, mid)
		}
	}
	// An 8-bit logo within the bound keeps its pixels.
	in := testLogo(t, 40, 30)
	out, err := qr.NormalizeLogo(in)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := png.Decode(bytes.NewReader(in))
	b, _ := png.Decode(bytes.NewReader(out))
	for y := range 30 {
		for x := range 40 {
			if color.NRGBAModel.Convert(a.At(x, y)) != color.NRGBAModel.Convert(b.At(x, y)) {
				t.Fatalf("pixel (%d, %d): %v, was %v", x, y, b.At(x, y), a.At(x, y))
			}
		}
	}
}

// TestCheckLogoDimensions: dimensions are read from the header before anything is decoded;
// past MaxLogoPixels a side the logo is refused as logo_dimensions, however small its file.
func TestCheckLogoDimensions(t *testing.T) {
	var big bytes.Buffer
	if err := png.Encode(&big, image.NewGray(image.Rect(0, 0, 4096, 4096))); err != nil {
		t.Fatal(err)
	}
	small := testLogo(t, 8, 8)
	for name, data := range map[string][]byte{
		"4096×4096":        big.Bytes(),
		"2049×10":          withSize(small, 2049, 10),
		"claims 100k×100k": withSize(small, 100_000, 100_000),
	} {
		if err := qr.CheckLogo(data); apperr.ReasonOf(err) != "logo_dimensions" || !apperr.Is(err, apperr.Invalid) {
			t.Errorf("%s: %v, want invalid logo_dimensions", name, err)
		}
		if _, err := qr.NormalizeLogo(data); apperr.ReasonOf(err) != "logo_dimensions" {
			t.Errorf("%s: NormalizeLogo %v, want logo_dimensions", name, err)
		}
	}
	if err := qr.CheckLogo(deepLogo(t, 2048, 2048)); err != nil {
		t.Errorf("2048×2048: %v", err)
	}
}

// TestDrawStopsWithItsContext: a drawing whose context has ended stops with its error.
func TestDrawStopsWithItsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	black, _ := qr.ParseColor("000000", "fg")
	white, _ := qr.ParseColor("ffffff", "bg")
	_, err := qr.DrawStyled(ctx, short, qr.Style{Format: qr.PNG, Size: qr.MaxSize, FG: black, BG: white, Logo: testLogo(t, 40, 40)})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("drawn with an ended context: %v", err)
	}
}

// TestSlots: a slot is taken at once when one is free, waited for up to the bound, and refused
// past it as unavailable with a Retry-After; a caller that gives up gets its context's error.
func TestSlots(t *testing.T) {
	ctx := t.Context()
	s := qr.NewSlots(1, 0)
	release, err := s.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Acquire(ctx)
	var busy *qr.BusyError
	if !errors.As(err, &busy) || !apperr.Is(err, apperr.Unavailable) || apperr.ReasonOf(err) != "qr_busy" || busy.RetrySeconds() != "1" {
		t.Fatalf("second caller: %v, want unavailable qr_busy, retry in 1s", err)
	}
	ended, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.Acquire(ended); !errors.Is(err, context.Canceled) {
		t.Errorf("caller gone: %v", err)
	}
	release()
	release, err = s.Acquire(ctx)
	if err != nil {
		t.Fatalf("after release: %v", err)
	}

	// A waiting caller gets the slot given back while it waits.
	w := qr.NewSlots(1, time.Hour)
	first, _ := w.Acquire(ctx)
	got := make(chan error, 1)
	go func() {
		r, err := w.Acquire(ctx)
		if err == nil {
			r()
		}
		got <- err
	}()
	first()
	if err := <-got; err != nil {
		t.Errorf("waiting caller: %v", err)
	}
	release()
}
