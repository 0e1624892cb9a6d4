package e2e

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"strings"
	"testing"

	"github.com/makiuchi-d/gozxing"
	zxqr "github.com/makiuchi-d/gozxing/qrcode"
)

// TestLinkQR: the QR code of a link holds its short URL, in PNG or SVG, at the size asked; bad
// parameters are 400 in the error shape; another workspace's link is 404.
func TestLinkQR(t *testing.T) {
	s := newDeployment(t).start(t)
	tn := s.signup("qr@example.com")
	other := s.signup("qr-other@example.com")
	l := s.createLink(tn, map[string]any{"url": "https://example.com/printed"})
	path := fmt.Sprintf("/api/v1/workspaces/%d/links/%d/qr", tn.WorkspaceID, l.ID)

	r := s.do("GET", path+"?size=300", tn.Key, nil)
	if r.Status != http.StatusOK || r.Header.Get("Content-Type") != "image/png" {
		t.Fatalf("png: %d %s", r.Status, r.Header.Get("Content-Type"))
	}
	img, err := png.Decode(bytes.NewReader(r.Body))
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds().Dx() != 300 {
		t.Errorf("png is %v", img.Bounds())
	}
	bmp, _ := gozxing.NewBinaryBitmapFromImage(img)
	res, err := zxqr.NewQRCodeReader().Decode(bmp, nil)
	if err != nil || res.GetText() != l.ShortURL {
		t.Errorf("png decodes to %v, %v; want %s", res, err, l.ShortURL)
	}

	r = s.do("GET", path+"?format=svg", tn.Key, nil)
	if r.Status != http.StatusOK || r.Header.Get("Content-Type") != "image/svg+xml" || !strings.Contains(string(r.Body), "<svg") {
		t.Errorf("svg: %d %s %.80s", r.Status, r.Header.Get("Content-Type"), r.Body)
	}

	for _, q := range []string{"?format=gif", "?size=10", "?size=99999", "?size=big"} {
		if r := s.do("GET", path+q, tn.Key, nil); r.Status != http.StatusBadRequest || r.errorCode(t) != "invalid" {
			t.Errorf("%s: %d %s", q, r.Status, r.Body)
		}
	}
	if r := s.do("GET", path, other.Key, nil); r.Status != http.StatusNotFound {
		t.Errorf("another workspace's key: %d %s", r.Status, r.Body)
	}
	if r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links/%d/qr", other.WorkspaceID, l.ID), other.Key, nil); r.Status != http.StatusNotFound {
		t.Errorf("another workspace's link through its own path: %d %s", r.Status, r.Body)
	}
}

// TestLinkQRStyle: colours, levels and the workspace's logo; each answer decodes to the short
// URL; another workspace's logo is never drawn nor changed.
func TestLinkQRStyle(t *testing.T) {
	s := newDeployment(t).start(t)
	tn := s.signup("qrs@example.com")
	other := s.signup("qrs-other@example.com")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", tn.WorkspaceID)
	l := s.createLink(tn, map[string]any{"url": "https://example.com/styled"})
	path := fmt.Sprintf("%s/links/%d/qr", ws, l.ID)

	// A logo: PNG only, at most 100 kB, owners and admins only.
	var logo bytes.Buffer
	pic := image.NewNRGBA(image.Rect(0, 0, 48, 32))
	for i := range pic.Pix {
		pic.Pix[i] = uint8(i * 13)
	}
	if err := png.Encode(&logo, pic); err != nil {
		t.Fatal(err)
	}
	if r := s.do("PUT", ws+"/logo", tn.Key, logo.Bytes()); r.Status != http.StatusForbidden {
		t.Fatalf("api key sets the logo: %d %s", r.Status, r.Body)
	}
	if r := s.do("PUT", ws+"/logo", tn.Token, `<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`); r.Status != http.StatusBadRequest {
		t.Fatalf("svg logo: %d %s", r.Status, r.Body)
	}
	if r := s.do("PUT", ws+"/logo", tn.Token, make([]byte, 101<<10)); r.Status != http.StatusRequestEntityTooLarge && r.Status != http.StatusBadRequest {
		t.Fatalf("large logo: %d %s", r.Status, r.Body)
	}
	if r := s.do("PUT", ws+"/logo", tn.Token, logo.Bytes()); r.Status != http.StatusNoContent {
		t.Fatalf("put logo: %d %s", r.Status, r.Body)
	}
	// Stored normalised (an 8-bit PNG of the same pixels, here), not byte for byte.
	if r := s.do("GET", ws+"/logo", tn.Key, nil); r.Status != http.StatusOK {
		t.Fatalf("get logo: %d", r.Status)
	} else if got, err := png.Decode(bytes.NewReader(r.Body)); err != nil || got.Bounds() != pic.Bounds() {
		t.Fatalf("get logo: %v, %v", got, err)
	} else {
		// The same colours as seen (premultiplied), within rounding.
		near := func(a, b uint32) bool { return a-b+0x200 <= 0x400 }
		for y := range 32 {
			for x := range 48 {
				r1, g1, b1, a1 := got.At(x, y).RGBA()
				r0, g0, b0, a0 := pic.At(x, y).RGBA()
				if !near(r1, r0) || !near(g1, g0) || !near(b1, b0) || !near(a1, a0) {
					t.Fatalf("logo pixel (%d, %d) is %v, was %v", x, y, got.At(x, y), pic.At(x, y))
				}
			}
		}
	}
	decodes := func(q string) {
		t.Helper()
		r := s.do("GET", path+q, tn.Key, nil)
		if r.Status != http.StatusOK {
			t.Fatalf("%s: %d %s", q, r.Status, r.Body)
		}
		img, err := png.Decode(bytes.NewReader(r.Body))
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		bmp, _ := gozxing.NewBinaryBitmapFromImage(img)
		res, err := zxqr.NewQRCodeReader().Decode(bmp, map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_TRY_HARDER: true})
		if err != nil || res.GetText() != l.ShortURL {
			t.Errorf("%s decodes to %v, %v", q, res, err)
		}
	}
	for _, size := range []int{64, 128, 300, 512, 1024, 2048} {
		for _, ec := range []string{"L", "M", "Q", "H"} {
			decodes(fmt.Sprintf("?size=%d&ec=%s&fg=1a3c6e&bg=fdf6e3", size, ec))
			decodes(fmt.Sprintf("?size=%d&ec=%s&logo=1", size, ec))
		}
	}
	r := s.do("GET", path+"?format=svg&logo=1&fg=102030", tn.Key, nil)
	if r.Status != http.StatusOK || !strings.Contains(string(r.Body), `fill="#102030"`) || !strings.Contains(string(r.Body), "data:image/png;base64,") ||
		strings.Contains(string(r.Body), "<script") {
		t.Errorf("svg with logo: %d %.200s", r.Status, r.Body)
	}
	// The other workspace has no logo, and cannot remove this one.
	if r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/logo", other.WorkspaceID), other.Key, nil); r.Status != http.StatusNoContent {
		t.Errorf("other's logo: %d", r.Status)
	}
	if r := s.do("DELETE", ws+"/logo", other.Token, nil); r.Status != http.StatusNotFound && r.Status != http.StatusForbidden {
		t.Errorf("other deletes the logo: %d %s", r.Status, r.Body)
	}
	if r := s.do("GET", ws+"/logo", tn.Key, nil); r.Status != http.StatusOK {
		t.Errorf("logo after other's try: %d", r.Status)
	}
	if r := s.do("DELETE", ws+"/logo", tn.Token, nil); r.Status != http.StatusNoContent {
		t.Errorf("delete logo: %d %s", r.Status, r.Body)
	}
	if r := s.do("GET", path+"?logo=1", tn.Key, nil); r.Status != http.StatusNotFound {
		t.Errorf("logo=1 without a logo: %d %s", r.Status, r.Body)
	}
}
