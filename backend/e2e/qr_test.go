package e2e

import (
	"bytes"
	"fmt"
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
