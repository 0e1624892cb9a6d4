package score

import (
	"fmt"

	"github.com/shortlink/shortlink/backend/moderation"
)

// weightViewerInstall is a document said shared with the reader that opens only in a reader,
// a viewer, an extension or a font the page has them install (docs/moderation.md, "Heuristics").
const weightViewerInstall = 0.85

var (
	// A document of the reader's own, or said protected: "was shared with you", "this document
	// is protected", 文件已加密.
	ownDocumentRE = mustPattern(`(?:was|were|has been|have been) shared with you|shared (?:a |an |the )?(?:document|file|pdf|folder)s? with you|sent you (?:a |an )?(?:document|file|pdf|invoice|fax|voicemail)|` +
		`(?:this|the|your) (?:document|file|pdf|attachment|invoice|fax|video|voicemail) (?:is|was) (?:protected|encrypted|secured|locked)|protected (?:document|file|pdf)|` +
		`(?:文件|文档|附件)(?:已|被)?(?:加密|保护)|(?:分享|共享|发送)(?:给)?(?:您|你)的(?:文件|文档|附件)`)
	// To open it, something is to be installed first: an extension, a plug-in, a reader, a
	// viewer, a player, a codec or a font.
	installViewerRE = mustPattern(`\b(?:add|install|download|enable|update)\b[^.]{0,50}\b(?:extension|add-on|plug-?in|reader|viewer|player|codec|font)\b[^.]{0,30}(?:to (?:your )?browser|to (?:open|view|read|play|see)|first)|` +
		`\bto (?:open|view|read|play|see) (?:it|this|the (?:document|file|pdf|video))\b[^.]{0,40}\b(?:add|install|download|enable|update)\b[^.]{0,40}\b(?:extension|add-on|plug-?in|reader|viewer|player|codec|font)\b|` +
		`(?:安装|下载|添加|更新)[^。]{0,12}(?:插件|扩展|阅读器|查看器|播放器|字体|控件)`)
)

// viewerInstallSignal weighs a page telling its reader that a document shared with them, or
// protected, opens only once they install an extension, a reader, a player or a font — the
// "secure viewer" and "missing plug-in" lures that deliver an extension or a program. A
// vendor's download page offers its reader for everyone's documents, a library its extension
// for its databases: neither speaks of the reader's own document.
func viewerInstallSignal(c moderation.Capture, v storyView) (Signal, bool) {
	host, words, ok := v.host, v.words, v.ok
	if !ok {
		return Signal{}, false
	}
	doc := firstUnnegated(ownDocumentRE, words)
	if doc == "" {
		return Signal{}, false
	}
	install := firstUnnegated(installViewerRE, words)
	if install == "" {
		return Signal{}, false
	}
	return Signal{"viewer-install", weightViewerInstall, CategoryMalware,
		fmt.Sprintf("%s is told a document is its own (%q) and to install something to open it (%q), on %s", c.Profile, truncate(doc, 40), truncate(install, 60), host)}, true
}
