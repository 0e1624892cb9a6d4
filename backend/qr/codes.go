package qr

import (
	"context"
	"fmt"
	"strings"

	"github.com/maypok86/otter/v2"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
	"golang.org/x/sync/singleflight"
)

// codes counts the codes answered, by where they came from: this node's cache, a drawing, or
// nowhere because every image slot stayed busy.
var codes = promauto.NewCounterVec(prometheus.CounterOpts{
	Name: "shortlink_qr_codes_total",
	Help: "QR codes asked for, by source (cache, drawn, busy: refused with every image slot busy).",
}, []string{"source"})

var (
	codesCached = codes.WithLabelValues("cache")
	codesDrawn  = codes.WithLabelValues("drawn")
	codesBusy   = codes.WithLabelValues("busy")
)

// CostPixels is the area one request of the API's rate limit pays for: a PNG code costs one
// request per CostPixels of its area, started (docs/api.md, What a code costs).
const CostPixels = 512 * 512

// Request is one code asked for: a link's short URL in a style. Logo asks for the workspace's
// logo in the middle (Style.Logo is not read).
type Request struct {
	WorkspaceID, LinkID int64
	// Text is what the code holds: the link's short URL.
	Text  string
	Style Style
	Logo  bool
}

// Cost is what drawing r costs the API's rate limit, in requests: a PNG one per CostPixels of
// its area, started (512 pixels or less 1, 1024 pixels 4, 2048 pixels 16); an SVG, whose size
// is only a number in it, 1.
func (r Request) Cost() int {
	if r.Style.Format == SVG {
		return 1
	}
	return max(1, (r.Style.Size*r.Style.Size+CostPixels-1)/CostPixels)
}

// key names r's code in the cache: everything the image depends on, the logo by its version.
// A link whose short URL changes (its domain removed) has other keys; so has a workspace's
// every code with a logo once the logo is replaced.
func (r Request) key(logoVersion int64) string {
	st := r.Style
	format, ec := st.Format, strings.ToUpper(st.EC)
	if format == "" {
		format = PNG
	}
	if ec == "" {
		ec = "M"
	}
	if r.Logo {
		ec = "H"
	} else {
		logoVersion = 0
	}
	return fmt.Sprintf("%d/%d/%s/%d/%s/%s/%s/%d/%s", r.WorkspaceID, r.LinkID, format, st.Size, hex(st.FG), hex(st.BG), ec, logoVersion, r.Text)
}

// Codes draws links' codes, at most as many at once as its slots, and keeps the drawn ones in
// memory up to a number of bytes: a code asked for again (a dashboard that shows it, a page
// reloaded, a printer's retries) costs neither a drawing nor a slot. Codes asked for at the
// same time with the same key are drawn once.
type Codes struct {
	logos   *Logos
	slots   *Slots
	cache   *otter.Cache[string, Image] // nil keeps nothing
	drawing singleflight.Group
}

// CodesOptions configure Codes.
type CodesOptions struct {
	Logos *Logos
	Slots *Slots
	// CacheBytes bounds the codes kept (their bytes and keys); 0 keeps none.
	CacheBytes int64
}

// NewCodes returns the codes' service.
func NewCodes(o CodesOptions) *Codes {
	c := &Codes{logos: o.Logos, slots: o.Slots}
	if o.CacheBytes > 0 {
		c.cache = otter.Must(&otter.Options[string, Image]{
			MaximumWeight: uint64(o.CacheBytes),
			Weigher: func(key string, img Image) uint32 {
				return uint32(len(key) + len(img.Data) + len(img.ContentType) + 64)
			},
		})
	}
	return c
}

// Get answers r's code: from this node's cache when it holds it, else drawn in one of the
// slots, then kept. charge, when set, is called before a code is drawn (never for one served
// from the cache), and its error answered instead: the rate limit's cost of a drawing.
// Returns invalid for a style no code is drawn in, not_found (logo_missing) for a logo the
// workspace has not, unavailable (a *BusyError) when no slot freed up in time, and ctx's error
// once ctx ends; the drawing stops then too, giving its slot back.
func (c *Codes) Get(ctx context.Context, r Request, charge func() error) (Image, error) {
	if err := r.Style.check(); err != nil {
		return Image{}, err
	}
	var version int64
	if r.Logo {
		var err error
		if version, err = c.logos.Version(ctx, r.WorkspaceID); err != nil {
			return Image{}, err
		}
	}
	key := r.key(version)
	if c.cache != nil {
		if img, ok := c.cache.GetIfPresent(key); ok {
			codesCached.Inc()
			return img, nil
		}
	}
	if charge != nil {
		if err := charge(); err != nil {
			return Image{}, err
		}
	}
	return shared(ctx, &c.drawing, key, func(ctx context.Context) (Image, error) {
		return c.draw(ctx, r, key)
	})
}

// draw draws r's code and keeps it under key, or under the key of the logo's version read
// now, should the logo have changed since key was made.
func (c *Codes) draw(ctx context.Context, r Request, key string) (Image, error) {
	st := r.Style
	st.Logo = nil
	if r.Logo {
		// Read (and, for an old logo, normalised) before a slot is taken: normalising takes
		// one of its own.
		l, err := c.logos.Get(ctx, r.WorkspaceID)
		if err != nil {
			return Image{}, err
		}
		st.Logo, key = l.Data, r.key(l.Version)
	}
	release, err := c.slots.Acquire(ctx)
	if err != nil {
		return Image{}, err
	}
	img, err := DrawStyled(ctx, r.Text, st)
	release()
	if err != nil {
		return Image{}, err
	}
	codesDrawn.Inc()
	if c.cache != nil {
		c.cache.Set(key, img)
	}
	return img, nil
}
