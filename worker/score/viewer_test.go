package score

import "testing"

// TestViewerInstall: a document said the reader's own that opens only after an install is a
// lure; a library's extension and a reader's download page are not.
func TestViewerInstall(t *testing.T) {
	checkSignalCases(t, []signalCase{
		{"a shared file behind an extension", storied(viewerInstallSignal), page("https://docs-view.example.io/q4",
			`This document is protected. "Q4 Vendor Payment Schedule.pdf" was shared with you. To open it, add the free SecureView reader to your browser.`), weightViewerInstall},
		{"a video behind a codec, in Chinese", storied(viewerInstallSignal), page("https://v.example.top/",
			"分享给您的文件已加密，请先安装专用播放器插件后观看。"), weightViewerInstall},
		{"a library's own extension", storied(viewerInstallSignal), page("https://library.example.edu/access",
			"Off campus? Add the library access extension to your browser to reach our databases with your student sign-in."), 0},
		{"a reader's download page", storied(viewerInstallSignal), page("https://reader.example.com/download",
			"Download Acme Reader, the free PDF viewer. Install it to open any PDF on your computer."), 0},
		{"an advisory", storied(viewerInstallSignal), page("https://bank.example.com/security",
			"Fraudsters say a document was shared with you and ask you to install a viewer extension to open it. Never install it."), 0},
	})
}
