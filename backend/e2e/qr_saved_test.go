package e2e

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"testing"
	"time"
)

// qrLookJSON is a link's saved QR style as the API answers it.
type qrLookJSON struct {
	FG   string `json:"fg"`
	BG   string `json:"bg"`
	EC   string `json:"ec"`
	Logo bool   `json:"logo"`
}

// qrColours decodes the PNG of an answer, checks that its code holds want, and answers the
// colours of its pixels (#rrggbb) with how many pixels each.
func qrColours(t *testing.T, r response, want string) map[string]int {
	t.Helper()
	if r.Header.Get("Content-Type") != "image/png" {
		t.Fatalf("qr: %d %s %.200s", r.Status, r.Header.Get("Content-Type"), r.Body)
	}
	img := wantQRDecodes(t, "qr", r, want)
	out := map[string]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
			out[fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B)]++
		}
	}
	return out
}

// TestLinkQRSaved: a link's QR style is saved by its create and PATCH, answered with the link,
// carried by its webhook events and kept by its duplicates; its image route draws it when the
// request names no style (the PNG's colours are the saved ones), the request's own parameters
// win, and a saved logo is dropped while the workspace has none. Bad styles are 400 with the
// image route's reasons and change nothing; viewers and read-only keys get 403, another
// workspace 404; null and {} clear it.
func TestLinkQRSaved(t *testing.T) {
	s := newDeployment(t).start(t, "WEBHOOK_ALLOW_LOOPBACK", "true")
	tn := s.signupOn("qr-saved@example.com", "personal")
	other := s.signup("qr-saved-other@example.com")
	viewer := s.joined(tn, "qr-saved-viewer@example.com", "viewer")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", tn.WorkspaceID)
	readKey := answer[struct{ Key string }](t, s.do("POST", ws+"/api-keys", tn.Token,
		map[string]any{"name": "read", "scopes": []string{"links:read"}}), http.StatusCreated, "read-only key").Key
	rcv := newHookReceiver(t)
	h := s.createHook(tn, rcv.url("/in"), "link.created", "link.updated")
	rcv.setSecret(h.Secret)

	// Saved by the create, written as the API answers it.
	r := s.do("POST", ws+"/links", tn.Key, map[string]any{"url": "https://example.com/saved-qr",
		"qr": map[string]any{"fg": "1A3C6E", "bg": "#FFFFF0", "ec": "Q"}})
	l := answer[struct {
		linkJSON
		QR *qrLookJSON `json:"qr"`
	}](t, r, http.StatusCreated, "create with a style")
	want := qrLookJSON{FG: "#1a3c6e", BG: "#fffff0", EC: "Q"}
	if l.QR == nil || *l.QR != want {
		t.Fatalf("created with qr %+v, want %+v", l.QR, want)
	}
	linkPath := fmt.Sprintf("%s/links/%d", ws, l.ID)
	qrPath := linkPath + "/qr"
	readQR := func(token string) *qrLookJSON {
		t.Helper()
		return answer[struct {
			QR *qrLookJSON `json:"qr"`
		}](t, s.do("GET", linkPath, token, nil), http.StatusOK, "read the link").QR
	}
	if got := readQR(viewer.Token); got == nil || *got != want {
		t.Errorf("read back (a viewer) %+v", got)
	}
	if got := linkOf(t, rcv.waitType("link.created", 1, 10*time.Second)[0])["qr"]; fmt.Sprint(got) != fmt.Sprint(map[string]any{"fg": "#1a3c6e", "bg": "#fffff0", "ec": "Q", "logo": false}) {
		t.Errorf("link.created's qr: %v", got)
	}

	// The image without style parameters is drawn in it, and is not kept by browsers.
	r = s.do("GET", qrPath+"?size=256", readKey, nil)
	if cols := qrColours(t, r, l.ShortURL); len(cols) != 2 || cols["#1a3c6e"] == 0 || cols["#fffff0"] == 0 {
		t.Errorf("saved style drawn in %v", cols)
	}
	if cc := r.Header.Get("Cache-Control"); cc != "private, no-cache" {
		t.Errorf("saved style's Cache-Control %q", cc)
	}
	svg := s.do("GET", qrPath+"?format=svg", viewer.Token, nil)
	if !bytes.Contains(svg.Body, []byte(`fill="#1a3c6e"`)) || !bytes.Contains(svg.Body, []byte(`fill="#fffff0"`)) {
		t.Errorf("the SVG in the saved style: %d %.300s", svg.Status, svg.Body)
	}
	// Any style parameter: the request's parameters alone decide.
	if cols := qrColours(t, s.do("GET", qrPath+"?size=256&fg=5a189a", tn.Key, nil), l.ShortURL); len(cols) != 2 || cols["#5a189a"] == 0 || cols["#ffffff"] == 0 {
		t.Errorf("explicit fg drawn in %v", cols)
	}
	if cols := qrColours(t, s.do("GET", qrPath+"?size=256&logo=0", tn.Key, nil), l.ShortURL); len(cols) != 2 || cols["#000000"] == 0 || cols["#ffffff"] == 0 {
		t.Errorf("explicit logo=0 drawn in %v", cols)
	}

	// A style with the logo: drawn without it while the workspace has none, with it once it has.
	r = s.do("PATCH", linkPath, tn.Key, map[string]any{"qr": map[string]any{"fg": "#2d6a4f", "logo": true}})
	want = qrLookJSON{FG: "#2d6a4f", BG: "#ffffff", Logo: true}
	if got := answer[struct {
		QR *qrLookJSON `json:"qr"`
	}](t, r, http.StatusOK, "patch the style").QR; got == nil || *got != want {
		t.Fatalf("patched qr %+v, want %+v", got, want)
	}
	if got := linkOf(t, rcv.waitType("link.updated", 1, 10*time.Second)[0])["qr"]; fmt.Sprint(got) != fmt.Sprint(map[string]any{"fg": "#2d6a4f", "bg": "#ffffff", "ec": "", "logo": true}) {
		t.Errorf("link.updated's qr: %v", got)
	}
	if cols := qrColours(t, s.do("GET", qrPath+"?size=256", tn.Key, nil), l.ShortURL); len(cols) != 2 || cols["#2d6a4f"] == 0 {
		t.Errorf("saved style without a workspace logo drawn in %v", cols)
	}
	pic := image.NewNRGBA(image.Rect(0, 0, 32, 32))
	for i := 0; i < len(pic.Pix); i += 4 {
		pic.Pix[i], pic.Pix[i+1], pic.Pix[i+2], pic.Pix[i+3] = 0xe6, 0x39, 0x46, 0xff
	}
	var logo bytes.Buffer
	if err := png.Encode(&logo, pic); err != nil {
		t.Fatal(err)
	}
	if r := s.do("PUT", ws+"/logo", tn.Token, logo.Bytes()); r.Status/100 != 2 {
		t.Fatalf("set the logo: %d %s", r.Status, r.Body)
	}
	if cols := qrColours(t, s.do("GET", qrPath+"?size=512", tn.Key, nil), l.ShortURL); cols["#e63946"] == 0 || cols["#2d6a4f"] == 0 {
		t.Errorf("saved style with the logo drawn in %v", cols)
	}

	// Refused: what the image route refuses, with its reasons; nothing changes.
	for _, c := range []struct {
		body          any
		reason, field string
	}{
		{map[string]any{"fg": "#12345"}, "qr_color_invalid", "qr.fg"},
		{map[string]any{"bg": "white"}, "qr_color_invalid", "qr.bg"},
		{map[string]any{"fg": "#ffffff", "bg": "#000000"}, "qr_contrast_low", "qr.fg"},
		{map[string]any{"fg": "#777777", "bg": "#888888"}, "qr_contrast_low", "qr.fg"},
		{map[string]any{"ec": "X"}, "value_invalid", "qr.ec"},
		{map[string]any{"colour": "#000000"}, "json_invalid", ""},
		{"red", "value_invalid", "qr"},
	} {
		r := s.do("PATCH", linkPath, tn.Key, map[string]any{"qr": c.body})
		if r.Status != http.StatusBadRequest {
			t.Errorf("%v: %d %s", c.body, r.Status, r.Body)
			continue
		}
		if e := r.errorDetail(t); e.Reason != c.reason || (c.field != "" && e.Field != c.field) {
			t.Errorf("%v: reason %q field %q, want %q %q", c.body, e.Reason, e.Field, c.reason, c.field)
		}
	}
	if r := s.do("POST", ws+"/links", tn.Key, map[string]any{"url": "https://example.com/bad-qr", "qr": map[string]any{"fg": "#eeeeee"}}); r.Status != http.StatusBadRequest {
		t.Errorf("create with a pale style: %d %s", r.Status, r.Body)
	} else if e := r.errorDetail(t); e.Reason != "qr_contrast_low" {
		t.Errorf("create with a pale style: %s", r.Body)
	}
	// Nobody else changes it.
	for _, c := range []struct {
		who, path, token string
		status           int
	}{
		{"viewer", linkPath, viewer.Token, http.StatusForbidden},
		{"read-only key", linkPath, readKey, http.StatusForbidden},
		{"another workspace's key", linkPath, other.Key, http.StatusNotFound},
		{"another workspace's path", fmt.Sprintf("/api/v1/workspaces/%d/links/%d", other.WorkspaceID, l.ID), other.Key, http.StatusNotFound},
	} {
		if r := s.do("PATCH", c.path, c.token, map[string]any{"qr": map[string]any{"fg": "#5a189a"}}); r.Status != c.status {
			t.Errorf("%s: %d %s, want %d", c.who, r.Status, r.Body, c.status)
		}
	}
	if r := s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links/%d/qr", other.WorkspaceID, l.ID), other.Key, nil); r.Status != http.StatusNotFound {
		t.Errorf("another workspace's image: %d", r.Status)
	}
	if got := readQR(tn.Key); got == nil || *got != want {
		t.Errorf("after the refusals: %+v, want %+v", got, want)
	}

	// A duplicate keeps it.
	dup := answer[struct {
		QR *qrLookJSON `json:"qr"`
	}](t, s.do("POST", linkPath+"/duplicate", tn.Key, nil), http.StatusCreated, "duplicate")
	if dup.QR == nil || *dup.QR != want {
		t.Errorf("the duplicate's qr %+v, want %+v", dup.QR, want)
	}

	// Cleared by null, and by the default; other edits leave it alone.
	if r := s.do("PATCH", linkPath, tn.Key, map[string]any{"title": "kept"}); r.Status != http.StatusOK || readQR(tn.Key) == nil {
		t.Errorf("a title's edit: %d %s", r.Status, r.Body)
	}
	for _, clear := range []any{nil, map[string]any{}, map[string]any{"fg": "#000000", "bg": "#FFFFFF", "ec": "", "logo": false}} {
		if r := s.do("PATCH", linkPath, tn.Key, map[string]any{"qr": map[string]any{"ec": "H"}}); r.Status != http.StatusOK {
			t.Fatalf("set: %d %s", r.Status, r.Body)
		}
		r := s.do("PATCH", linkPath, tn.Key, map[string]any{"qr": clear})
		if r.Status != http.StatusOK || !bytes.Contains(r.Body, []byte(`"qr":null`)) {
			t.Errorf("clear with %v: %d %s", clear, r.Status, r.Body)
		}
	}
	if cols := qrColours(t, s.do("GET", qrPath+"?size=256", tn.Key, nil), l.ShortURL); len(cols) != 2 || cols["#000000"] == 0 || cols["#ffffff"] == 0 {
		t.Errorf("cleared style drawn in %v", cols)
	}
	// A plain link answers "qr": null.
	if r := s.do("POST", ws+"/links", tn.Key, map[string]any{"url": "https://example.com/plain-qr"}); !bytes.Contains(r.Body, []byte(`"qr":null`)) {
		t.Errorf("a plain create: %s", r.Body)
	}

	// The level in either case, saved and answered in capitals, and taken by the image route
	// as the document says (s.do holds every request it makes to the document).
	r = s.do("PATCH", linkPath, tn.Key, map[string]any{"qr": map[string]any{"ec": "q"}})
	if got := answer[struct {
		QR *qrLookJSON `json:"qr"`
	}](t, r, http.StatusOK, "a lowercase level").QR; got == nil || got.EC != "Q" {
		t.Errorf("saved with ec q: %+v, want Q", got)
	}
	for _, q := range []string{"ec=q", "ec=h&logo=true", "ec=&logo=false", "ec=L&logo=0"} {
		qrColours(t, s.do("GET", qrPath+"?size=256&"+q, tn.Key, nil), l.ShortURL)
	}
}
