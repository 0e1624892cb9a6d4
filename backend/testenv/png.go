package testenv

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"strings"
	"testing"
)

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
