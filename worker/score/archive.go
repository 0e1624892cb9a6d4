package score

import (
	"fmt"
	"path"
	"strings"

	"github.com/shortlink/shortlink/backend/moderation"
)

// The weights of an archive offered with its password (docs/moderation.md, "Heuristics").
const (
	weightLockedArchive         = 0.5  // an archive and its password, from another site
	weightLockedArchiveDeadline = 0.85 // … to be opened before a deadline
)

var (
	// An archive and the password that opens it: "setup.zip with the password GPT2026",
	// 附件.zip(解压密码:8866). A scanner cannot look inside an archive behind a password: it is
	// how malware passes mail filters and browsers' checks.
	lockedArchiveRE = mustPattern(`\.(?:zip|rar|7z)\b[^.]{0,40}\bpassword\b|\b(?:zip|rar|7z|archive)\b[^.]{0,30}\b(?:with|using) (?:the )?password\b|\b(?:archive|zip) password\b|` +
		`(?:\.(?:zip|rar|7z)|压缩包|压缩文件)[^。]{0,12}(?:解压|打开|提取)?密码|解压密码|解压码`)
	// An archive's file name extension.
	archiveRE = mustPattern(`^\.(?:zip|rar|7z)$`)
	// Opened on a computer: the phone cannot run what the archive holds.
	computerOnlyRE = mustPattern(`\b(?:on|from|use) (?:a|your) (?:computer|pc|laptop|desktop)\b|(?:使用|用|在)电脑(?:上)?(?:下载|打开|查看)|手机无法(?:打开|查看)`)
)

// lockedArchiveSignal weighs a page offering an archive with the password that opens it, its
// links leading to another site or the archive handed over by the page itself: a notice, an invoice or an installer behind a password is one
// no scanner has read. Before a deadline, or to be opened on a computer, it bans: the tax
// "inspection list", the "offline build". An honest download page says it never zips its
// installer with a password; advisories quote the trick and offer nothing.
func lockedArchiveSignal(c moderation.Capture, v storyView) (Signal, bool) {
	host, words, ok := v.host, v.words, v.ok
	if !ok || (len(c.Links) == 0 && len(c.Downloads) == 0) {
		return Signal{}, false
	}
	locked := firstUnnegated(lockedArchiveRE, words)
	if locked == "" {
		return Signal{}, false
	}
	elsewhere := ""
	for _, l := range c.Links {
		if registrableDomain(normalizeHost(l)) != registrableDomain(host) {
			elsewhere = l
			break
		}
	}
	// Or the archive itself, handed over by the page (a file it made, or one it started).
	for _, d := range c.Downloads {
		if elsewhere == "" && archiveRE.MatchString(fileExt(d)) {
			elsewhere = d
		}
	}
	if elsewhere == "" {
		return Signal{}, false
	}
	if why := firstUnnegated(deadlineRE, words) + firstUnnegated(computerOnlyRE, words); why != "" {
		return Signal{"locked-archive", weightLockedArchiveDeadline, CategoryMalware,
			fmt.Sprintf("%s is offered an archive and its password (%q) from %s, %q, on %s", c.Profile, truncate(locked, 40), elsewhere, truncate(why, 30), host)}, true
	}
	return Signal{"locked-archive", weightLockedArchive, CategoryMalware,
		fmt.Sprintf("%s is offered an archive and its password (%q) from %s, on %s", c.Profile, truncate(locked, 40), elsewhere, host)}, true
}

// fileExt is the extension of an address's file, lower case, its query left out: ".zip".
func fileExt(u string) string {
	return strings.ToLower(path.Ext(strings.SplitN(u, "?", 2)[0]))
}
