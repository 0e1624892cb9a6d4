package httpapi

import (
	"time"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/moderation"
	"github.com/shortlink/shortlink/backend/qr"
)

// linkAnswer is a link as the API shows it (docs/api.md, docs/rules-and-plans.md#link-rules): the password only as
// has_password, every other rule as it was set.
type linkAnswer struct {
	ID          int64  `json:"id"`
	WorkspaceID int64  `json:"workspace_id"`
	Domain      string `json:"domain"`
	// DomainRemoved: the link's custom domain was removed; it answers nowhere and its
	// short_url is empty.
	DomainRemoved  bool       `json:"domain_removed,omitempty"`
	Code           string     `json:"code"`
	IsAlias        bool       `json:"is_alias"`
	ShortURL       string     `json:"short_url"`
	URL            string     `json:"url"`
	Title          string     `json:"title"`
	RedirectStatus int        `json:"redirect_status"`
	ForwardQuery   bool       `json:"forward_query"`
	Status         string     `json:"status"`
	ExpiresAt      *time.Time `json:"expires_at"`
	// Archived links are hidden from the default listing and keep redirecting; ArchivedAt
	// is when (null when not archived).
	Archived   bool       `json:"archived"`
	ArchivedAt *time.Time `json:"archived_at"`
	// Tags are the names of the link's tags; [] when it has none.
	Tags []string `json:"tags"`
	// UTM are the campaign parameters merged into url on redirect (null when none), and
	// Destination the URL they make (only when there are some).
	UTM         *link.UTM `json:"utm"`
	Destination string    `json:"destination,omitempty"`
	// QR is the link's saved QR style (docs/api.md#a-links-saved-qr-style): what its image
	// route draws without style parameters; null for the default.
	QR *qr.Look `json:"qr"`

	HasPassword    bool              `json:"has_password"`
	MaxVisits      *int64            `json:"max_visits"`
	Geo            *link.Geo         `json:"geo"`
	DeviceTargets  map[string]string `json:"device_targets"`
	CountryTargets map[string]string `json:"country_targets"`
	Variants       []link.Variant    `json:"variants"`
	WeChatGuide    bool              `json:"wechat_guide"`
	Form           *link.Form        `json:"form"`
	OG             *link.OG          `json:"og"`
	// InactiveRules are the link's rules its workspace's plan no longer applies.
	InactiveRules []string `json:"inactive_rules,omitempty"`

	// Visits are people's visits since the link was made, and Visits7d per day of the last 7
	// (with=sparkline): in listings only.
	Visits   *int64  `json:"visits,omitempty"`
	Visits7d []int64 `json:"visits_7d,omitempty"`

	CreatedBy *int64    `json:"created_by,omitempty"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`

	// Moderation is what the moderation last decided (docs/moderation.md); pending before that.
	Moderation moderationAnswer `json:"moderation"`
	// Appeal is the owner's appeal of a ban or flag: in the answer of GET …/links/{id} when
	// there is one.
	Appeal *appealAnswer `json:"appeal,omitempty"`
	// Health is what the checks of the destination found (docs/api.md#link-health): absent until a check
	// made the link ok or broken, and after its destination changed.
	Health *link.Health `json:"health,omitempty"`
}

// moderationAnswer is a link's moderation state.
type moderationAnswer struct {
	State      string     `json:"state"`
	Score      *float64   `json:"score"`
	Category   string     `json:"category"`
	Reason     string     `json:"reason"`
	ReviewedAt *time.Time `json:"reviewed_at"`
	// ReusedFrom says the last review took the verdict of a recent review of the same
	// destination (or of its domain's record) instead of opening the browser.
	ReusedFrom *reusedAnswer `json:"reused_from,omitempty"`
	// Held says the link is held (status held) until its review, and HeldReason why: state is
	// pending meanwhile and visitors get the warning page.
	Held       bool   `json:"held,omitempty"`
	HeldReason string `json:"held_reason,omitempty"`
	// DecidedBy says who decided the state (review, moderator, domain) and ReasonCode why, in
	// a code the web app translates; Reason is a moderator's words to the owner, and the
	// scorer's own only in moderators' reads (docs/moderation.md#what-the-owner-is-told).
	DecidedBy  string `json:"decided_by,omitempty"`
	ReasonCode string `json:"reason_code,omitempty"`
	// Appeal is the owner's appeal and its answer, in the answer of GET …/links/{id}.
	Appeal *linkAppealAnswer `json:"appeal,omitempty"`
}

// reusedAnswer is the review a link's verdict was taken from: the review and its link only when
// they are in the link's own workspace, and always when it was made.
type reusedAnswer struct {
	ReviewID   *int64    `json:"review_id,omitempty"`
	LinkID     *int64    `json:"link_id,omitempty"`
	ReviewedAt time.Time `json:"reviewed_at"`
}

func answerModeration(m link.Moderation) moderationAnswer {
	state := m.State
	if state == "" {
		state = string(moderation.Pending)
	}
	a := moderationAnswer{State: state, Score: m.Score, Category: m.Category, Reason: m.OwnerText, ReviewedAt: m.ReviewedAt,
		DecidedBy: m.DecidedBy, ReasonCode: m.ReasonCode}
	if m.Shared != nil {
		a.ReusedFrom = &reusedAnswer{ReviewID: m.Shared.ReviewID, LinkID: m.Shared.LinkID, ReviewedAt: m.Shared.At}
	}
	return a
}

func answerLink(l *link.Link) *linkAnswer {
	if l == nil {
		return nil
	}
	r := &l.Rules
	a := &linkAnswer{
		ID: l.ID, WorkspaceID: l.WorkspaceID, Domain: l.Domain, DomainRemoved: l.DomainRemoved, Code: l.Key, IsAlias: l.IsAlias,
		ShortURL: l.ShortURL, URL: l.URL, Title: l.Title, RedirectStatus: l.RedirectStatus,
		ForwardQuery: l.ForwardQuery, Status: l.Status, ExpiresAt: l.ExpiresAt,
		HasPassword: r.PasswordHash != "", MaxVisits: r.MaxVisits, Geo: r.Geo,
		DeviceTargets: r.DeviceTargets, CountryTargets: r.CountryTargets, Variants: r.Variants,
		WeChatGuide: r.WeChatGuide, Form: r.Form, OG: r.OG,
		CreatedBy: l.CreatedBy, CreatedAt: l.CreatedAt, UpdatedAt: l.UpdatedAt,
		Moderation: answerModeration(l.Moderation), Tags: l.Tags, Health: l.Health,
		Archived: l.ArchivedAt != nil, ArchivedAt: l.ArchivedAt, QR: l.QR,
	}
	if l.Status == link.StatusHeld {
		a.Moderation.State, a.Moderation.Held, a.Moderation.HeldReason = string(moderation.Pending), true, link.HeldReasonDomainBanned
	}
	if a.Tags == nil {
		a.Tags = []string{}
	}
	if !l.UTM.IsZero() {
		u := l.UTM
		a.UTM, a.Destination = &u, l.Destination()
	}
	if v := l.Visits; v != nil {
		total := v.Total
		a.Visits, a.Visits7d = &total, v.Days
	}
	return a
}

// answerLinks answers links of the request's workspace, naming in each the rules its plan no
// longer applies (the plan is read once, and only when a link has rules).
func (s *Server) answerLinks(c *gin.Context, ls []*link.Link) []*linkAnswer {
	out := make([]*linkAnswer, len(ls))
	planName, read := "", false
	for i, l := range ls {
		out[i] = answerLink(l)
		if l == nil || l.Rules.IsZero() || s.plans == nil {
			continue
		}
		if !read {
			read = true
			p, err := s.plans.Effective(c.Request.Context(), workspaceID(c))
			if err != nil {
				s.log.Warn("link answer: read the workspace's plan", "err", err)
				continue
			}
			planName = p
		}
		if planName != "" {
			out[i].InactiveRules = s.plans.Gate().InactiveLinkFields(planName, l.Rules.Names())
		}
	}
	return out
}

// answerOne is answerLinks for one link.
func (s *Server) answerOne(c *gin.Context, l *link.Link) *linkAnswer {
	return s.answerLinks(c, []*link.Link{l})[0]
}
