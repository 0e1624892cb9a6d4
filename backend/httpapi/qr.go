package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/apperr"

	"github.com/shortlink/shortlink/backend/qr"
)

// linkQR draws the link's short URL as a QR code:
// ?format=png|svg&size=pixels&fg=RRGGBB&bg=RRGGBB&ec=L|M|Q|H&logo=1. A code this node has
// drawn before is answered from its cache; one it draws costs the workspace's rate limit by its
// size and waits for one of the node's image slots (docs/api.md, What a code
// costs).
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
	img, err := s.codes.Get(ctx, req, func() error { return s.chargeErr(c, req.Cost()) })
	if err != nil {
		s.fail(c, err)
		return
	}
	// The short URL never changes, but the logo may: private because it needs credentials,
	// and short when a logo is drawn.
	if req.Logo {
		c.Header("Cache-Control", "private, max-age=60")
	} else {
		c.Header("Cache-Control", "private, max-age=86400")
	}
	c.Data(http.StatusOK, img.ContentType, img.Data)
}
