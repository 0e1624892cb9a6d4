package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/locale"
)

type updateMeRequest struct {
	// Language is the one the person reads mails in: "en" or "zh" (docs/web-app.md#language-errors-and-confirmations).
	Language *string `json:"language"`
}

// updateMe changes the signed-in person's own settings: today the language of their mails,
// which the web app sets when they pick one.
func (s *Server) updateMe(c *gin.Context) {
	if !s.requireUser(c) {
		return
	}
	var in updateMeRequest
	if !s.bind(c, &in) {
		return
	}
	ctx := c.Request.Context()
	u, err := s.accounts.User(ctx, userID(c))
	if err == nil && in.Language != nil {
		var lang locale.Tag
		if lang, err = account.ParseLanguage(*in.Language); err == nil {
			u, err = s.accounts.SetLanguage(ctx, u.ID, lang)
		}
	}
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"user": u})
}

// signupLanguage is the language a sign-up asked for, or the one its browser prefers.
func signupLanguage(c *gin.Context, asked *string) (locale.Tag, error) {
	if asked != nil {
		return account.ParseLanguage(*asked)
	}
	return locale.FromAcceptLanguage(c.GetHeader("Accept-Language")), nil
}
