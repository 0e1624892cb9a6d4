package httpapi

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/audit"
	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/plan"
	"github.com/shortlink/shortlink/backend/stats"
)

func (s *Server) createLink(c *gin.Context) {
	var in link.Input
	if !s.bind(c, &in) {
		return
	}
	l, created, err := s.links.Create(c.Request.Context(), workspaceID(c), userID(c), in)
	if err != nil {
		s.fail(c, err)
		return
	}
	status := http.StatusCreated
	if !created {
		status = http.StatusOK
	}
	jsonLink(c, status, s.answerOne(c, l))
}

type batchRequest struct {
	Links []link.Input `json:"links"`
}

type batchResult struct {
	Link    *linkAnswer  `json:"link,omitempty"`
	Created bool         `json:"created,omitempty"`
	Error   *errorDetail `json:"error,omitempty"`
}

// createLinks makes up to link.MaxBatch links, each row answered on its own. It costs one
// request of the rate limit per row (docs/security.md, "Rate limits").
func (s *Server) createLinks(c *gin.Context) {
	var req batchRequest
	if !s.bind(c, &req) {
		return
	}
	if len(req.Links) == 0 || len(req.Links) > link.MaxBatch {
		s.fail(c, apperr.Errorf(apperr.Invalid, "links must hold 1 to %d links", link.MaxBatch).For("batch_size", "links"))
		return
	}
	if err := s.plans.Require(c.Request.Context(), workspaceID(c), plan.Batch); err != nil {
		s.fail(c, err)
		return
	}
	if !s.charge(c, len(req.Links)) {
		return
	}
	results := s.links.CreateBatch(c.Request.Context(), workspaceID(c), userID(c), req.Links)
	if err := unsaved(c, results); err != nil {
		s.fail(c, err)
		return
	}
	out := make([]batchResult, len(results))
	made := make([]*link.Link, len(results))
	for i, r := range results {
		made[i] = r.Link
	}
	answers := s.answerLinks(c, made)
	for i, r := range results {
		if r.Err != nil {
			code := apperr.CodeOf(r.Err)
			if code == apperr.Internal {
				s.log.Error("batch create row", "row", i, "err", r.Err)
			}
			out[i].Error = &errorDetail{Code: code, Message: apperr.MessageOf(r.Err), Reason: apperr.ReasonOf(r.Err), Field: apperr.FieldOf(r.Err)}
			continue
		}
		out[i].Link, out[i].Created = answers[i], r.Created
	}
	c.JSON(http.StatusOK, gin.H{"results": out})
}

func (s *Server) getLink(c *gin.Context) {
	l, ok := s.pathLink(c)
	if !ok {
		return
	}
	out := s.answerOne(c, l)
	// Only a link the moderation has decided on can have been appealed.
	if l.Moderation.State != "" && s.moderation != nil {
		a, err := s.moderation.AppealOf(c.Request.Context(), workspaceID(c), l.ID)
		if err != nil {
			s.fail(c, err)
			return
		}
		out.Appeal, out.Moderation.Appeal = answerAppeal(a), answerLinkAppeal(a)
	}
	c.JSON(http.StatusOK, out)
}

// sparklineDays is how many days of visits a listing answers per link with with=sparkline.
const sparklineDays = 7

func (s *Server) listLinks(c *gin.Context) {
	f, err := linkFilter(c, time.Now())
	if err != nil {
		s.fail(c, err)
		return
	}
	links, next, err := s.links.List(c.Request.Context(), workspaceID(c), f)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"links": s.answerLinks(c, links), "next_cursor": linkCursor(next, f.Sort)})
}

// linkFilter reads a listing's query at now: q, status, domain, tag, health, sort, cursor, limit, and
// with=sparkline for each link's visits of the last days in tz (UTC by default).
func linkFilter(c *gin.Context, now time.Time) (link.Filter, error) {
	limit, err := intQuery(c, "limit", 50)
	if err != nil {
		return link.Filter{}, err
	}
	f := link.Filter{Query: c.Query("q"), Status: c.Query("status"), Domain: c.Query("domain"),
		AlsoTags: c.QueryArray("tag"), Health: c.Query("health"), Sort: link.Sort(c.Query("sort")), Limit: limit, Archived: c.Query("archived")}
	if f.After, err = parseLinkCursor(c.Query("cursor"), f.Sort); err != nil {
		return link.Filter{}, err
	}
	switch with := c.Query("with"); with {
	case "":
	case "sparkline":
		loc, err := stats.Zone(c.Query("tz"))
		if err != nil {
			return link.Filter{}, err
		}
		f.Days = stats.LastDayBounds(now, loc, sparklineDays)
	default:
		return link.Filter{}, apperr.Errorf(apperr.Invalid, "with must be sparkline, not %q", with).For("value_invalid", "with")
	}
	return f, nil
}

// linkCursor encodes where a page of links ended, for clients, who must treat it as opaque: the
// ID as other listings do, in an order by visits the visits before it ("<visits>.<id>"), in an
// order by update the change's time in microseconds ("u<time>_<id>"), all in base 36. The
// update's separator tells the two apart: visits in base 36 may begin with a "u".
func linkCursor(c *link.Cursor, sort link.Sort) string {
	if c == nil {
		return ""
	}
	if sort.ByUpdate() {
		return "u" + strconv.FormatInt(c.Updated.UnixMicro(), 36) + updateCursorSep + strconv.FormatInt(c.ID, 36)
	}
	if sort.ByVisits() {
		return strconv.FormatInt(c.Visits, 36) + "." + strconv.FormatInt(c.ID, 36)
	}
	return cursor(c.ID)
}

// updateCursorSep parts an order by update's time and ID in its cursor.
const updateCursorSep = "_"

// parseLinkCursor reads a cursor of linkCursor's for a listing by visits or not; nil for none.
func parseLinkCursor(s string, sort link.Sort) (*link.Cursor, error) {
	if s == "" {
		return nil, nil
	}
	bad := apperr.Errorf(apperr.Invalid, "cursor %q is not the next_cursor of a page in this order", s).For("value_invalid", "cursor")
	// Only an order by update reads the "u" (visits or an ID in base 36 may begin with one), and
	// only it has the "_" (a "." before it: cursors given before the separator changed).
	if sort.ByUpdate() {
		rest, ok := strings.CutPrefix(s, "u")
		if !ok {
			return nil, bad
		}
		at, id, pair := strings.Cut(rest, updateCursorSep)
		if !pair {
			at, id, pair = strings.Cut(rest, ".")
		}
		t, err1 := strconv.ParseInt(at, 36, 64)
		i, err2 := strconv.ParseInt(id, 36, 64)
		if !pair || err1 != nil || err2 != nil || t <= 0 || i <= 0 {
			return nil, bad
		}
		return &link.Cursor{ID: i, Updated: time.UnixMicro(t).UTC()}, nil
	}
	if strings.Contains(s, updateCursorSep) {
		return nil, bad
	}
	visits, id, pair := strings.Cut(s, ".")
	if pair != sort.ByVisits() {
		return nil, bad
	}
	if !pair {
		id, visits = visits, "0"
	}
	v, err1 := strconv.ParseInt(visits, 36, 64)
	i, err2 := strconv.ParseInt(id, 36, 64)
	if err1 != nil || err2 != nil || v < 0 || i <= 0 {
		return nil, bad
	}
	return &link.Cursor{ID: i, Visits: v}, nil
}

func (s *Server) lookupLink(c *gin.Context) {
	l, err := s.links.Lookup(c.Request.Context(), workspaceID(c), c.Query("short_url"), c.Query("code"))
	s.replyLink(c, l, err)
}

func (s *Server) updateLink(c *gin.Context) {
	var p link.Patch
	id, ok := s.pathIDAndBody(c, "id", "link", &p)
	if !ok {
		return
	}
	l, err := s.links.Update(c.Request.Context(), workspaceID(c), id, p)
	s.replyLink(c, l, err)
}

func (s *Server) deleteLink(c *gin.Context) {
	if id, ok := s.pathID(c, "id", "link"); ok {
		// The log names the link by what it was once its row is gone (docs/api.md#names-in-the-log).
		var gone map[string]any
		if l, err := s.links.Get(c.Request.Context(), workspaceID(c), id); err == nil {
			gone = map[string]any{"short_url": s.links.ShortURL(l.DomainID, l.Key), "destination_host": audit.Host(l.URL)}
		}
		err := s.links.Delete(c.Request.Context(), workspaceID(c), id)
		if err == nil {
			s.auditedHere(c, audit.LinkDeleted, audit.Target("link", id), gone)
		}
		s.noContent(c, err)
	}
}

// pathLink reads the link the id path parameter names in the caller's workspace, answering
// why when there is none.
func (s *Server) pathLink(c *gin.Context) (*link.Link, bool) {
	id, ok := s.pathID(c, "id", "link")
	if !ok {
		return nil, false
	}
	l, err := s.links.Get(c.Request.Context(), workspaceID(c), id)
	if err != nil {
		s.fail(c, err)
		return nil, false
	}
	return l, true
}

// replyLink answers l, or err when there is one.
func (s *Server) replyLink(c *gin.Context, l *link.Link, err error) {
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, s.answerOne(c, l))
}

// unsaved is the error of a batch that created nothing because the request's deadline passed
// or its client went away while rows were being written: the whole request answers it (503,
// with Retry-After). nil when any row was created or the request's context is live.
func unsaved(c *gin.Context, results []link.Result) error {
	if c.Request.Context().Err() == nil && !deadlinePassed(c) {
		return nil
	}
	var first error
	for _, r := range results {
		if r.Created {
			return nil
		}
		if first == nil && apperr.Is(r.Err, apperr.Unavailable) {
			first = r.Err
		}
	}
	return first
}
