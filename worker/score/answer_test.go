package score

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseAnswer(t *testing.T) {
	long := strings.Repeat("é", 600)
	good := []struct {
		in   string
		want answer
	}{
		{`{"score": 0.95, "category": "phishing", "reason": "PayPal log-in on a look-alike."}`, answer{0.95, "phishing", "PayPal log-in on a look-alike."}},
		{` {"score":0,"category":"Benign","reason":" An  ordinary\npage. ","confidence":0.9} `, answer{0, "benign", "An ordinary page."}},
		{`{"score": 1, "category": "malware", "reason": "x"}`, answer{1, "malware", "x"}},
		{`{"score": -0, "category": "spam", "reason": "x"}`, answer{0, "spam", "x"}},
		{"```json\n{\"score\": 0.5, \"category\": \"cloaking\", \"reason\": \"r\"}\n```", answer{0.5, "cloaking", "r"}},
		{"<think>The title says PayPal…</think>\n{\"score\": 0.9, \"category\": \"phishing\", \"reason\": \"r\"}", answer{0.9, "phishing", "r"}},
		{`{"score": 0.2, "category": "scam", "reason": "` + long + `"}`, answer{0.2, "scam", strings.Repeat("é", MaxReason-1) + "…"}},
	}
	for _, tt := range good {
		got, err := parseAnswer(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("parseAnswer(%.60q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
		}
	}
	bad := []string{
		``, `   `, `null`, `[]`, `"phishing"`, `The page is phishing.`,
		`{"category": "phishing", "reason": "r"}`,
		`{"score": null, "category": "phishing", "reason": "r"}`,
		`{"score": "0.9", "category": "phishing", "reason": "r"}`,
		`{"score": true, "category": "phishing", "reason": "r"}`,
		`{"score": 1.5, "category": "phishing", "reason": "r"}`,
		`{"score": -0.1, "category": "phishing", "reason": "r"}`,
		`{"score": 1e400, "category": "phishing", "reason": "r"}`,
		`{"score": 0.9, "category": "fraud", "reason": "r"}`,
		`{"score": 0.9, "category": 3, "reason": "r"}`,
		`{"score": 0.9, "reason": "r"}`,
		`{"score": 0.9, "category": "phishing"}`,
		`{"score": 0.9, "category": "phishing", "reason": " \n "}`,
		`{"score": 0.9, "category": "phishing", "reason": "r"} {"score": 0.1}`,
		`{"score": 0.9, "category": "phishing", "reason": "r"`,
		"<think>unfinished",
		"```json\n{\"score\": 0.5, \"category\": \"benign\", \"reason\": \"r\"}",
	}
	for _, in := range bad {
		if got, err := parseAnswer(in); err == nil {
			t.Errorf("parseAnswer(%q) = %+v, want an error", in, got)
		}
	}
}

func FuzzParseAnswer(f *testing.F) {
	for _, s := range []string{
		`{"score": 0.95, "category": "phishing", "reason": "PayPal log-in on a look-alike."}`,
		`{"score": 1e-3, "category": "BENIGN", "reason": "ok", "extra": [1, {"a": null}]}`,
		"```json\n{\"score\": 0.5, \"category\": \"cloaking\", \"reason\": \"r\"}\n```",
		"<think>x</think>{\"score\": 0, \"category\": \"spam\", \"reason\": \"\\u00e9\"}",
		`{"score": "0.9"}`, `{}`, `[`, "\xff",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		a, err := parseAnswer(in)
		if err != nil {
			return
		}
		if !(a.Score >= 0 && a.Score <= 1) {
			t.Fatalf("score %v out of [0,1]", a.Score)
		}
		if !knownCategory(a.Category) {
			t.Fatalf("category %q", a.Category)
		}
		if strings.TrimSpace(a.Reason) == "" || utf8.RuneCountInString(a.Reason) > MaxReason || !utf8.ValidString(a.Reason) {
			t.Fatalf("reason %q", a.Reason)
		}
	})
}
