package httpapi

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/audit"
	"github.com/shortlink/shortlink/backend/share"
	"github.com/shortlink/shortlink/backend/stats"
)

// linkToolRoutes are a link's duplicate and its shared statistics (docs/api.md#duplicate-a-link,
// docs/api.md#shared-statistics): the owners' routes in ws, the public read in api.
func (s *Server) linkToolRoutes(api, ws *gin.RouterGroup) {
	ws.POST("/links/:id/duplicate", s.inWorkspace(account.PermLinksWrite), s.duplicateLink)
	ws.POST("/links/:id/share", s.inWorkspace(account.PermLinksWrite), s.shareLink)
	ws.GET("/links/:id/share", s.inWorkspace(account.PermStatsRead), s.listShares)
	ws.DELETE("/links/:id/share/:share_id", s.inWorkspace(account.PermLinksWrite), s.revokeShare)
	api.GET("/share/:id/stats", s.sharedStats)
}

func (s *Server) duplicateLink(c *gin.Context) {
	id, ok := s.pathID(c, "id", "link")
	if !ok {
		return
	}
	l, err := s.links.Duplicate(c.Request.Context(), workspaceID(c), userID(c), id)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusCreated, s.answerOne(c, l))
}

// shareAnswer is a share as its link's owners see it: url is the public page.
type shareAnswer struct {
	ID        string    `json:"id"`
	URL       string    `json:"url"`
	LinkID    int64     `json:"link_id"`
	CreatedBy *int64    `json:"created_by,omitempty"`
	CreatedAt time.Time `json:"created_at"`
}

func (s *Server) answerShare(sh share.Share) shareAnswer {
	return shareAnswer{ID: sh.ID, URL: s.shareURL + sh.ID, LinkID: sh.LinkID, CreatedBy: sh.CreatedBy, CreatedAt: sh.CreatedAt}
}

func (s *Server) shareLink(c *gin.Context) {
	id, ok := s.pathID(c, "id", "link")
	if !ok {
		return
	}
	sh, err := s.shares.Create(c.Request.Context(), workspaceID(c), userID(c), id)
	if err != nil {
		s.fail(c, err)
		return
	}
	// The audit names the share by the start of its ID only: the log's readers need not hold
	// the page's address.
	s.auditedHere(c, audit.LinkShared, audit.Target("link", id), map[string]any{"share": sh.ID[:6]})
	c.JSON(http.StatusCreated, s.answerShare(*sh))
}

func (s *Server) listShares(c *gin.Context) {
	id, ok := s.pathID(c, "id", "link")
	if !ok {
		return
	}
	list, err := s.shares.List(c.Request.Context(), workspaceID(c), id)
	if err != nil {
		s.fail(c, err)
		return
	}
	out := make([]shareAnswer, len(list))
	for i, sh := range list {
		out[i] = s.answerShare(sh)
	}
	c.JSON(http.StatusOK, gin.H{"shares": out})
}

func (s *Server) revokeShare(c *gin.Context) {
	id, ok := s.pathID(c, "id", "link")
	if !ok {
		return
	}
	shareID := c.Param("share_id")
	err := s.shares.Revoke(c.Request.Context(), workspaceID(c), id, shareID)
	if err == nil {
		s.auditedHere(c, audit.LinkShareRevoked, audit.Target("link", id), map[string]any{"share": shareID[:6]})
	}
	s.noContent(c, err)
}

// sharedStats is the public read of a share: no account, counted by the client's address as
// every public route. Any share that cannot be shown answers the same 404.
func (s *Server) sharedStats(c *gin.Context) {
	id := c.Param("id")
	if !share.ValidID(id) {
		s.fail(c, apperr.Errorf(apperr.NotFound, "share not found").For("share_not_found", ""))
		return
	}
	r, err := statsQuery(c).Range(time.Now(), stats.LinkDays)
	if err != nil {
		s.fail(c, err)
		return
	}
	f, err := stats.ParseFilter(c.Request.URL.Query())
	if err != nil {
		s.fail(c, err)
		return
	}
	p, err := s.shares.Read(c.Request.Context(), id, r, f)
	s.replyNoStore(c, p, err)
}
