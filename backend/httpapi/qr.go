package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/qr"
)

// linkQR draws the link's short URL as a QR code: ?format=png|svg&size=pixels.
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
	l, err := s.links.Get(c.Request.Context(), workspaceID(c), id)
	if err != nil {
		s.fail(c, err)
		return
	}
	img, err := qr.Draw(l.ShortURL, c.DefaultQuery("format", qr.PNG), size)
	if err != nil {
		s.fail(c, err)
		return
	}
	// The image only changes with the short URL, which never changes; private because it
	// needs credentials.
	c.Header("Cache-Control", "private, max-age=86400")
	c.Data(http.StatusOK, img.ContentType, img.Data)
}
