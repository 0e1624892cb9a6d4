package visitor

import "testing"

func TestPreferredLang(t *testing.T) {
	for header, want := range map[string]Lang{
		"":                               English,
		"zh-CN,zh;q=0.9,en;q=0.8":        Chinese,
		"zh":                             Chinese,
		"ZH-tw":                          Chinese,
		"zh-Hans-CN":                     Chinese,
		"zh_CN":                          Chinese,
		"en-US,en;q=0.9,zh-CN;q=0.8":     English,
		"en;q=0.5, zh;q=0.8":             Chinese,
		"fr-FR,fr;q=0.9":                 English,
		"*":                              English,
		"zh;q=0, en":                     English,
		"zh;q=0.5, en;q=0.5":             Chinese, // first among equals
		"de;q=1.5, zh;q=0.3":             Chinese, // q out of range: entry ignored
		"de;q=abc, zh-CN;q=0.1":          Chinese,
		" , ;q=1, zh-HK ; q=0.7 ":        Chinese,
		"en-GB;level=1, zh-CN;q=0.9":     Chinese, // an unknown parameter drops the entry
		"zhx-CN":                         English,
		"ja,zh-CN;q=0.9":                 English,
		"zh-CN;Q=0.9, en;q=0.8":          Chinese,
		"en-US,en;q=0.9,zh-CN;q=0.99999": English, // en-US is q=1
	} {
		if got := PreferredLang(header); got != want {
			t.Errorf("PreferredLang(%q) = %q, want %q", header, got, want)
		}
	}
}

func FuzzPreferredLang(f *testing.F) {
	f.Add("zh-CN,zh;q=0.9,en;q=0.8")
	f.Fuzz(func(t *testing.T, h string) {
		if l := PreferredLang(h); l != English && l != Chinese {
			t.Fatalf("%q", l)
		}
	})
}
