// Package qr draws a short URL as a QR code, in PNG or SVG. The code holds the short URL, not
// the target: editing the link changes where a printed code leads.
package qr

import (
	"bytes"
	"fmt"
	"strconv"

	qrcode "github.com/skip2/go-qrcode"

	"github.com/shortlink/shortlink/backend/apperr"
)

// Formats a code is drawn in.
const (
	PNG = "png"
	SVG = "svg"
)

// Size bounds, in pixels; DefaultSize when none is asked for.
const (
	MinSize     = 64
	MaxSize     = 2048
	DefaultSize = 512
)

// Image is a drawn code and its media type.
type Image struct {
	ContentType string
	Data        []byte
}

// Draw encodes text (medium error correction, a quiet zone of four modules) as a size×size
// image in format. Bad format or size is an invalid error.
func Draw(text, format string, size int) (Image, error) {
	if size < MinSize || size > MaxSize {
		return Image{}, apperr.Errorf(apperr.Invalid, "size must be %d to %d pixels", MinSize, MaxSize).For("value_invalid", "size")
	}
	code, err := qrcode.New(text, qrcode.Medium)
	if err != nil {
		return Image{}, fmt.Errorf("qr: encode: %w", err)
	}
	switch format {
	case PNG, "":
		data, err := code.PNG(size)
		if err != nil {
			return Image{}, fmt.Errorf("qr: png: %w", err)
		}
		return Image{ContentType: "image/png", Data: data}, nil
	case SVG:
		return Image{ContentType: "image/svg+xml", Data: svg(code.Bitmap(), size)}, nil
	default:
		return Image{}, apperr.Errorf(apperr.Invalid, "format must be png or svg").For("value_invalid", "format")
	}
}

// svg draws the module matrix (quiet zone included) with one path, a unit square per dark
// module, scaled to size by the viewBox.
func svg(bits [][]bool, size int) []byte {
	n := strconv.Itoa(len(bits))
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %s %s" shape-rendering="crispEdges">`, size, size, n, n)
	b.WriteString(`<rect width="100%" height="100%" fill="#fff"/><path fill="#000" d="`)
	for y, row := range bits {
		for x, dark := range row {
			if dark {
				fmt.Fprintf(&b, "M%d %dh1v1h-1z", x, y)
			}
		}
	}
	b.WriteString(`"/></svg>` + "\n")
	return b.Bytes()
}
