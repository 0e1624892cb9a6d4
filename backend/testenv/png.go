package testenv

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"
)

// DeepPNG is a w×h PNG of 16 bits a channel: a gradient in a disc on a transparent ground,
// small once compressed (a 2048×2048 one is about 50 kB), large once decoded (32 MiB): the
// worst a workspace's logo can be.
func DeepPNG(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA64(image.Rect(0, 0, w, h))
	r := min(w, h) / 2
	for y := range h {
		for x := range w {
			a := uint16(0xffff)
			if dx, dy := x-w/2, y-h/2; dx*dx+dy*dy > r*r {
				a = 0
			}
			img.SetNRGBA64(x, y, color.NRGBA64{R: uint16(x * 32), G: uint16(y * 32), B: 0x8000, A: a})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// PNG is a small real PNG image (4×3) of one grey shade; different shades give different bytes.
func PNG(t testing.TB, shade uint8) []byte {
	t.Helper()
	img := image.NewGray(image.Rect(0, 0, 4, 3))
	for i := range img.Pix {
		img.Pix[i] = shade
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// isPNGDataURL says whether u is a data URL of a PNG image that decodes.
func isPNGDataURL(u string) bool {
	b64, ok := strings.CutPrefix(u, "data:image/png;base64,")
	if !ok {
		return false
	}
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return false
	}
	_, err = png.Decode(bytes.NewReader(raw))
	return err == nil
}
