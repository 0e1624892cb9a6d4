package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/apperr"

	"github.com/shortlink/shortlink/backend/qr"
)

// linkQR draws the link's short URL as a QR code:
// ?format=png|svg&size=pixels&fg=RRGGBB&bg=RRGGBB&ec=L|M|Q|H&logo=1.
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
	st := qr.Style{Format: c.DefaultQuery("format", qr.PNG), Size: size, EC: c.Query("ec")}
	if st.FG, err = qr.ParseColor(c.DefaultQuery("fg", "000000"), "fg"); err != nil {
		s.fail(c, err)
		return
	}
	if st.BG, err = qr.ParseColor(c.DefaultQuery("bg", "ffffff"), "bg"); err != nil {
		s.fail(c, err)
		return
	}
	logo := c.Query("logo")
	ctx := c.Request.Context()
	l, err := s.links.Get(ctx, workspaceID(c), id)
	if err != nil {
		s.fail(c, err)
		return
	}
	switch logo {
	case "", "0", "false":
	case "1", "true":
		if st.Logo, err = s.logos.Get(ctx, workspaceID(c)); err != nil {
			s.fail(c, err)
			return
		}
	default:
		s.fail(c, apperr.Errorf(apperr.Invalid, "logo must be 1 or 0").For("value_invalid", "logo"))
		return
	}
	img, err := qr.DrawStyled(l.ShortURL, st)
	if err != nil {
		s.fail(c, err)
		return
	}
	// The short URL never changes, but the logo may: private because it needs credentials,
	// and short when a logo is drawn.
	if st.Logo != nil {
		c.Header("Cache-Control", "private, max-age=60")
	} else {
		c.Header("Cache-Control", "private, max-age=86400")
	}
	c.Data(http.StatusOK, img.ContentType, img.Data)
}
