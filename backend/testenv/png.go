package testenv

import (
	"bytes"
	"encoding/base64"
	"image/png"
	"strings"
)

// isPNGDataURL says whether u is a data URL of a PNG image that decodes.
func isPNGDataURL(u string) bool {
	b64, ok := strings.CutPrefix(u, "data:image/png;base64,")
	if !ok {
		return false
	}
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return false
	}
	_, err = png.Decode(bytes.NewReader(raw))
	return err == nil
}
