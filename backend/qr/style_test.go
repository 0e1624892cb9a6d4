package qr_test

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"testing"

	"github.com/makiuchi-d/gozxing"
	zxqr "github.com/makiuchi-d/gozxing/qrcode"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/qr"
)

// testLogo is a busy PNG: stripes of dark and light, the worst a logo can do to a scanner.
func testLogo(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := color.NRGBA{R: uint8(x * 7), G: 20, B: uint8(y * 5), A: 255}
			if (x/3+y/3)%2 == 0 {
				c = color.NRGBA{R: 250, G: 250, B: 250, A: 128}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// sizes stand for every size the API allows for a code of n modules: a drawing depends on the
// size only through the pixels of a module (size/n) and the margin left over, so the smallest
// and largest size of each module width cover them all. Short runs stop at 6 pixels a module.
func sizes(n int) []int {
	var out []int
	for px := 1; px*n <= qr.MaxSize; px++ {
		if testing.Short() && px > 6 {
			break
		}
		lo, hi := max(px*n, qr.MinSize), min((px+1)*n-1, qr.MaxSize)
		if lo <= hi {
			out = append(out, lo)
		}
		if hi > lo {
			out = append(out, hi)
		}
	}
	return out
}

// TestStyledDecodes: a styled code decodes to its text at every size the API allows (sizes), at
// every level, with and without the logo, in dark-on-light colours.
func TestStyledDecodes(t *testing.T) {
	logo := testLogo(t, 90, 60)
	fg, _ := qr.ParseColor("1a3c6e", "fg")
	bg, _ := qr.ParseColor("fdf6e3", "bg")
	// A custom domain's short URL with an alias: longer than a generated one.
	long := "https://go.example.com/spring-sale-2026"
	for _, ec := range []string{"L", "M", "Q", "H"} {
		for _, withLogo := range []bool{false, true} {
			st := qr.Style{Format: qr.PNG, FG: fg, BG: bg, EC: ec}
			if withLogo {
				st.Logo = logo
			}
			// Each level and logo on its own core when one is free: drawing and decoding
			// hundreds of codes is all CPU.
			t.Run(fmt.Sprintf("%s logo %v", ec, withLogo), func(t *testing.T) {
				t.Parallel()
				n, err := qr.Modules(long, st)
				if err != nil {
					t.Fatal(err)
				}
				for _, size := range sizes(n) {
					st.Size = size
					img, err := qr.DrawStyled(t.Context(), long, st)
					if err != nil {
						t.Fatalf("size %d: %v", st.Size, err)
					}
					pic, err := png.Decode(bytes.NewReader(img.Data))
					if err != nil {
						t.Fatal(err)
					}
					if got := decodeOK(pic); got != long {
						t.Errorf("size %d: decodes to %q", st.Size, got)
					}
				}
			})
		}
	}
}

func TestStyleRefusals(t *testing.T) {
	white, _ := qr.ParseColor("ffffff", "bg")
	for _, c := range []struct {
		fg, ec string
		reason string
	}{
		{"000000", "", ""},
		{"767676", "", ""}, // 4.54:1 on white
		{"777777", "", "qr_contrast_low"},
		{"ffffff", "", "qr_contrast_low"},
		{"000000", "X", "value_invalid"},
	} {
		fg, _ := qr.ParseColor(c.fg, "fg")
		_, err := qr.DrawStyled(t.Context(), short, qr.Style{Size: 128, FG: fg, BG: white, EC: c.ec})
		got := ""
		if err != nil {
			got = apperr.ReasonOf(err)
		}
		if got != c.reason {
			t.Errorf("fg %s ec %q: %q, want %q (%v)", c.fg, c.ec, got, c.reason, err)
		}
	}
	for _, bad := range []string{"fff", "zzzzzz", "1234567", ""} {
		if _, err := qr.ParseColor(bad, "fg"); apperr.ReasonOf(err) != "qr_color_invalid" {
			t.Errorf("ParseColor(%q): %v", bad, err)
		}
	}
	if err := qr.CheckLogo([]byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`)); apperr.ReasonOf(err) != "logo_invalid" {
		t.Errorf("svg logo: %v", err)
	}
	if err := qr.CheckLogo(make([]byte, qr.MaxLogoBytes+1)); apperr.ReasonOf(err) != "logo_too_large" {
		t.Errorf("large logo: %v", err)
	}
	if err := qr.CheckLogo(testLogo(t, 40, 40)); err != nil {
		t.Errorf("good logo: %v", err)
	}
}

func TestStyledSVG(t *testing.T) {
	fg, _ := qr.ParseColor("#102030", "fg")
	bg, _ := qr.ParseColor("ffffff", "bg")
	img, err := qr.DrawStyled(t.Context(), short, qr.Style{Format: qr.SVG, Size: 256, FG: fg, BG: bg, Logo: testLogo(t, 10, 10)})
	if err != nil {
		t.Fatal(err)
	}
	s := string(img.Data)
	for _, want := range []string{`fill="#102030"`, `fill="#ffffff"`, `href="data:image/png;base64,`} {
		if !bytes.Contains(img.Data, []byte(want)) {
			t.Errorf("svg lacks %s: %.300s", want, s)
		}
	}
}

// decodeOK is the text img decodes to, "" when it does not.
func decodeOK(img image.Image) string {
	src, err := gozxing.NewPlanarYUVLuminanceSource(luminance(img), img.Bounds().Dx(), img.Bounds().Dy(),
		0, 0, img.Bounds().Dx(), img.Bounds().Dy(), false)
	if err != nil {
		return ""
	}
	bmp, err := gozxing.NewBinaryBitmap(gozxing.NewHybridBinarizer(src))
	if err != nil {
		return ""
	}
	// TRY_HARDER: every row is searched for the finder patterns, as a phone's repeated frames
	// do; without it gozxing skips rows and misses some clean codes of some sizes.
	res, err := zxqr.NewQRCodeReader().Decode(bmp, map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_TRY_HARDER: true})
	if err != nil {
		return ""
	}
	return res.GetText()
}

// luminance is img's grey levels as gozxing.NewLuminanceSourceFromImage computes them (alpha
// over white), read from the pixels of the RGBA image a drawn code decodes to rather than
// through At, which boxes every pixel: the same values in a fraction of the time.
func luminance(img image.Image) []byte {
	b := img.Bounds()
	lum := make([]byte, 0, b.Dx()*b.Dy())
	rgba, ok := img.(*image.RGBA)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			var r, g, bl, a uint32
			if ok {
				p := rgba.Pix[rgba.PixOffset(x, y):]
				r, g, bl, a = uint32(p[0])*0x101, uint32(p[1])*0x101, uint32(p[2])*0x101, uint32(p[3])*0x101
			} else {
				r, g, bl, a = img.At(x, y).RGBA()
			}
			l := (r + 2*g + bl) * 255 / (4 * 0xffff)
			lum = append(lum, byte((l*a+(0xffff-a)*255)/0xffff))
		}
	}
	return lum
}
