package httpapi

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/plan"
	"github.com/shortlink/shortlink/backend/stats"
	"github.com/shortlink/shortlink/backend/tag"
)

// statsQuery is the range a statistics request names (from, to, tz).
func statsQuery(c *gin.Context) stats.Query {
	return stats.Query{From: c.Query("from"), To: c.Query("to"), TZ: c.Query("tz")}
}

// linkStats answers a link's visits over a range: totals, series and breakdowns, of the visits
// the filter parameters name only when there are some. Statistics are on every plan.
func (s *Server) linkStats(c *gin.Context) {
	id, ok := s.pathID(c, "id", "link")
	if !ok {
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
	st, err := s.stats.LinkFiltered(c.Request.Context(), workspaceID(c), id, r, f)
	s.replyNoStore(c, st, err)
}

// workspaceStats answers the workspace's dashboard over whole days (the last 14 unless from
// and to say otherwise): the dashboard feature.
func (s *Server) workspaceStats(c *gin.Context) {
	r, err := statsQuery(c).DashboardRange(time.Now())
	if err != nil {
		s.fail(c, err)
		return
	}
	if err := noFilter(c); err != nil {
		s.fail(c, err)
		return
	}
	ctx := c.Request.Context()
	if err := s.plans.Require(ctx, workspaceID(c), plan.Dashboard); err != nil {
		s.fail(c, err)
		return
	}
	tagID, ok := s.queryTag(c)
	if !ok {
		return
	}
	var d *stats.Dashboard
	if tagID == 0 {
		d, err = s.stats.Workspace(ctx, workspaceID(c), r)
	} else {
		d, err = s.stats.WorkspaceTagged(ctx, workspaceID(c), tagID, r)
	}
	s.replyNoStore(c, d, err)
}

// noFilter answers invalid (filter_unsupported) for a request that names a filter of a link's
// statistics: the dashboard reads the workspace's sums, which hold no breakdowns to filter by.
func noFilter(c *gin.Context) error {
	q := c.Request.URL.Query()
	for _, p := range stats.FilterParams {
		if _, ok := q[p.Name]; ok {
			return apperr.Errorf(apperr.Invalid, "the dashboard takes no %s filter: a link's statistics do", p.Name).For("filter_unsupported", p.Name)
		}
	}
	return nil
}

// queryTag reads the tag query parameter, a tag name of the request's workspace in any case:
// the tag's ID, 0 when there is none, stats.NoTag for a name the workspace has no tag of.
func (s *Server) queryTag(c *gin.Context) (int64, bool) {
	name := c.Query("tag")
	if name == "" || s.tags == nil {
		return 0, true
	}
	if len(name) > 4*tag.MaxNameLength {
		return stats.NoTag, true
	}
	tags, err := s.tags.Find(c.Request.Context(), workspaceID(c), []string{name})
	if err != nil {
		s.fail(c, err)
		return 0, false
	}
	if len(tags) == 0 {
		return stats.NoTag, true
	}
	return tags[0].ID, true
}

// adminStats answers the operators' dashboard over every workspace.
func (s *Server) adminStats(c *gin.Context) {
	r, err := stats.Query{TZ: c.Query("tz")}.DashboardRange(time.Now())
	if err != nil {
		s.fail(c, err)
		return
	}
	d, err := s.stats.System(c.Request.Context(), r)
	s.replyNoStore(c, d, err)
}

// exportLinks streams the workspace's links that the list's filters match (q, status, domain,
// tag, health and archived, which is all unless given), each with its totals since it was
// made and its tags, as CSV: the export feature.
func (s *Server) exportLinks(c *gin.Context) {
	ctx := c.Request.Context()
	ws := workspaceID(c)
	if err := s.plans.Require(ctx, ws, plan.Export); err != nil {
		s.fail(c, err)
		return
	}
	f, match, err := s.links.ResolveFilter(ctx, ws, link.Filter{Query: c.Query("q"), Status: c.Query("status"),
		Domain: c.Query("domain"), AlsoTags: c.QueryArray("tag"), Health: c.Query("health"),
		Archived: c.DefaultQuery("archived", link.ArchivedAll), Limit: link.MaxPage})
	if err != nil {
		s.fail(c, err)
		return
	}
	links := s.stats.ExportLinks(ctx, ws, f)
	if !match {
		links = func(func(stats.LinkTotals, error) bool) {}
	}
	header := []string{"id", "code", "short_url", "url", "title", "status", "created_at", "visits", "unique_visitors", "bots", "tags"}
	streamCSV(s, c, fmt.Sprintf("workspace-%d-links.csv", ws), header, links,
		func(l stats.LinkTotals, r []string) {
			r[0], r[1], r[2] = strconv.FormatInt(l.ID, 10), csvCell(l.Key), csvCell(l.ShortURL)
			r[3], r[4], r[5] = csvCell(l.URL), csvCell(l.Title), l.Status
			r[6] = l.CreatedAt.UTC().Format(time.RFC3339)
			r[7], r[8], r[9] = strconv.FormatInt(l.Visits, 10), strconv.FormatInt(l.Uniques, 10), strconv.FormatInt(l.Bots, 10)
			r[10] = csvCell(strings.Join(l.Tags, ";"))
		})
}

// exportVisits streams the workspace's visits of a range (the last 30 days unless told), as
// CSV, oldest first, those of one link only when link names it, and then those the filter
// parameters of its statistics name: the export feature.
func (s *Server) exportVisits(c *gin.Context) {
	r, err := statsQuery(c).Range(time.Now(), stats.ExportDays)
	if err != nil {
		s.fail(c, err)
		return
	}
	var linkID int64
	if v := c.Query("link"); v != "" {
		if linkID, err = strconv.ParseInt(v, 10, 64); err != nil || linkID <= 0 {
			s.fail(c, apperr.Errorf(apperr.Invalid, "link must be a link's ID").For("link_invalid", "link"))
			return
		}
	}
	f, err := stats.ParseFilter(c.Request.URL.Query())
	if err != nil {
		s.fail(c, err)
		return
	}
	ctx := c.Request.Context()
	ws := workspaceID(c)
	if err := s.plans.Require(ctx, ws, plan.Export); err != nil {
		s.fail(c, err)
		return
	}
	tagID, ok := s.queryTag(c)
	if !ok {
		return
	}
	visits, err := s.stats.ExportVisits(ctx, ws, linkID, tagID, r, f)
	if err != nil {
		s.fail(c, err)
		return
	}
	header := []string{"at", "link_id", "code", "variant", "country", "device", "os", "browser", "referrer", "in_app", "bot", "visitor", "event_id",
		"utm_source", "utm_medium", "utm_campaign"}
	name := fmt.Sprintf("workspace-%d-visits-%s-%s.csv", ws, r.From.Format("20060102T1504"), r.To.Format("20060102T1504"))
	if linkID != 0 {
		name = fmt.Sprintf("workspace-%d-link-%d-visits-%s-%s.csv", ws, linkID, r.From.Format("20060102T1504"), r.To.Format("20060102T1504"))
	}
	streamCSV(s, c, name, header, visits, func(v stats.Visit, row []string) {
		row[0], row[1], row[2] = v.At.In(r.Loc).Format(time.RFC3339), strconv.FormatInt(v.LinkID, 10), csvCell(v.Key)
		row[3], row[4], row[5] = csvCell(v.Variant), csvCell(v.Country), csvCell(v.Device)
		row[6], row[7], row[8] = csvCell(v.OS), csvCell(v.Browser), csvCell(v.Referrer)
		row[9], row[10] = csvCell(v.InApp), strconv.FormatBool(v.Bot)
		row[11], row[12] = hex.EncodeToString(v.Visitor), v.EventID
		row[13], row[14], row[15] = csvCell(v.UTMSource), csvCell(v.UTMMedium), csvCell(v.UTMCampaign)
	})
}
