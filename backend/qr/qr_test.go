package qr_test

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/makiuchi-d/gozxing"
	zxqr "github.com/makiuchi-d/gozxing/qrcode"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/qr"
)

func decode(t *testing.T, img image.Image) string {
	t.Helper()
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	if err != nil {
		t.Fatal(err)
	}
	res, err := zxqr.NewQRCodeReader().Decode(bmp, nil)
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	return res.GetText()
}

const short = "https://sho.rt/Xb3kPq"

func TestPNG(t *testing.T) {
	for _, size := range []int{qr.MinSize, 300, qr.MaxSize} {
		img, err := qr.Draw(short, qr.PNG, size)
		if err != nil || img.ContentType != "image/png" {
			t.Fatalf("Draw(png, %d) = %q, %v", size, img.ContentType, err)
		}
		p, err := png.Decode(bytes.NewReader(img.Data))
		if err != nil {
			t.Fatal(err)
		}
		if b := p.Bounds(); b.Dx() != size || b.Dy() != size {
			t.Errorf("size %d drew %v", size, b)
		}
		if got := decode(t, p); got != short {
			t.Errorf("size %d decodes to %q", size, got)
		}
	}
}

// TestSVG paints the SVG's modules into a bitmap and reads the code back.
func TestSVG(t *testing.T) {
	img, err := qr.Draw(short, qr.SVG, 400)
	if err != nil || img.ContentType != "image/svg+xml" {
		t.Fatalf("Draw(svg) = %q, %v", img.ContentType, err)
	}
	s := string(img.Data)
	if !strings.Contains(s, `width="400"`) {
		t.Errorf("svg without its size: %.200s", s)
	}
	vb := regexp.MustCompile(`viewBox="0 0 (\d+) (\d+)"`).FindStringSubmatch(s)
	if vb == nil {
		t.Fatalf("no viewBox: %.200s", s)
	}
	n, _ := strconv.Atoi(vb[1])
	const scale = 8
	bm := image.NewGray(image.Rect(0, 0, n*scale, n*scale))
	for i := range bm.Pix {
		bm.Pix[i] = 255
	}
	for _, m := range regexp.MustCompile(`M(\d+) (\d+)h1v1h-1z`).FindAllStringSubmatch(s, -1) {
		x, _ := strconv.Atoi(m[1])
		y, _ := strconv.Atoi(m[2])
		for dy := range scale {
			for dx := range scale {
				bm.Set(x*scale+dx, y*scale+dy, color.Black)
			}
		}
	}
	if got := decode(t, bm); got != short {
		t.Errorf("svg decodes to %q", got)
	}
}

func TestBadInput(t *testing.T) {
	for _, c := range []struct {
		format string
		size   int
	}{{"gif", 256}, {"png", qr.MinSize - 1}, {"svg", qr.MaxSize + 1}, {"png", -5}} {
		if _, err := qr.Draw(short, c.format, c.size); !apperr.Is(err, apperr.Invalid) {
			t.Errorf("Draw(%q, %d) = %v, want invalid", c.format, c.size, err)
		}
	}
}
