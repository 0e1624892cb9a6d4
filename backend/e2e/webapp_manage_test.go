package e2e

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/makiuchi-d/gozxing"
	zxqr "github.com/makiuchi-d/gozxing/qrcode"
	"github.com/playwright-community/playwright-go"
)

// Walks of the link-management controls: the UTM builder, QR styling with the workspace's logo,
// a domain's app-link files and the dashboard's tag filter. Each checks what the control
// changes outside the page: the redirect, the image, the files served, the figures.

// TestWebAppUTMBuilder: a template applied in the link form, a field typed on top, the fields
// saved as a new template, the link created; its redirect carries the parameters.
func TestWebAppUTMBuilder(t *testing.T) {
	s := newDeployment(t).start(t)
	l := enDesktop
	tn := s.signup("utm-walk@example.com")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", tn.WorkspaceID)
	answer[map[string]any](t, s.do("POST", ws+"/utm-templates", tn.Key, map[string]any{"name": "Newsletter",
		"utm": map[string]any{"source": "newsletter", "medium": "email", "campaign": "winter"}}), http.StatusCreated, "template")

	w := walk(t, s, l)
	w.signIn("utm-walk@example.com", "correct horse battery")
	w.click(w.link("New link"))
	w.fill(w.textbox("Destination URL"), "https://example.com/sale?ref=home#top")
	w.click(w.button("UTM parameters"))
	builder := w.p.GetByTestId("utm-builder")
	if _, err := builder.GetByRole("combobox", playwright.LocatorGetByRoleOptions{Name: "Apply a template"}).
		SelectOption(playwright.SelectOptionValues{Labels: &[]string{"Newsletter"}}); err != nil {
		t.Fatalf("apply the template: %v", err)
	}
	if err := expectLocator(w.textbox("Source (utm_source)")).ToHaveValue("newsletter"); err != nil {
		t.Fatalf("the template's source: %v", err)
	}
	w.fill(w.textbox("Campaign (utm_campaign)"), "spring")
	w.fill(w.textbox("Content (utm_content)"), "hero banner")
	want := "https://example.com/sale?ref=home&utm_source=newsletter&utm_medium=email&utm_campaign=spring&utm_content=hero+banner#top"
	if err := expectLocator(w.p.GetByTestId("utm-preview")).ToHaveText(want); err != nil {
		t.Fatalf("the preview: %v", err)
	}
	w.fill(w.textbox("Template name"), "Spring banner")
	w.click(w.button("Save as template"))
	eventually(t, 10*time.Second, "the new template", func() bool {
		var list struct {
			Templates []struct {
				Name string
				UTM  map[string]string
			}
		}
		s.do("GET", ws+"/utm-templates", tn.Key, nil).json(t, &list)
		for _, tpl := range list.Templates {
			if tpl.Name == "Spring banner" {
				return tpl.UTM["campaign"] == "spring" && tpl.UTM["content"] == "hero banner" && tpl.UTM["source"] == "newsletter"
			}
		}
		return false
	})
	w.shoot("link-form-utm")
	w.click(w.button("Create link"))

	var page struct{ Links []linkJSON }
	eventually(t, 10*time.Second, "the new link", func() bool {
		s.do("GET", ws+"/links", tn.Key, nil).json(t, &page)
		return len(page.Links) == 1
	})
	r := s.visit("GET", "/"+page.Links[0].Code)
	if r.Status != http.StatusFound {
		t.Fatalf("redirect: %d %s", r.Status, r.Body)
	}
	if got := r.Header.Get("Location"); got != want {
		t.Fatalf("redirect to %s, want %s", got, want)
	}
	u, _ := url.Parse(r.Header.Get("Location"))
	if q := u.Query(); q.Get("utm_campaign") != "spring" || q.Get("utm_medium") != "email" || q.Get("ref") != "home" {
		t.Fatalf("query %v", q)
	}
	// The link's page says where the redirect sends a visitor, and the campaign's parameters.
	w.open(fmt.Sprintf("/links/%d", page.Links[0].ID), "")
	if err := expectLocator(w.p.GetByTestId("detail-destination").GetByRole("link")).ToHaveText(want); err != nil {
		t.Errorf("the link page's destination: %v", err)
	}
	if err := expectLocator(w.p.GetByTestId("detail-utm")).ToContainText("utm_campaign=spring"); err != nil {
		t.Errorf("the link page's campaign: %v", err)
	}
}

// TestWebAppQRStyle: the logo asked for on the link page of a workspace without one leads to
// the settings, where it is uploaded; then on the link page the colours,
// the error correction and the logo change the image asked for; the downloaded PNG is in the
// chosen colour and still decodes to the short URL; saved, the style is the link's in another
// browser too, and a style a browser kept before is moved to its link.
func TestWebAppQRStyle(t *testing.T) {
	s := newDeployment(t).start(t)
	l := zhPhone
	tn := s.signup("qr-walk@example.com")
	lk := s.createLink(tn, map[string]any{"url": "https://example.com/poster"})

	// A logo of two colours, saved where the browser can pick it.
	pic := image.NewNRGBA(image.Rect(0, 0, 64, 64))
	for y := range 64 {
		for x := range 64 {
			c := color.NRGBA{0xe6, 0x39, 0x46, 0xff}
			if (x/16+y/16)%2 == 0 {
				c = color.NRGBA{0xff, 0xd1, 0x66, 0xff}
			}
			pic.SetNRGBA(x, y, c)
		}
	}
	logo := filepath.Join(t.TempDir(), "logo.png")
	f, err := os.Create(logo)
	if err != nil {
		t.Fatal(err)
	}
	if err := png.Encode(f, pic); err != nil {
		t.Fatal(err)
	}
	_ = f.Close()

	w := walk(t, s, l)
	w.signIn("qr-walk@example.com", "correct horse battery")
	// The logo asked for before the workspace has one: the card says so, not that the code
	// cannot be drawn, and leads to where the logo is uploaded.
	w.open(fmt.Sprintf("/links/%d", lk.ID), "")
	w.see(w.p.GetByTestId("qr-image"))
	if err := w.role("switch", "在中间显示工作区徽标").Check(); err != nil {
		t.Fatalf("logo switch: %v", err)
	}
	noLogo := w.p.GetByTestId("qr-no-logo")
	w.see(noLogo.GetByText("此工作区还没有徽标，无法生成带徽标的二维码。"))
	for _, gone := range []string{"qr-broken", "qr-image"} {
		if err := expectLocator(w.p.GetByTestId(gone)).ToHaveCount(0); err != nil {
			t.Errorf("without a logo, %s: %v", gone, err)
		}
	}
	w.accessible("link, the QR logo missing")
	w.shoot("link-qr-no-logo")
	w.click(noLogo.GetByRole("link", playwright.LocatorGetByRoleOptions{Name: "在设置中上传徽标"}))
	w.at("/settings#qr-logo")
	card := w.role("region", "二维码徽标")
	if err := expectLocator(card).ToBeInViewport(); err != nil {
		t.Errorf("the logo's card where the link leads: %v", err)
	}
	if err := card.Locator(`input[type="file"]`).SetInputFiles(logo); err != nil {
		t.Fatalf("upload the logo: %v", err)
	}
	w.see(card.GetByTestId("logo-image"))

	w.open(fmt.Sprintf("/links/%d", lk.ID), "")
	img := w.p.GetByTestId("qr-image")
	w.see(img)
	before, _ := img.GetAttribute("src")
	if err := w.p.GetByLabel("深色").Fill("#1a3c6e"); err != nil {
		t.Fatalf("dark colour: %v", err)
	}
	// The level's label keeps to one line (beside the colours the card's width broke it).
	lines, err := w.p.Locator("label").Filter(playwright.LocatorFilterOptions{HasText: "纠错等级"}).Evaluate(
		`el => el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).fontSize)`, nil)
	if err != nil {
		t.Fatalf("error correction label: %v", err)
	}
	if h, _ := lines.(float64); h <= 0 || h >= 2 {
		t.Errorf("the error correction label is %.1f font sizes high: it wraps", h)
	}
	if _, err := w.role("combobox", "纠错等级").SelectOption(playwright.SelectOptionValues{Values: &[]string{"Q"}}); err != nil {
		t.Fatalf("error correction: %v", err)
	}
	for _, part := range []string{"fg=1a3c6e", "ec=Q"} {
		if err := expectLocator(img).ToHaveAttribute("src", regexp.MustCompile(regexp.QuoteMeta(part))); err != nil {
			t.Fatalf("image address after the changes (was %s): %v", before, err)
		}
	}
	// With the logo the level is H, whatever was chosen: the select says so and is locked.
	if err := w.role("switch", "在中间显示工作区徽标").Check(); err != nil {
		t.Fatalf("logo switch: %v", err)
	}
	if err := expectLocator(img).ToHaveAttribute("src", regexp.MustCompile(`logo=1`)); err != nil {
		t.Fatalf("image address with the logo: %v", err)
	}
	if src, _ := img.GetAttribute("src"); strings.Contains(src, "ec=") {
		t.Errorf("a level asked with the logo: %s", src)
	}
	level := w.role("combobox", "纠错等级")
	if err := expectLocator(level).ToHaveValue("H"); err != nil {
		t.Errorf("the level shown with the logo: %v", err)
	}
	if err := expectLocator(level).ToBeDisabled(); err != nil {
		t.Errorf("the level with the logo: %v", err)
	}
	w.see(w.p.GetByTestId("qr-logo-level"))
	// The image the page shows is drawn (a refusal would show the "cannot be drawn" line).
	if err := expectLocator(w.p.GetByTestId("qr-broken")).ToHaveCount(0); err != nil {
		t.Fatal(err)
	}
	w.shoot("link-qr-style")

	name, body := w.download(w.p.GetByTestId("qr-png"))
	if !strings.HasSuffix(name, ".png") {
		t.Errorf("file name %q", name)
	}
	decoded, err := png.Decode(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("the PNG: %v", err)
	}
	// The finder pattern's corner module is the chosen dark colour.
	b := decoded.Bounds()
	dark := false
	for d := range b.Dx() / 4 {
		r, g, bl, _ := decoded.At(b.Min.X+d, b.Min.Y+d).RGBA()
		if r>>8 == 0x1a && g>>8 == 0x3c && bl>>8 == 0x6e {
			dark = true
			break
		}
	}
	if !dark {
		t.Errorf("no module in #1a3c6e on the diagonal of the finder pattern")
	}
	bmp, _ := gozxing.NewBinaryBitmapFromImage(decoded)
	res, err := zxqr.NewQRCodeReader().Decode(bmp, map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_TRY_HARDER: true})
	if err != nil || res.GetText() != lk.ShortURL {
		t.Fatalf("the downloaded PNG decodes to %v, %v; want %s", res, err, lk.ShortURL)
	}
	// Saved with the link: the page says so, and opens again on it: the colour, the level, the logo.
	w.see(w.p.GetByTestId("qr-saved-note").GetByText("尚未保存"))
	w.click(w.button("保存样式"))
	w.see(w.text("二维码样式已随链接保存。"))
	if err := expectLocator(w.button("保存样式")).ToBeDisabled(); err != nil {
		t.Errorf("the save button once saved: %v", err)
	}
	if _, err := w.p.Reload(); err != nil {
		t.Fatal(err)
	}
	for _, part := range []string{"fg=1a3c6e", "logo=1"} {
		if err := expectLocator(img).ToHaveAttribute("src", regexp.MustCompile(regexp.QuoteMeta(part))); err != nil {
			t.Errorf("after a reload, the image's address lacks %s: %v", part, err)
		}
	}
	if err := w.role("switch", "在中间显示工作区徽标").Uncheck(); err != nil {
		t.Fatal(err)
	}
	if err := expectLocator(img).ToHaveAttribute("src", regexp.MustCompile(`ec=Q`)); err != nil {
		t.Errorf("the level kept for without the logo: %v", err)
	}

	// The style follows the link to another browser (the one above leaves its change unsaved);
	// and a style a browser kept for a link before styles were saved is moved to the link once.
	lk2 := s.createLink(tn, map[string]any{"url": "https://example.com/flyer"})
	w2 := walk(t, s, enDesktop)
	w2.signIn("qr-walk@example.com", "correct horse battery")
	if _, err := w2.p.Evaluate(fmt.Sprintf(`localStorage.setItem("sl.qr.%d.%d", JSON.stringify({fg: "#5a189a", bg: "#ffffff", ec: "H", logo: false}))`, tn.WorkspaceID, lk2.ID)); err != nil {
		t.Fatal(err)
	}
	w2.open(fmt.Sprintf("/links/%d", lk.ID), "")
	img2 := w2.p.GetByTestId("qr-image")
	for _, part := range []string{"fg=1a3c6e", "logo=1"} {
		if err := expectLocator(img2).ToHaveAttribute("src", regexp.MustCompile(regexp.QuoteMeta(part))); err != nil {
			t.Errorf("in another browser, the image's address lacks %s: %v", part, err)
		}
	}
	if err := expectLocator(w2.role("switch", "Workspace logo in the middle")).ToBeChecked(); err != nil {
		t.Errorf("in another browser, the logo switch: %v", err)
	}
	w2.open(fmt.Sprintf("/links/%d", lk2.ID), "")
	if err := expectLocator(w2.p.GetByTestId("qr-image")).ToHaveAttribute("src", regexp.MustCompile(`fg=5a189a`)); err != nil {
		t.Errorf("the style this browser kept: %v", err)
	}
	eventually(t, 10*time.Second, "the style this browser kept saved with its link", func() bool {
		var got struct {
			QR *struct{ FG, EC string } `json:"qr"`
		}
		s.do("GET", fmt.Sprintf("/api/v1/workspaces/%d/links/%d", tn.WorkspaceID, lk2.ID), tn.Key, nil).json(t, &got)
		return got.QR != nil && got.QR.FG == "#5a189a" && got.QR.EC == "H"
	})
	eventually(t, 10*time.Second, "the browser's copy dropped once moved", func() bool {
		v, err := w2.p.Evaluate(fmt.Sprintf(`localStorage.getItem("sl.qr.%d.%d")`, tn.WorkspaceID, lk2.ID))
		return err == nil && v == nil
	})

	// In English too, a workspace without a logo is told so and led to the upload.
	bare := s.signup("qr-nologo@example.com")
	lk3 := s.createLink(bare, map[string]any{"url": "https://example.com/leaflet"})
	w3 := walk(t, s, enDesktop)
	w3.signIn("qr-nologo@example.com", "correct horse battery")
	w3.open(fmt.Sprintf("/links/%d", lk3.ID), "")
	w3.see(w3.p.GetByTestId("qr-image"))
	if err := w3.role("switch", "Workspace logo in the middle").Check(); err != nil {
		t.Fatalf("logo switch: %v", err)
	}
	noLogo3 := w3.p.GetByTestId("qr-no-logo")
	w3.see(noLogo3.GetByText("This workspace has no logo yet: the code cannot be drawn with one."))
	w3.click(noLogo3.GetByRole("link", playwright.LocatorGetByRoleOptions{Name: "Upload a logo in the settings"}))
	w3.at("/settings#qr-logo")
	if err := expectLocator(w3.role("region", "QR code logo")).ToBeInViewport(); err != nil {
		t.Errorf("the logo's card where the link leads (English): %v", err)
	}
}

// TestWebAppAppLinks: a verified domain's app-link files typed on the domains page, a bad one
// refused before sending; once saved, the domain answers both well-known paths with them.
func TestWebAppAppLinks(t *testing.T) {
	ns := startDNS(t)
	s := newDeployment(t).start(t, "DNS_RESOLVER", ns.Addr)
	l := enDesktop
	tn := s.signupOn("applinks-walk@example.com", "enterprise")
	d := s.addDomain(tn, "go.walk.example.com")
	ns.set(d.Verification.Name, d.Verification.Value)
	if got := s.verifyDomain(tn, d.ID); !got.Verified {
		t.Fatalf("not verified: %+v", got)
	}

	w := walk(t, s, l)
	w.signIn("applinks-walk@example.com", "correct horse battery")
	w.open("/domains", "Domains")
	files := w.p.GetByTestId("app-links")
	aasa := files.GetByRole("textbox", playwright.LocatorGetByRoleOptions{Name: "apple-app-site-association"})
	android := files.GetByRole("textbox", playwright.LocatorGetByRoleOptions{Name: "assetlinks.json"})
	save := files.GetByRole("button", playwright.LocatorGetByRoleOptions{Name: "Save"})

	// Not an array: said at once, nothing sent.
	w.fill(android, `{"relation": []}`)
	w.see(files.GetByText("The Android file must be a JSON array of statements."))
	if err := expectLocator(save).ToBeDisabled(); err != nil {
		t.Fatal(err)
	}
	w.fill(aasa, `{"applinks": {"apps": [], "details": [{"appID": "TEAM1.com.walk.app", "paths": ["/promo/*"]}]}}`)
	w.fill(android, `[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.walk.app", "sha256_cert_fingerprints": ["AB:CD"]}}]`)
	w.click(save)
	w.see(w.text("Saved."))
	w.shoot("domain-app-links")

	for _, c := range []struct{ path, want string }{
		{"/.well-known/apple-app-site-association", "TEAM1.com.walk.app"},
		{"/.well-known/assetlinks.json", "com.walk.app"},
	} {
		r := s.visitHost("go.walk.example.com", "GET", c.path)
		if r.Status != http.StatusOK || r.Header.Get("Content-Type") != "application/json" || !strings.Contains(string(r.Body), c.want) {
			t.Errorf("%s: %d %s %s", c.path, r.Status, r.Header.Get("Content-Type"), r.Body)
		}
	}

	// Emptied: the host serves nothing there any more.
	w.fill(android, "")
	w.click(save)
	eventually(t, 5*time.Second, "assetlinks.json gone", func() bool {
		return s.visitHost("go.walk.example.com", "GET", "/.well-known/assetlinks.json").Status == http.StatusNotFound
	})
	if r := s.visitHost("go.walk.example.com", "GET", "/.well-known/apple-app-site-association"); r.Status != http.StatusOK {
		t.Errorf("the Apple file after emptying the other: %d", r.Status)
	}
}

// TestWebAppDashboardTag: the dashboard's tag filter narrows its figures to the links of a tag.
func TestWebAppDashboardTag(t *testing.T) {
	s := newDeployment(t).start(t)
	l := zhPhone
	tn := s.signupOn("dash-tag@example.com", "enterprise")
	ws := fmt.Sprintf("/api/v1/workspaces/%d", tn.WorkspaceID)
	tagged := answer[taggedJSON](t, s.do("POST", ws+"/links", tn.Key, map[string]any{"url": "https://example.com/tagged", "tags": []string{"Print"}}),
		http.StatusCreated, "tagged link")
	plain := s.createLink(tn, map[string]any{"url": "https://example.com/plain"})
	for _, code := range []string{tagged.Code, plain.Code, plain.Code} {
		if st, _ := s.sendHit(code, hit{fromDE, uaDesktop, ""}); st != http.StatusFound {
			t.Fatalf("visit %s: %d", code, st)
		}
	}
	// Waited for on the links' statistics, which are read afresh each time: a dashboard
	// reading that was slow (a loaded machine) is served as it is for a while, and the first
	// one must come after the visits.
	eventually(t, 10*time.Second, "the visits stored", func() bool {
		n := int64(0)
		for _, id := range []int64{tagged.ID, plain.ID} {
			var st linkStatsJSON
			s.do("GET", fmt.Sprintf("%s/links/%d/stats", ws, id), tn.Key, nil).json(t, &st)
			n += st.Visits
		}
		return n == 3
	})

	w := walk(t, s, l)
	w.signIn("dash-tag@example.com", "correct horse battery")
	w.open("/dashboard", "数据看板")
	figure := w.p.GetByTestId("visits-range")
	if err := expectLocator(figure).ToHaveText("3"); err != nil {
		t.Fatalf("all visits: %v", err)
	}
	filter := w.role("combobox", "标签")
	if _, err := filter.SelectOption(playwright.SelectOptionValues{Labels: &[]string{"Print"}}); err != nil {
		t.Fatalf("tag filter: %v", err)
	}
	if err := expectLocator(figure).ToHaveText("1"); err != nil {
		t.Fatalf("visits of the tag's links: %v", err)
	}
	if err := expectLocator(w.p.GetByRole("link", playwright.PageGetByRoleOptions{Name: shortHost + "/" + tagged.Code})).ToBeVisible(); err != nil {
		t.Errorf("the tagged link among the top links: %v", err)
	}
	if err := expectLocator(w.p.GetByRole("link", playwright.PageGetByRoleOptions{Name: shortHost + "/" + plain.Code})).ToHaveCount(0); err != nil {
		t.Errorf("the untagged link among the top links: %v", err)
	}
	w.shoot("dashboard-tag")
	if _, err := filter.SelectOption(playwright.SelectOptionValues{Labels: &[]string{"任意标签"}}); err != nil {
		t.Fatal(err)
	}
	if err := expectLocator(figure).ToHaveText("3"); err != nil {
		t.Fatalf("all visits again: %v", err)
	}
}
