// A link's own style, kept with the link (docs/api.md#a-links-saved-qr-style): what its code is
// drawn in when the request for the image names no style.

package qr

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Look is a link's saved QR style: the colours as #rrggbb, the error correction level ("" the
// default, M) and whether the workspace's logo is drawn. Its JSON is the API's and the
// column's.
type Look struct {
	FG   string `json:"fg"`
	BG   string `json:"bg"`
	EC   string `json:"ec"`
	Logo bool   `json:"logo"`
}

// UnmarshalJSON reads a style, refusing a field it does not have: a misspelt field read as
// absent would clear the colour it meant to set.
func (l *Look) UnmarshalJSON(b []byte) error {
	type plain Look
	var v plain
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return err
	}
	*l = Look(v)
	return nil
}

// Normalize checks l as the image route checks its parameters, answering the same reasons
// (qr_color_invalid, qr_contrast_low, value_invalid) for the fields under field ("qr.fg"): an
// empty colour is the route's default (black on white). It writes the colours as lowercase
// #rrggbb and the level in capitals.
func (l *Look) Normalize(field string) error {
	fg, err := ParseColor(colourOr(l.FG, "000000"), field+".fg")
	if err != nil {
		return err
	}
	bg, err := ParseColor(colourOr(l.BG, "ffffff"), field+".bg")
	if err != nil {
		return err
	}
	if _, err := parseLevel(l.EC, field+".ec"); err != nil {
		return err
	}
	if err := checkContrast(fg, bg, field+".fg"); err != nil {
		return err
	}
	l.FG, l.BG, l.EC = hex(fg), hex(bg), strings.ToUpper(l.EC)
	return nil
}

// IsDefault reports whether a normalized l is the default style (black on white, no level
// chosen, no logo): a link given it keeps no style.
func (l Look) IsDefault() bool {
	return l.FG == "#000000" && l.BG == "#ffffff" && l.EC == "" && !l.Logo
}

// Apply sets st's colours and level to a normalized l's (format and size stay) and answers
// whether it asks for the logo.
func (l Look) Apply(st *Style) (logo bool) {
	st.FG, _ = ParseColor(l.FG, "fg")
	st.BG, _ = ParseColor(l.BG, "bg")
	st.EC = l.EC
	return l.Logo
}

func colourOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
