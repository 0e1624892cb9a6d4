package e2e

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"testing"
	"time"

	"github.com/makiuchi-d/gozxing"
	zxqr "github.com/makiuchi-d/gozxing/qrcode"

	"github.com/shortlink/shortlink/backend/testenv"
)

// deepLogo is a w×h PNG of 16 bits a channel (testenv.DeepPNG).
func deepLogo(t testing.TB, w, h int) []byte { return testenv.DeepPNG(t, w, h) }

// pngInfo is a PNG's header: its size, and whether it has 8 bits a channel.
func pngInfo(t *testing.T, data []byte) (w, h int, eightBit bool) {
	t.Helper()
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	switch cfg.ColorModel {
	case color.RGBA64Model, color.NRGBA64Model, color.Gray16Model:
		return cfg.Width, cfg.Height, false
	}
	return cfg.Width, cfg.Height, true
}

// wantQRDecodes fails unless r is a PNG code holding text, and answers its image.
func wantQRDecodes(t *testing.T, what string, r response, text string) image.Image {
	t.Helper()
	if r.Status != http.StatusOK {
		t.Fatalf("%s: %d %s", what, r.Status, r.Body)
	}
	img, err := png.Decode(bytes.NewReader(r.Body))
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	bmp, _ := gozxing.NewBinaryBitmapFromImage(img)
	res, err := zxqr.NewQRCodeReader().Decode(bmp, map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_TRY_HARDER: true})
	if err != nil || res.GetText() != text {
		t.Errorf("%s decodes to %v, %v; want %s", what, res, err, text)
	}
	return img
}

// TestQRLogoNormalised: an uploaded logo is stored at 8 bits a channel and at most 450 pixels
// a side, whatever it was; one that claims more than 2048 pixels a side is refused with 400
// logo_dimensions before it is decoded; a logo stored before uploads were normalised is
// normalised the first time a code draws it, and stays so.
func TestQRLogoNormalised(t *testing.T) {
	d := newDeployment(t)
	s := d.start(t)
	tn := s.signup("qr-norm@example.com")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", tn.WorkspaceID)
	l := s.createLink(tn, map[string]any{"url": "https://example.com/normalised"})

	deep := deepLogo(t, 2048, 2048)
	if r := s.do("PUT", ws+"/logo", tn.Token, deep); r.Status != http.StatusNoContent {
		t.Fatalf("put a 2048×2048 16-bit logo: %d %s", r.Status, r.Body)
	}
	r := s.do("GET", ws+"/logo", tn.Key, nil)
	if r.Status != http.StatusOK {
		t.Fatalf("get logo: %d %s", r.Status, r.Body)
	}
	if w, h, eight := pngInfo(t, r.Body); w != 450 || h != 450 || !eight {
		t.Errorf("stored logo: %d×%d, 8-bit %v; want 450×450, 8-bit", w, h, eight)
	}
	wantQRDecodes(t, "size=2048 logo=1", s.do("GET", fmt.Sprintf("%s/links/%d/qr?size=2048&logo=1", ws, l.ID), tn.Key, nil), l.ShortURL)

	// Absurd dimensions: a 4096×4096 image of 25 kB, and a header claiming 100,000×100,000.
	var big bytes.Buffer
	if err := png.Encode(&big, image.NewGray(image.Rect(0, 0, 4096, 4096))); err != nil {
		t.Fatal(err)
	}
	bomb := bytes.Clone(deepLogo(t, 8, 8))
	binary.BigEndian.PutUint32(bomb[16:], 100_000)
	binary.BigEndian.PutUint32(bomb[20:], 100_000)
	binary.BigEndian.PutUint32(bomb[29:], crc32.ChecksumIEEE(bomb[12:29]))
	for name, data := range map[string][]byte{"4096×4096": big.Bytes(), "claims 100000×100000": bomb} {
		r := s.do("PUT", ws+"/logo", tn.Token, data)
		if r.Status != http.StatusBadRequest {
			t.Fatalf("%s: %d %s", name, r.Status, r.Body)
		}
		if e := r.errorDetail(t); e.Code != "invalid" || e.Reason != "logo_dimensions" || e.Field != "file" {
			t.Errorf("%s: %+v, want invalid logo_dimensions on file", name, e)
		}
	}
	// The refused uploads left the logo as it was.
	if r := s.do("GET", ws+"/logo", tn.Key, nil); r.Status != http.StatusOK {
		t.Errorf("logo after refusals: %d", r.Status)
	} else if w, _, _ := pngInfo(t, r.Body); w != 450 {
		t.Errorf("logo after refusals is %d wide", w)
	}

	// A logo stored as uploads were before: the 16-bit 2048×2048 PNG itself.
	old := s.signup("qr-old@example.com")
	oldLink := s.createLink(old, map[string]any{"url": "https://example.com/old-logo"})
	db := d.conn(t)
	ctx := context.Background()
	if _, err := db.Exec(ctx, `INSERT INTO workspace_logos (workspace_id, content_type, data) VALUES ($1, 'image/png', $2)`, old.WorkspaceID, deep); err != nil {
		t.Fatal(err)
	}
	var before time.Time
	if err := db.QueryRow(ctx, `SELECT updated_at FROM workspace_logos WHERE workspace_id = $1`, old.WorkspaceID).Scan(&before); err != nil {
		t.Fatal(err)
	}
	wantQRDecodes(t, "old logo, size=1024 logo=1", s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links/%d/qr?size=1024&logo=1", old.WorkspaceID, oldLink.ID), old.Key, nil), oldLink.ShortURL)
	var stored []byte
	var after time.Time
	if err := db.QueryRow(ctx, `SELECT data, updated_at FROM workspace_logos WHERE workspace_id = $1`, old.WorkspaceID).Scan(&stored, &after); err != nil {
		t.Fatal(err)
	}
	if w, h, eight := pngInfo(t, stored); w != 450 || h != 450 || !eight {
		t.Errorf("old logo after its first read: %d×%d, 8-bit %v; want 450×450, 8-bit", w, h, eight)
	}
	if !after.Equal(before) {
		t.Errorf("normalising changed the logo's version: %v → %v", before, after)
	}
}

// TestQRCache: a code asked for again is the same bytes, served from the node's cache (it
// costs one request, not its size's four); after the logo changes, the code changes.
// limiterDeployment: the test reads what the rate limiter counted.
func TestQRCache(t *testing.T) {
	s := limiterDeployment(t).start(t, "PLAN_LIMITS", "free.requests_per_minute=100")
	tn := s.signup("qr-cache@example.com")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", tn.WorkspaceID)
	l := s.createLink(tn, map[string]any{"url": "https://example.com/cached"})
	if r := s.do("PUT", ws+"/logo", tn.Token, deepLogo(t, 300, 300)); r.Status != http.StatusNoContent {
		t.Fatalf("put logo: %d %s", r.Status, r.Body)
	}
	path := fmt.Sprintf("%s/links/%d/qr?size=1024&logo=1", ws, l.ID)
	remaining := func(r response) int {
		t.Helper()
		_, rem, _, ok := limits(r)
		if !ok {
			t.Fatalf("no RateLimit headers: %v", r.Header)
		}
		return rem
	}

	first := s.do("GET", path, tn.Key, nil)
	wantQRDecodes(t, "first", first, l.ShortURL)
	again := s.do("GET", path, tn.Key, nil)
	if again.Status != http.StatusOK || !bytes.Equal(again.Body, first.Body) {
		t.Fatalf("asked again: %d, same bytes %v", again.Status, bytes.Equal(again.Body, first.Body))
	}
	// The budget refills one request every 0.6 s: a drawing of 1024 pixels takes four, a
	// cached code one.
	if got := remaining(first) - remaining(again); got != 1 && got != 0 {
		t.Errorf("the cached code took %d requests of the budget, want 1", got)
	}

	// A new logo: the code drawn with it differs, and is drawn (four requests).
	other := deepLogo(t, 200, 120)
	if r := s.do("PUT", ws+"/logo", tn.Token, other); r.Status != http.StatusNoContent {
		t.Fatalf("put another logo: %d %s", r.Status, r.Body)
	}
	before := remaining(s.do("GET", ws+"/logo", tn.Key, nil))
	changed := s.do("GET", path, tn.Key, nil)
	wantQRDecodes(t, "after the logo changed", changed, l.ShortURL)
	if bytes.Equal(changed.Body, first.Body) {
		t.Error("the code is the same after the logo changed")
	}
	if got := before - remaining(changed); got < 3 || got > 4 {
		t.Errorf("the code drawn with the new logo took %d requests of the budget, want 4", got)
	}
	// Removing the logo: logo=1 is 404 at once, not a cached code.
	if r := s.do("DELETE", ws+"/logo", tn.Token, nil); r.Status != http.StatusNoContent {
		t.Fatalf("delete logo: %d", r.Status)
	}
	if r := s.do("GET", path, tn.Key, nil); r.Status != http.StatusNotFound {
		t.Errorf("logo=1 after the logo was removed: %d", r.Status)
	}
}

// TestQRBusy: with every image slot of the node taken (one slot, held by the test), a code to
// draw waits QR_RENDER_WAIT and is answered 503 qr_busy with Retry-After, and so is a logo
// upload; a cached code is still answered. Once the slot is given back, codes are drawn again.
func TestQRBusy(t *testing.T) {
	s := newDeployment(t).start(t, "QR_RENDERS", "1", "QR_RENDER_WAIT", "50ms")
	tn := s.signup("qr-busy@example.com")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", tn.WorkspaceID)
	l := s.createLink(tn, map[string]any{"url": "https://example.com/busy"})
	path := fmt.Sprintf("%s/links/%d/qr", ws, l.ID)
	wantQRDecodes(t, "before", s.do("GET", path+"?size=300", tn.Key, nil), l.ShortURL)

	release, err := s.app.ImageSlots().Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	wantBusy := func(what string, r response) {
		t.Helper()
		if r.Status != http.StatusServiceUnavailable {
			t.Fatalf("%s with every slot busy: %d %s", what, r.Status, r.Body)
		}
		if e := r.errorDetail(t); e.Code != "unavailable" || e.Reason != "qr_busy" {
			t.Errorf("%s: %+v, want unavailable qr_busy", what, e)
		}
		if got := r.Header.Get("Retry-After"); got != "1" {
			t.Errorf("%s: Retry-After %q, want 1", what, got)
		}
	}
	wantBusy("a code of 2048 pixels", s.do("GET", path+"?size=2048", tn.Key, nil))
	wantBusy("a logo upload", s.do("PUT", ws+"/logo", tn.Token, deepLogo(t, 64, 64)))
	wantQRDecodes(t, "the cached code", s.do("GET", path+"?size=300", tn.Key, nil), l.ShortURL)
	release()
	wantQRDecodes(t, "after the slot is back", s.do("GET", path+"?size=2048", tn.Key, nil), l.ShortURL)
}

// TestQRCostsBySize: a code drawn costs the workspace's budget by its area (a 2048-pixel PNG
// sixteen requests, a 256-pixel one or an SVG one); past what the budget holds, a large code is
// refused with 429 and Retry-After while a small or cached one still passes.
// limiterDeployment: the test reads what the rate limiter counted.
func TestQRCostsBySize(t *testing.T) {
	const limit = 40 // a request back every 1.5 s
	s := limiterDeployment(t).start(t, "PLAN_LIMITS", fmt.Sprintf("free.requests_per_minute=%d", limit))
	tn := s.signup("qr-cost@example.com") // the API key's creation: the first request
	started := time.Now()
	l := s.createLink(tn, map[string]any{"url": "https://example.com/costly"})
	path := fmt.Sprintf("/api/v1/workspaces/%d/links/%d/qr", tn.WorkspaceID, l.ID)
	spent := 2 // the key, the link
	// get sends a request and notes when; wantSpent checks RateLimit-Remaining after a request
	// that took cost. Refills only add: one every 1.5 s, so as many as fit between the start of
	// the request before the one checked and now (at least one) may have come.
	var startedBefore time.Time
	get := func(query string) response {
		startedBefore, started = started, time.Now()
		return s.do("GET", path+query, tn.Key, nil)
	}
	wantSpent := func(what string, r response, cost int) {
		t.Helper()
		spent += cost
		refills := 1 + int(time.Since(startedBefore)/(time.Minute/limit))
		_, rem, _, ok := limits(r)
		if !ok || rem < limit-spent || rem > limit-spent+refills {
			t.Errorf("%s: RateLimit-Remaining %d (%v), want %d (up to %d refilled)", what, rem, ok, limit-spent, refills)
		}
		spent = limit - rem // what the budget says, refills included
	}

	big := get("?size=2048")
	wantQRDecodes(t, "2048, drawn", big, l.ShortURL)
	wantSpent("2048, drawn", big, 16)
	r := get("?size=256")
	wantQRDecodes(t, "256, drawn", r, l.ShortURL)
	wantSpent("256, drawn", r, 1)
	r = get("?size=2048&format=svg")
	if r.Status != http.StatusOK {
		t.Fatalf("svg: %d %s", r.Status, r.Body)
	}
	wantSpent("svg of 2048", r, 1)
	r = get("?size=1024")
	wantQRDecodes(t, "1024, drawn", r, l.ShortURL)
	wantSpent("1024, drawn", r, 4)
	r = get("?size=2048")
	if r.Status != http.StatusOK || !bytes.Equal(r.Body, big.Body) {
		t.Fatalf("2048 again: %d", r.Status)
	}
	wantSpent("2048, cached", r, 1)

	// Spend the budget down to 8 with cached codes (a request each), then a 2048 in other
	// colours, which needs 16, is refused, while small and cached codes still pass.
	for {
		r = s.do("GET", path+"?size=256", tn.Key, nil)
		if _, rem, _, ok := limits(r); r.Status != http.StatusOK || !ok {
			t.Fatalf("256, cached: %d %s", r.Status, r.Body)
		} else if rem <= 8 {
			break
		}
	}
	r = s.do("GET", path+"?size=2048&fg=102030", tn.Key, nil)
	wantRateLimited(t, "2048 in other colours", r)
	if _, rem, _, _ := limits(r); rem < 6 {
		t.Errorf("after the refused drawing %d remain: it took more than its one request", rem)
	}
	wantQRDecodes(t, "256 in other colours", s.do("GET", path+"?size=256&fg=102030", tn.Key, nil), l.ShortURL)
	wantQRDecodes(t, "2048, cached, after the refusal", s.do("GET", path+"?size=2048", tn.Key, nil), l.ShortURL)
}
