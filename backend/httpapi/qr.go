package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/apperr"

	"github.com/shortlink/shortlink/backend/qr"
)

// qrStyleParams are the image route's style parameters: a request naming none of them is
// drawn in the link's saved style (docs/api.md#a-links-saved-qr-style).
var qrStyleParams = []string{"fg", "bg", "ec", "logo"}

// linkQR draws the link's short URL as a QR code:
// ?format=png|svg&size=pixels&fg=RRGGBB&bg=RRGGBB&ec=L|M|Q|H&logo=1, or, with none of fg, bg,
// ec and logo, in the link's saved style. A code this node has drawn before is answered from
// its cache; one it draws costs the workspace's rate limit by its size and waits for one of
// the node's image slots (docs/api.md, What a code costs).
func (s *Server) linkQR(c *gin.Context) {
	id, ok := s.pathID(c, "id", "link")
	if !ok {
		return
	}
	size, err := intQuery(c, "size", qr.DefaultSize)
	if err != nil {
		s.fail(c, err)
		return
	}
	req := qr.Request{WorkspaceID: workspaceID(c), LinkID: id,
		Style: qr.Style{Format: c.DefaultQuery("format", qr.PNG), Size: size, EC: c.Query("ec")}}
	if req.Style.FG, err = qr.ParseColor(c.DefaultQuery("fg", "000000"), "fg"); err != nil {
		s.fail(c, err)
		return
	}
	if req.Style.BG, err = qr.ParseColor(c.DefaultQuery("bg", "ffffff"), "bg"); err != nil {
		s.fail(c, err)
		return
	}
	switch c.Query("logo") {
	case "", "0", "false":
	case "1", "true":
		req.Logo = true
	default:
		s.fail(c, apperr.Errorf(apperr.Invalid, "logo must be 1 or 0").For("value_invalid", "logo"))
		return
	}
	ctx := c.Request.Context()
	l, err := s.links.Get(ctx, req.WorkspaceID, id)
	if err != nil {
		s.fail(c, err)
		return
	}
	req.Text = l.ShortURL
	saved := !anyQuery(c, qrStyleParams)
	if saved && l.QR != nil {
		req.Logo = l.QR.Apply(&req.Style)
	}
	img, err := s.codes.Get(ctx, req, func() error { return s.chargeErr(c, req.Cost()) })
	if saved && req.Logo && apperr.ReasonOf(err) == "logo_missing" {
		// A saved style keeps drawing after the workspace's logo is removed: without it.
		req.Logo = false
		img, err = s.codes.Get(ctx, req, func() error { return s.chargeErr(c, req.Cost()) })
	}
	if err != nil {
		s.fail(c, err)
		return
	}
	// The short URL never changes, but the logo and the link's saved style may: private because
	// it needs credentials, short when a logo is drawn, and asked again each time when it
	// follows the saved style.
	switch {
	case saved:
		c.Header("Cache-Control", "private, no-cache")
	case req.Logo:
		c.Header("Cache-Control", "private, max-age=60")
	default:
		c.Header("Cache-Control", "private, max-age=86400")
	}
	c.Data(http.StatusOK, img.ContentType, img.Data)
}

// anyQuery reports whether the request's query names any of params, even empty.
func anyQuery(c *gin.Context, params []string) bool {
	for _, p := range params {
		if _, ok := c.GetQuery(p); ok {
			return true
		}
	}
	return false
}
