package score

import (
	"fmt"
	"strings"

	"github.com/shortlink/shortlink/backend/moderation"
)

// weightHiddenCommand is the weight of a command a page's "Copy" puts on the clipboard without
// showing it: the reader is to paste and run what they never saw (docs/moderation.md).
const weightHiddenCommand = 0.9

// commandRE finds a command line that fetches, decodes or runs something: a shell or script
// host of Windows or macOS, a download piped into a shell, a base64 decode.
var commandRE = mustPattern(`(?i)\b(?:powershell|pwsh)(?:\.exe)?\b|\bcmd(?:\.exe)?\s+/[ck]\b|` +
	`\b(?:mshta|rundll32|regsvr32|certutil|bitsadmin|wscript|cscript|msiexec|conhost|forfiles)(?:\.exe)?\b|` +
	`\b(?:iex|iwr|irm)\b|invoke-(?:expression|webrequest|restmethod)|downloadstring|frombase64string|\bstart-process\b|` +
	`\b(?:curl|wget)\b[^\n|]*\|\s*(?:sudo\s+)?(?:ba|z)?sh\b|\b(?:ba|z)?sh\s+-c\b|\bosascript\b|\bbase64\s+(?:-d|-D|--decode)\b`)

// hiddenCommandSignal weighs what the page's scripts put on the clipboard (the browser presses
// a "Copy" button as it presses a gate): a command line that the page's own words do not show.
// An honest page copies what it shows — an install line, a path, a code; a kit shows a path or
// a "verification code" and copies a command that fetches and runs its program, for the reader
// to paste into the run box, a terminal or the file manager's address bar.
func hiddenCommandSignal(c moderation.Capture) (Signal, bool) {
	shown := squashSpace(c.Title + " " + c.Text + " " + c.OCRText)
	for _, t := range c.Clipboard {
		m := commandRE.FindString(t)
		if m == "" || strings.Contains(shown, squashSpace(strings.TrimPrefix(strings.TrimSpace(t), "$ "))) {
			continue
		}
		return Signal{"hidden-command", weightHiddenCommand, CategoryMalware,
			fmt.Sprintf("%s's page puts on the clipboard a command it does not show (%q): %q", c.Profile, m, truncate(t, 120))}, true
	}
	return Signal{}, false
}

// lineContinuations are the shells' (sh, PowerShell, cmd) ends of a line that goes on.
var lineContinuations = strings.NewReplacer("\\\n", " ", "`\n", " ", "^\n", " ")

// squashSpace is s on one line (oneLine), its line continuations gone.
func squashSpace(s string) string { return oneLine(lineContinuations.Replace(s)) }
