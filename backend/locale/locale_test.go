package locale

import "testing"

func TestFromAcceptLanguage(t *testing.T) {
	for header, want := range map[string]Tag{
		"":                           English,
		"zh-CN,zh;q=0.9,en;q=0.8":    Chinese,
		"zh-TW":                      Chinese,
		"zh-Hant-HK":                 Chinese,
		"en-US,en;q=0.9":             English,
		"fr-FR,fr;q=0.9":             English,
		"fr-FR,zh;q=0.5":             Chinese,
		"en;q=0.2,zh;q=0.9":          Chinese,
		"*":                          English,
		"not a header;;;q=banana,,,": English,
	} {
		if got := FromAcceptLanguage(header); got != want {
			t.Errorf("FromAcceptLanguage(%q) = %q, want %q", header, got, want)
		}
	}
}

func TestParse(t *testing.T) {
	for in, want := range map[string]bool{"en": true, "zh": true, " ZH ": true, "zh-CN": false, "fr": false, "": false} {
		if _, ok := Parse(in); ok != want {
			t.Errorf("Parse(%q) ok = %v, want %v", in, ok, want)
		}
	}
	if Of("zh") != Chinese || Of("xx") != English || Chinese.Pick("a", "b") != "b" || English.Pick("a", "b") != "a" {
		t.Error("Of or Pick")
	}
}
