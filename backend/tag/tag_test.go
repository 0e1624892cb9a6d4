package tag

import (
	"slices"
	"strings"
	"testing"

	"github.com/shortlink/shortlink/backend/apperr"
)

func TestName(t *testing.T) {
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{"promo", "promo", true},
		{"  Spring 2026\t", "Spring 2026", true},
		{"漢字", "漢字", true},
		{strings.Repeat("é", MaxNameLength), strings.Repeat("é", MaxNameLength), true},
		{strings.Repeat("a", MaxNameLength+1), "", false},
		{"", "", false},
		{"   ", "", false},
		{"a;b", "", false},
		{"a,b", "", false},
		{"a\nb", "", false},
		{"a\x00", "", false},
		{"\xff", "", false},
	} {
		got, err := Name(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("Name(%q) = %q, %v; want %q ok %v", c.in, got, err, c.want, c.ok)
		}
		if err != nil && apperr.ReasonOf(err) != "tag_name_invalid" {
			t.Errorf("Name(%q): reason %q", c.in, apperr.ReasonOf(err))
		}
	}
}

func TestNames(t *testing.T) {
	got, err := Names([]string{" Promo", "promo", "Spring", "PROMO "}, "tags")
	if err != nil || !slices.Equal(got, []string{"Promo", "Spring"}) {
		t.Fatalf("Names: %v %v", got, err)
	}
	many := make([]string, MaxPerLink+1)
	for i := range many {
		many[i] = strings.Repeat("x", i+1)
	}
	if _, err := Names(many, "tags"); apperr.ReasonOf(err) != "tags_too_many" || apperr.FieldOf(err) != "tags" {
		t.Fatalf("too many: %v", err)
	}
	// The same name many times is one tag.
	if got, err := Names(append(slices.Repeat([]string{"a"}, 30), "A"), "tags"); err != nil || len(got) != 1 {
		t.Fatalf("repeated: %v %v", got, err)
	}
	if _, err := Names([]string{"ok", "a;b"}, "tags_add"); apperr.ReasonOf(err) != "tag_name_invalid" || apperr.FieldOf(err) != "tags_add" {
		t.Fatalf("bad name: %v", err)
	}
}

func TestColor(t *testing.T) {
	for in, want := range map[string]string{"#3B82F6": "#3b82f6", "#000000": "#000000", "#abcdef": "#abcdef"} {
		if got, err := Color(in, "x"); err != nil || got != want {
			t.Errorf("Color(%q) = %q, %v", in, got, err)
		}
	}
	for _, in := range []string{"red", "#fff", "3b82f6", "#3b82f", "#3b82f6a", "#gggggg", " #3b82f6"} {
		if _, err := Color(in, "x"); apperr.ReasonOf(err) != "tag_color_invalid" {
			t.Errorf("Color(%q): %v", in, err)
		}
	}
	// No colour: the palette's, the same for a name in any case.
	a, _ := Color("", "Promo")
	b, _ := Color("", "PROMO")
	if a != b || !slices.Contains(Palette, a) {
		t.Errorf("palette colours %q %q", a, b)
	}
}

func TestSort(t *testing.T) {
	names := []string{"beta", "Alpha", "alpha", "Ω", "10", "Gamma"}
	Sort(names)
	if want := []string{"10", "Alpha", "alpha", "beta", "Gamma", "Ω"}; !slices.Equal(names, want) {
		t.Errorf("Sort: %v, want %v", names, want)
	}
}
