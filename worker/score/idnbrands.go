package score

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// namedInScript says whether an internationalized host spells one of the brand's Chinese names
// in its own script (国家电网缴费.com, 工商银行-认证.com): a host that reads as the brand's
// name to its readers, as a look-alike's Latin letters do.
func (b *brand) namedInScript(host string, words []string) (string, bool) {
	for _, name := range b.names {
		if r, _ := utf8.DecodeRuneInString(name); r < 0x2E80 || utf8.RuneCountInString(name) < 2 {
			continue
		}
		for _, w := range words {
			if strings.Contains(w, name) {
				return fmt.Sprintf("%s spells %s's name %s in its host", host, b.keys[0], name), true
			}
		}
	}
	return "", false
}
