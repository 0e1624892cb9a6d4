package httpapi

import (
	"fmt"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/audit"
	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/moderation"
)

// The moderation as people use it (docs/moderation.md#moderation-people): moderators' queue, a link's file, screenshots,
// decisions and requested reviews under /moderation; owners' appeals; the operators' audit log.

type reviewSummaryAnswer struct {
	ID        int64     `json:"id"`
	Score     float64   `json:"score"`
	Category  string    `json:"category"`
	Reason    string    `json:"reason"`
	Scorer    string    `json:"scorer"`
	Model     string    `json:"model"`
	CreatedAt time.Time `json:"created_at"`
}

func answerReviewSummary(r *moderation.ReviewSummary) *reviewSummaryAnswer {
	if r == nil {
		return nil
	}
	return &reviewSummaryAnswer{ID: r.ID, Score: r.Score, Category: r.Category, Reason: r.Reason,
		Scorer: r.Scorer, Model: r.Model, CreatedAt: r.CreatedAt}
}

type queueItemAnswer struct {
	Link   *linkAnswer          `json:"link"`
	Review *reviewSummaryAnswer `json:"review"`
	// Workspace and OwnerEmail say whose link it is, OwnerLanguage what that owner reads;
	// Visits how many visits of people it had.
	Workspace     workspaceRef `json:"workspace"`
	OwnerEmail    string       `json:"owner_email"`
	OwnerLanguage string       `json:"owner_language"`
	Visits        int64        `json:"visits"`
	// Appeal is the open appeal, in the appealed tab.
	Appeal *appealAnswer `json:"appeal,omitempty"`
}

type workspaceRef struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

type reviewAnswer struct {
	reviewSummaryAnswer
	URL        string          `json:"url"`
	Trigger    string          `json:"trigger"`
	Notes      []string        `json:"notes"`
	Captures   []captureAnswer `json:"captures"`
	DurationMS int64           `json:"duration_ms"`
}

type captureAnswer struct {
	Profile     string            `json:"profile"`
	URL         string            `json:"url"`
	Title       string            `json:"title"`
	Description string            `json:"description"`
	FinalURL    string            `json:"final_url"`
	Redirects   []string          `json:"redirects"`
	Status      int               `json:"status"`
	Forms       []moderation.Form `json:"forms"`
	Error       string            `json:"error"`
	DurationMS  int64             `json:"duration_ms"`
	// ScreenshotURL serves the screenshot to moderators; null when none was taken.
	ScreenshotURL *string `json:"screenshot_url"`
}

type actorAnswer struct {
	ID    int64  `json:"id"`
	Email string `json:"email"`
}

type decisionAnswer struct {
	ID          int64  `json:"id"`
	LinkID      int64  `json:"link_id"`
	WorkspaceID int64  `json:"workspace_id"`
	Action      string `json:"action"`
	State       string `json:"state"`
	// Note is the moderator's private note; Reason and ReasonText what the owner was told.
	Note       string       `json:"note"`
	Reason     string       `json:"reason"`
	ReasonText string       `json:"reason_text"`
	Actor      *actorAnswer `json:"actor"`
	ReviewID   *int64       `json:"review_id"`
	CreatedAt  time.Time    `json:"created_at"`
	// Domain names the domain of a decision on a whole domain (link_id and workspace_id 0).
	Domain string `json:"domain,omitempty"`
}

type appealAnswer struct {
	LinkID      int64      `json:"link_id"`
	WorkspaceID int64      `json:"workspace_id"`
	UserID      *int64     `json:"user_id"`
	Message     string     `json:"message"`
	CreatedAt   time.Time  `json:"created_at"`
	ResolvedAt  *time.Time `json:"resolved_at"`
	Resolution  string     `json:"resolution"`
	// Outcome is upheld or rejected once answered, and Answer the moderator's words to the owner.
	Outcome string `json:"outcome,omitempty"`
	Answer  string `json:"answer,omitempty"`
}

func answerReview(r moderation.ReviewRecord) reviewAnswer {
	out := reviewAnswer{reviewSummaryAnswer: *answerReviewSummary(&r.ReviewSummary), URL: r.URL, Trigger: r.Trigger,
		Notes: orEmpty(r.Notes), Captures: make([]captureAnswer, len(r.Captures)), DurationMS: r.Duration.Milliseconds()}
	for i, c := range r.Captures {
		a := captureAnswer{Profile: string(c.Profile), URL: c.URL, Title: c.Title, Description: c.Description,
			FinalURL: c.FinalURL, Redirects: orEmpty(c.Redirects), Status: c.Status, Forms: c.Forms, Error: c.Error,
			DurationMS: c.Duration.Milliseconds()}
		if a.Forms == nil {
			a.Forms = []moderation.Form{}
		}
		for j := range a.Forms {
			a.Forms[j].Fields = orEmpty(a.Forms[j].Fields)
		}
		if c.HasScreenshot {
			u := fmt.Sprintf("/api/v1/moderation/reviews/%d/screenshots/%s", r.ID, c.Profile)
			a.ScreenshotURL = &u
		}
		out.Captures[i] = a
	}
	return out
}

func answerDecision(d moderation.Decision) decisionAnswer {
	out := decisionAnswer{ID: d.ID, LinkID: d.LinkID, WorkspaceID: d.WorkspaceID, Action: d.Action, State: string(d.State),
		Note: d.Note, Reason: d.Reason, ReasonText: d.ReasonText, ReviewID: d.ReviewID, CreatedAt: d.CreatedAt, Domain: d.Domain}
	if d.Actor != nil {
		out.Actor = &actorAnswer{ID: d.Actor.ID, Email: d.Actor.Email}
	}
	return out
}

func answerDecisions(ds []moderation.Decision) []decisionAnswer {
	out := make([]decisionAnswer, len(ds))
	for i, d := range ds {
		out[i] = answerDecision(d)
	}
	return out
}

func answerAppeal(a *moderation.Appeal) *appealAnswer {
	if a == nil {
		return nil
	}
	return &appealAnswer{LinkID: a.LinkID, WorkspaceID: a.WorkspaceID, UserID: a.UserID, Message: a.Message,
		CreatedAt: a.CreatedAt, ResolvedAt: a.ResolvedAt, Resolution: a.Resolution, Outcome: a.Outcome, Answer: a.Answer}
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// answerAnyLink answers a link of any workspace, as moderators see it.
// The scorer's words are for moderators.
func (s *Server) answerAnyLink(l *link.Link) *linkAnswer {
	a := answerLink(s.links.Decorate(l))
	if a != nil {
		a.Moderation.Reason = l.Moderation.Reason
	}
	return a
}

// moderationQueue lists the links in a state: ?state=flagged (default), banned, passed or pending.
func (s *Server) moderationQueue(c *gin.Context) {
	limit, err := intQuery(c, "limit", 50)
	if err != nil {
		s.fail(c, err)
		return
	}
	after, err := moderation.ParseQueueCursor(c.Query("cursor"))
	if err != nil {
		s.fail(c, err)
		return
	}
	items, next, err := s.moderation.Queue(c.Request.Context(), c.Query("state"), after, limit)
	if err != nil {
		s.fail(c, err)
		return
	}
	out := make([]queueItemAnswer, len(items))
	for i, it := range items {
		out[i] = queueItemAnswer{Link: s.answerAnyLink(it.Link), Review: answerReviewSummary(it.Review),
			Workspace: workspaceRef{ID: it.Link.WorkspaceID, Name: it.WorkspaceName}, OwnerEmail: it.OwnerEmail,
			OwnerLanguage: it.OwnerLanguage, Visits: it.Visits, Appeal: answerAppeal(it.Appeal)}
	}
	cur := ""
	if next != nil {
		cur = next.String()
	}
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusOK, gin.H{"items": out, "next_cursor": cur})
}

// moderationCounts answers how many links each tab of the desk holds, each counted up to cap.
func (s *Server) moderationCounts(c *gin.Context) {
	n, err := s.moderation.Counts(c.Request.Context())
	s.replyNoStore(c, gin.H{"pending": n.Pending, "flagged": n.Flagged, "banned": n.Banned, "passed": n.Passed,
		"appealed": n.Appealed, "cap": moderation.CountCap}, err)
}

// moderationLink answers a link's file: the link, its latest reviews with their captures,
// every decision on it and its appeal.
func (s *Server) moderationLink(c *gin.Context) {
	id, ok := s.pathID(c, "id", "link")
	if !ok {
		return
	}
	f, err := s.moderation.File(c.Request.Context(), id)
	if err != nil {
		s.fail(c, err)
		return
	}
	reviews := make([]reviewAnswer, len(f.Reviews))
	for i, r := range f.Reviews {
		reviews[i] = answerReview(r)
	}
	c.Header("Cache-Control", "no-store")
	la := s.answerAnyLink(f.Link)
	la.Moderation.Appeal = answerLinkAppeal(f.Appeal)
	c.JSON(http.StatusOK, gin.H{"link": la, "reviews": reviews,
		"decisions": answerDecisions(f.Decisions), "appeal": answerAppeal(f.Appeal),
		"workspace": workspaceRef{ID: f.Link.WorkspaceID, Name: f.WorkspaceName}, "owner_email": f.OwnerEmail,
		"owner_language": f.OwnerLanguage, "visits": f.Visits})
}

// reviewScreenshot serves the PNG a visitor profile saw in a review.
func (s *Server) reviewScreenshot(c *gin.Context) {
	id, ok := s.pathID(c, "id", "review")
	if !ok {
		return
	}
	png, err := s.moderation.Screenshot(c.Request.Context(), id, c.Param("profile"))
	if err != nil {
		s.fail(c, err)
		return
	}
	// A review's screenshot never changes; private because it needs credentials.
	c.Header("Cache-Control", "private, max-age=86400, immutable")
	c.Data(http.StatusOK, "image/png", png)
}

type decisionRequest struct {
	Action string `json:"action"`
	// Note is private to moderators and operators; Reason (a standard reason) and ReasonText
	// are shown to the owner.
	Note       string `json:"note"`
	Reason     string `json:"reason"`
	ReasonText string `json:"reason_text"`
	// OwnerMessage answers the owner's appeal.
	OwnerMessage string `json:"owner_message"`
}

// decide applies a moderator's approve, ban, unban or keep_ban.
func (s *Server) decide(c *gin.Context) {
	var in decisionRequest
	id, ok := s.pathIDAndBody(c, "id", "link", &in)
	if !ok {
		return
	}
	out, err := s.moderation.Decide(c.Request.Context(), id, userID(c), in.Action,
		moderation.Explanation{Reason: in.Reason, ReasonText: in.ReasonText, Note: in.Note, OwnerMessage: in.OwnerMessage})
	if err != nil {
		s.fail(c, err)
		return
	}
	switch moderation.Action(in.Action) {
	case moderation.Ban:
		s.audited(c, out.Link.WorkspaceID, audit.LinkBanned, audit.Target("link", id), map[string]any{"reason": in.Reason})
	case moderation.Unban:
		s.audited(c, out.Link.WorkspaceID, audit.LinkUnbanned, audit.Target("link", id), nil)
	case moderation.KeepBan:
		s.audited(c, out.Link.WorkspaceID, audit.LinkBanKept, audit.Target("link", id), map[string]any{"appeal_answered": out.AppealAnswered})
	}
	c.JSON(http.StatusOK, gin.H{"link": s.answerAnyLink(out.Link), "decision": answerDecision(out.Decision)})
}

// requestReview has a link reviewed again.
func (s *Server) requestReview(c *gin.Context) {
	id, ok := s.pathID(c, "id", "link")
	if !ok {
		return
	}
	at, err := s.moderation.RequestReview(c.Request.Context(), id)
	s.reply(c, http.StatusAccepted, gin.H{"link_id": id, "due_at": at}, err)
}

type appealRequest struct {
	Message string `json:"message"`
}

// appeal records the owner's appeal of a flagged or banned link. The link is looked up before
// the body is read: another workspace's link is not found, whatever was sent.
func (s *Server) appeal(c *gin.Context) {
	l, ok := s.pathLink(c)
	if !ok {
		return
	}
	var in appealRequest
	if !s.bind(c, &in) {
		return
	}
	a, err := s.moderation.Appeal(c.Request.Context(), workspaceID(c), l.ID, userID(c), in.Message)
	s.reply(c, http.StatusCreated, answerAppeal(a), err)
}

// adminAudit lists every moderation decision, newest first.
func (s *Server) adminAudit(c *gin.Context) {
	before, limit, ok := s.pageOf(c, 50)
	if !ok {
		return
	}
	ds, next, err := s.moderation.Audit(c.Request.Context(), before, limit)
	s.replyNoStore(c, gin.H{"items": answerDecisions(ds), "next_cursor": cursor(next)}, err)
}

type domainDecisionRequest struct {
	Note string `json:"note"`
	// Category, of a ban only, is what the domain's links are banned as (a standard reason).
	Category string `json:"category"`
}

type domainDecisionAnswer struct {
	Domain    string       `json:"domain"`
	State     string       `json:"state"`
	Category  string       `json:"category"`
	Note      string       `json:"note"`
	Actor     *actorAnswer `json:"actor"`
	UpdatedAt time.Time    `json:"updated_at"`
}

func answerDomainDecision(d moderation.DomainDecision) domainDecisionAnswer {
	out := domainDecisionAnswer{Domain: d.Domain, State: d.State, Category: d.Category, Note: d.Note, UpdatedAt: d.UpdatedAt}
	if d.Actor != nil {
		out.Actor = &actorAnswer{ID: d.Actor.ID, Email: d.Actor.Email}
	}
	return out
}

// banDomain bans a whole registrable domain: its new links are banned at once.
func (s *Server) banDomain(c *gin.Context) { s.setDomain(c, moderation.DomainBanned) }

// clearDomain clears a whole registrable domain: its record of phishing bans no longer bans
// its new links.
func (s *Server) clearDomain(c *gin.Context) { s.setDomain(c, moderation.DomainCleared) }

func (s *Server) setDomain(c *gin.Context, state string) {
	var in domainDecisionRequest
	if !s.bind(c, &in) {
		return
	}
	d, err := s.moderation.SetDomain(c.Request.Context(), userID(c), c.Param("domain"), state, in.Category, in.Note)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, answerDomainDecision(*d))
}
