package qr

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"strconv"
	"strings"

	qrcode "github.com/skip2/go-qrcode"

	"github.com/shortlink/shortlink/backend/apperr"
)

// Style is how a code is drawn: colours, error correction and an optional logo in the middle.
type Style struct {
	Format string
	Size   int
	FG, BG color.RGBA
	// EC is the error correction level: L, M, Q or H ("" is M); always H with a logo.
	EC string
	// Logo, when set, is a PNG drawn over the middle of the code.
	Logo []byte
}

// MinContrast is the least contrast ratio (WCAG's formula) between the foreground and the
// background; the foreground must also be the darker of the two, as most scanners expect.
const MinContrast = 4.5

// LogoShare is the side of the logo's box over the side of the code (quiet zone excluded):
// 0.22² ≈ 5% of the modules, well within what level Q (25%) or H (30%) restores, leaving
// room for the finder patterns' damage margin.
const LogoShare = 0.22

// ParseColor reads RRGGBB (an optional leading #); field names the parameter for the error.
func ParseColor(s, field string) (color.RGBA, error) {
	s = strings.TrimPrefix(s, "#")
	v, err := strconv.ParseUint(s, 16, 32)
	if len(s) != 6 || err != nil {
		return color.RGBA{}, apperr.Errorf(apperr.Invalid, "%s must be a colour of six hex digits (RRGGBB)", field).For("qr_color_invalid", field)
	}
	return color.RGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 0xff}, nil
}

// Contrast is the WCAG contrast ratio of a and b (1 to 21).
func Contrast(a, b color.RGBA) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

func luminance(c color.RGBA) float64 {
	ch := func(v uint8) float64 {
		x := float64(v) / 255
		if x <= 0.03928 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*ch(c.R) + 0.7152*ch(c.G) + 0.0722*ch(c.B)
}

// level reads the error correction level. A logo always gets H: at Q some sizes of a busy
// logo were found not to decode.
func (s *Style) level() (qrcode.RecoveryLevel, error) {
	lv, err := parseLevel(s.EC, "ec")
	if s.Logo != nil && err == nil {
		lv = qrcode.Highest
	}
	return lv, err
}

// parseLevel reads an error correction level ("" is M); field names it for the error.
func parseLevel(ec, field string) (qrcode.RecoveryLevel, error) {
	switch strings.ToUpper(ec) {
	case "", "M":
		return qrcode.Medium, nil
	case "L":
		return qrcode.Low, nil
	case "Q":
		return qrcode.High, nil
	case "H":
		return qrcode.Highest, nil
	}
	return 0, apperr.Errorf(apperr.Invalid, "%s must be L, M, Q or H", field).For("value_invalid", field)
}

// checkContrast refuses colours too alike for scanners; field names the foreground for the error.
func checkContrast(fg, bg color.RGBA, field string) error {
	if luminance(fg) >= luminance(bg) || Contrast(fg, bg) < MinContrast {
		return apperr.Errorf(apperr.Invalid, "%s and %s are too alike for scanners: the foreground must be darker than the background, with a contrast of at least %.1f:1",
			field, strings.Replace(field, "fg", "bg", 1), MinContrast).For("qr_contrast_low", field)
	}
	return nil
}

// check refuses a style no code is drawn in: a size or format out of range, colours too alike
// for scanners, an unknown level.
func (s *Style) check() error {
	if s.Size < MinSize || s.Size > MaxSize {
		return apperr.Errorf(apperr.Invalid, "size must be %d to %d pixels", MinSize, MaxSize).For("value_invalid", "size")
	}
	if s.Format != PNG && s.Format != SVG && s.Format != "" {
		return apperr.Errorf(apperr.Invalid, "format must be png or svg").For("value_invalid", "format")
	}
	if err := checkContrast(s.FG, s.BG, "fg"); err != nil {
		return err
	}
	_, err := s.level()
	return err
}

// DrawStyled encodes text as Draw does, in st's colours, level and logo. It stops, answering
// ctx's error, once ctx ends: a PNG of the largest size takes tens of milliseconds of a core.
func DrawStyled(ctx context.Context, text string, st Style) (Image, error) {
	if err := st.check(); err != nil {
		return Image{}, err
	}
	lv, err := st.level()
	if err != nil {
		return Image{}, err
	}
	var logo image.Image
	if st.Logo != nil {
		if logo, err = png.Decode(bytes.NewReader(st.Logo)); err != nil {
			return Image{}, apperr.Errorf(apperr.Invalid, "the workspace's logo cannot be read").For("logo_invalid", "logo")
		}
	}
	code, err := qrcode.New(text, lv)
	if err != nil {
		return Image{}, fmt.Errorf("qr: encode: %w", err)
	}
	bits := code.Bitmap()
	if st.Format == SVG {
		return Image{ContentType: "image/svg+xml", Data: styledSVG(bits, st)}, nil
	}
	g := newGrid(len(bits), st.Size)
	img, err := raster(ctx, bits, g, st.FG, st.BG)
	if err != nil {
		return Image{}, err
	}
	if logo != nil {
		x0, y0, side := g.logoBox()
		fill(img, x0-side/10, y0-side/10, side+side/5, st.BG)
		drawScaled(img, logo, x0, y0, side, st.BG)
		redrawAlignment(img, bits, g, x0-side/10, side+side/5, st.FG, st.BG)
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(ctxWriter{ctx, &buf}, img); err != nil {
		return Image{}, fmt.Errorf("qr: png: %w", err)
	}
	return Image{ContentType: "image/png", Data: buf.Bytes()}, nil
}

// ctxWriter fails its writes once ctx has ended, which stops the PNG encoder.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (w ctxWriter) Write(p []byte) (int, error) {
	if err := w.ctx.Err(); err != nil {
		return 0, err
	}
	return w.w.Write(p)
}

// grid places n modules in a size-pixel square: each module px pixels (the same for all, so
// scanners see even modules), the rest a margin of the background, off pixels from the left.
type grid struct{ n, size, px, off int }

func newGrid(n, size int) grid {
	px := max(size/n, 1)
	return grid{n: n, size: size, px: px, off: (size - px*n) / 2}
}

// module is the module under pixel v (a row or column), -1 in the margin.
func (g grid) module(v int) int {
	m := (v - g.off) / g.px
	if v < g.off || m >= g.n {
		return -1
	}
	return m
}

// Modules is how many modules wide (quiet zone included) text's code is at st's level: a
// drawing of it depends on the size only through size/Modules (each module's pixels) and the
// margin left over.
func Modules(text string, st Style) (int, error) {
	lv, err := st.level()
	if err != nil {
		return 0, err
	}
	code, err := qrcode.New(text, lv)
	if err != nil {
		return 0, fmt.Errorf("qr: encode: %w", err)
	}
	return len(code.Bitmap()), nil
}

// logoBox is the logo's square (top left and side, in pixels), centred on the symbol.
func (g grid) logoBox() (x0, y0, side int) {
	side = int(float64(g.px*(g.n-8)) * LogoShare)
	x0 = (g.size - side) / 2
	return x0, x0, side
}

// alignmentCentres are the row (and column) centres of a version's alignment patterns, in
// symbol coordinates (ISO/IEC 18004 Annex E); none for version 1.
func alignmentCentres(version int) []int {
	if version < 2 {
		return nil
	}
	num := version/7 + 2
	step := 26
	if version != 32 {
		step = (version*4 + num*2 + 1) / (num*2 - 2) * 2
	}
	out := make([]int, num)
	out[0] = 6
	for i, pos := num-1, version*4+10; i >= 1; i, pos = i-1, pos-step {
		out[i] = pos
	}
	return out
}

// inAlignment reports whether module (x, y) of a symbol of n modules (quiet zone of four
// included) belongs to an alignment pattern: the logo must never hide one, or scanners lose
// their bearings in the larger versions (7 and up have one in the middle).
func inAlignment(n, x, y int) bool {
	size := n - 8
	version := (size - 17) / 4
	x, y = x-4, y-4
	cs := alignmentCentres(version)
	last := len(cs) - 1
	for i, cy := range cs {
		for j, cx := range cs {
			if (i == 0 && j == 0) || (i == 0 && j == last) || (i == last && j == 0) {
				continue // the finder patterns' corners
			}
			if x >= cx-2 && x <= cx+2 && y >= cy-2 && y <= cy+2 {
				return true
			}
		}
	}
	return false
}

// redrawAlignment paints again the alignment modules under the logo's square at (at, at).
func redrawAlignment(img *image.RGBA, bits [][]bool, g grid, at, side int, fg, bg color.RGBA) {
	for y := at; y < at+side; y++ {
		my := g.module(y)
		for x := at; x < at+side; x++ {
			mx := g.module(x)
			if mx >= 0 && my >= 0 && inAlignment(g.n, mx, my) {
				c := bg
				if bits[my][mx] {
					c = fg
				}
				img.SetRGBA(x, y, c)
			}
		}
	}
}

// raster draws the modules on g, looking at ctx every 64 rows.
func raster(ctx context.Context, bits [][]bool, g grid, fg, bg color.RGBA) (*image.RGBA, error) {
	size := g.size
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	for y := range size {
		if y%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("qr: draw: %w", err)
			}
		}
		my := g.module(y)
		for x := range size {
			c := bg
			if mx := g.module(x); mx >= 0 && my >= 0 && bits[my][mx] {
				c = fg
			}
			i := img.PixOffset(x, y)
			img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, 0xff
		}
	}
	return img, nil
}

func fill(img *image.RGBA, x0, y0, side int, c color.RGBA) {
	for y := y0; y < y0+side; y++ {
		for x := x0; x < x0+side; x++ {
			img.SetRGBA(x, y, c)
		}
	}
}

// drawScaled draws src into the side×side square at (x0, y0), keeping its aspect ratio,
// nearest neighbour, blending its transparency over bg.
func drawScaled(dst *image.RGBA, src image.Image, x0, y0, side int, bg color.RGBA) {
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	if w == 0 || h == 0 {
		return
	}
	dw, dh := side, side
	if w > h {
		dh = side * h / w
	} else {
		dw = side * w / h
	}
	ox, oy := x0+(side-dw)/2, y0+(side-dh)/2
	for y := range dh {
		for x := range dw {
			r, g, bl, a := src.At(b.Min.X+x*w/dw, b.Min.Y+y*h/dh).RGBA()
			blend := func(v uint32, under uint8) uint8 {
				return uint8((v + uint32(under)*(0xffff-a)/0xff) >> 8)
			}
			dst.SetRGBA(ox+x, oy+y, color.RGBA{R: blend(r, bg.R), G: blend(g, bg.G), B: blend(bl, bg.B), A: 0xff})
		}
	}
}

// styledSVG draws the modules as svg does, in st's colours, with the logo (a PNG) embedded as
// a data: URI over a background square in the middle. Nothing of the caller's but colours
// (hex digits) and the PNG's base64 reaches the document.
func styledSVG(bits [][]bool, st Style) []byte {
	n := len(bits)
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" shape-rendering="crispEdges">`, st.Size, st.Size, n, n)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="%s"/><path fill="%s" d="`, hex(st.BG), hex(st.FG))
	for y, row := range bits {
		for x, dark := range row {
			if dark {
				fmt.Fprintf(&b, "M%d %dh1v1h-1z", x, y)
			}
		}
	}
	b.WriteString(`"/>`)
	if st.Logo != nil {
		side := float64(n-8) * LogoShare
		at := (float64(n) - side) / 2
		pad := side / 10
		fmt.Fprintf(&b, `<rect x="%.3f" y="%.3f" width="%.3f" height="%.3f" fill="%s"/>`, at-pad, at-pad, side+2*pad, side+2*pad, hex(st.BG))
		fmt.Fprintf(&b, `<image x="%.3f" y="%.3f" width="%.3f" height="%.3f" preserveAspectRatio="xMidYMid meet" href="data:image/png;base64,%s"/>`,
			at, at, side, side, base64.StdEncoding.EncodeToString(st.Logo))
		// The alignment patterns under the logo, drawn again over it.
		fmt.Fprintf(&b, `<path fill="%s" d="`, hex(st.BG))
		var dark bytes.Buffer
		for y, row := range bits {
			for x, on := range row {
				if !inAlignment(n, x, y) || float64(x+1) < at-pad || float64(x) > at+side+pad || float64(y+1) < at-pad || float64(y) > at+side+pad {
					continue
				}
				if on {
					fmt.Fprintf(&dark, "M%d %dh1v1h-1z", x, y)
				} else {
					fmt.Fprintf(&b, "M%d %dh1v1h-1z", x, y)
				}
			}
		}
		fmt.Fprintf(&b, `"/><path fill="%s" d="%s"/>`, hex(st.FG), dark.String())
	}
	b.WriteString(`</svg>` + "\n")
	return b.Bytes()
}

func hex(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }
