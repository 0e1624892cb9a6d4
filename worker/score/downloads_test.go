package score

import (
	"testing"

	"github.com/shortlink/shortlink/backend/moderation"
)

// signalCase is a page and the weight one signal gives it (0: no signal).
type signalCase struct {
	name   string
	signal func(moderation.Capture) (Signal, bool)
	page   moderation.Capture
	want   float64
}

// checkSignalCases fails t for each case whose signal gives another weight.
func checkSignalCases(t *testing.T, cases []signalCase) {
	t.Helper()
	for _, c := range cases {
		s, ok := c.signal(c.page)
		if got := map[bool]float64{true: s.Weight, false: 0}[ok]; got != c.want {
			t.Errorf("%s: %.2f (%s), want %.2f", c.name, got, s.Detail, c.want)
		}
	}
}

// TestFilesHandedOver: what a page hands over by itself (a file it makes or starts, recorded
// among its downloads) weighs as a link to it would — an archive with its password, a profile
// with the trust it asks — and an honest page's denial of the trick stays clear.
func TestFilesHandedOver(t *testing.T) {
	handed := func(c moderation.Capture, file string) moderation.Capture {
		c.Downloads = []string{file}
		return c
	}
	checkSignalCases(t, []signalCase{
		{"an archive made by the page, its password and a deadline", storied(lockedArchiveSignal),
			handed(page("https://dental.example.com/notice/", "Formal notice. Review the evidence within 72 hours. The archive password is CR2026."), "https://dental.example.com/notice/Evidence.zip"),
			weightLockedArchiveDeadline},
		{"an archive made by the page, no password", storied(lockedArchiveSignal),
			handed(page("https://photo.example.com/gallery", "Your gallery: download all photos as one zip."), "https://photo.example.com/gallery/photos.zip"), 0},
		{"a profile whose certificate is to be fully trusted", sideloadSignal,
			handed(page("https://drama.example.app/ios", "立即安裝。打開「設定」→「已下載描述檔」，再到「憑證信任設定」，把安全憑證開啟完全信任。"), "https://drama.example.app/ios/app.mobileconfig"),
			weightSideload},
		{"a university's profile that needs no trust", sideloadSignal,
			handed(page("https://cc.example.edu.tw/eduroam", "本中心提供 eduroam 設定檔，不需要到「憑證信任設定」開啟任何完全信任。"), "https://cc.example.edu.tw/eduroam/eduroam.mobileconfig"), 0},
	})
	if !fieldAsks("mbi", "Medicare Number (on your red, white & blue card)").any(askID) {
		t.Errorf("a Medicare number is not read as an ID number")
	}
	if fieldAsks("combined", "Combined total").any(askID) {
		t.Errorf("a word holding mbi is read as an ID number")
	}
}

// Chinese read with the spaces a screenshot's reading or a kit puts between its characters
// reads as written; spaces between Latin words, and between a Chinese and a Latin word, stay.
func TestFoldJoinsChineseCharacters(t *testing.T) {
	for in, want := range map[string]string{
		"付款 只 走 个 人 微 信 / 支 付 宝": "付款只走个人微信 / 支付宝",
		"内部 名额 不走 票务 平台":         "内部名额不走票务平台",
		"AI 一 键 生成 the app":      "ai 一键生成 the app",
		"年 检 99 元":               "年检 99 元",
	} {
		if got := foldText(in); got != want {
			t.Errorf("foldText(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestStoreNamedAsAChannel: a studio's page offering its own installer beside a link to the
// game's store page names the store as a way to get the game, not as its own dress; a page
// whose title is the store's, or that links to it and wears its name at the top, still is one.
func TestStoreNamedAsAChannel(t *testing.T) {
	installer := func(c moderation.Capture, title, headings string) moderation.Capture {
		c.Title, c.Headings = title, headings
		c.Downloads = []string{"https://www.example-studio.com/files/Game_Setup.exe"}
		return c
	}
	studio := "Option 1: request access on the store page. Option 2: the DRM-free build below."
	checkSignalCases(t, []signalCase{
		{"a studio's installer beside its Steam store page", sideloadSignal,
			installer(withLinks(page("https://www.example-studio.com/playtest", studio), "store.steampowered.com", "www.example-studio.com"),
				"Playtest | Example Studio", "Game / Option 1: Steam Playtest (recommended) / Option 2: DRM-free build"), 0},
		{"an installer under Steam's name, linking to Steam", sideloadSignal,
			installer(withLinks(page("https://www.example-studio.com/playtest", studio), "store.steampowered.com"),
				"Steam Community | Playtest", "Steam Playtest"), weightSideload},
		{"an installer under a Steam heading and Steam's logo, linking to Steam", sideloadSignal,
			withLogo(installer(withLinks(page("https://www.example-studio.com/playtest", studio), "store.steampowered.com"),
				"Playtest", "Steam Playtest"), "Steam"), weightSideload},
		{"an installer under a Steam heading, no link to Steam", sideloadSignal,
			installer(page("https://www.example-studio.com/playtest", studio), "Playtest", "Steam Playtest"), weightSideload},
	})
}

// withLogo is c with a first image whose alternative text is alt: the page's logo.
func withLogo(c moderation.Capture, alt string) moderation.Capture {
	c.Images = append([]moderation.Image{{Host: "www.example-studio.com", Name: "top.png", Alt: alt}}, c.Images...)
	return c
}

// TestPublicBodyOwnForm: a county's transit card query on its government host, asking the
// card's number and the code set when it was bought and sending them to its own site, is the
// county's own service, links to itself or not; the same form sending elsewhere is not, nor the
// same page on a host anyone may register.
func TestPublicBodyOwnForm(t *testing.T) {
	query := func(host string, sends ...string) moderation.Capture {
		c := page("https://"+host+"/faq", "月票回饋金查詢",
			moderation.Form{Action: "https://" + host + "/faq", Card: true, Fields: []string{"card", "pin"}, Hints: []string{"電子票證卡號（卡片背面16碼）", "驗證碼（購買月票時設定之4位數）"}})
		c.Sends = sends
		return c
	}
	checkSignalCases(t, []signalCase{
		{"a county's own query", paymentSignal, query("tpass.example.gov.tw", "https://tpass.example.gov.tw/api/usage"), 0},
		{"a county's host sending elsewhere", paymentSignal, query("tpass.example.gov.tw", "https://collect.example.top/api"), weightCardPIN},
		{"the same query on an open domain", paymentSignal, query("tpass-example.com", "https://tpass-example.com/api/usage"), weightCardPIN},
	})
}
