package qr_test

import (
	"image/color"
	"testing"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/qr"
)

// TestLookNormalize: a saved style is refused for what the image route refuses, with the same
// reasons under the body's field, and written as lowercase #rrggbb with the level in capitals.
func TestLookNormalize(t *testing.T) {
	for _, tc := range []struct {
		in            qr.Look
		want          qr.Look
		reason, field string
		isDefault     bool
	}{
		{in: qr.Look{}, want: qr.Look{FG: "#000000", BG: "#ffffff"}, isDefault: true},
		{in: qr.Look{FG: "1A3C6E", BG: "#FFFFFF", EC: "q", Logo: true}, want: qr.Look{FG: "#1a3c6e", BG: "#ffffff", EC: "Q", Logo: true}},
		{in: qr.Look{EC: "M"}, want: qr.Look{FG: "#000000", BG: "#ffffff", EC: "M"}},
		{in: qr.Look{FG: "#12345"}, reason: "qr_color_invalid", field: "qr.fg"},
		{in: qr.Look{FG: "red"}, reason: "qr_color_invalid", field: "qr.fg"},
		{in: qr.Look{BG: "#gggggg"}, reason: "qr_color_invalid", field: "qr.bg"},
		{in: qr.Look{FG: "#ffffff", BG: "#000000"}, reason: "qr_contrast_low", field: "qr.fg"},
		{in: qr.Look{FG: "#777777", BG: "#888888"}, reason: "qr_contrast_low", field: "qr.fg"},
		{in: qr.Look{EC: "X"}, reason: "value_invalid", field: "qr.ec"},
	} {
		got := tc.in
		err := got.Normalize("qr")
		if tc.reason != "" {
			if apperr.ReasonOf(err) != tc.reason || apperr.FieldOf(err) != tc.field || apperr.CodeOf(err) != apperr.Invalid {
				t.Errorf("%+v: %v (reason %q, field %q); want %s on %s", tc.in, err, apperr.ReasonOf(err), apperr.FieldOf(err), tc.reason, tc.field)
			}
			continue
		}
		if err != nil || got != tc.want || got.IsDefault() != tc.isDefault {
			t.Errorf("%+v: %+v, %v (default %v); want %+v", tc.in, got, err, got.IsDefault(), tc.want)
		}
	}
	// Applied, it is the style the route would have parsed from the same parameters.
	st := qr.Style{Size: 256}
	logo := qr.Look{FG: "#1a3c6e", BG: "#fffff0", EC: "H", Logo: true}.Apply(&st)
	if !logo || st.FG != (color.RGBA{0x1a, 0x3c, 0x6e, 0xff}) || st.BG != (color.RGBA{0xff, 0xff, 0xf0, 0xff}) || st.EC != "H" || st.Size != 256 {
		t.Errorf("applied: %+v, logo %v", st, logo)
	}
}
