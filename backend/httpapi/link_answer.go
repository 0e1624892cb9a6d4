package httpapi

import (
	"time"

	"github.com/shortlink/shortlink/backend/link"
)

// linkAnswer is a link as the API shows it (SPEC §13 and §13.1): the password only as
// has_password, every other rule as it was set.
type linkAnswer struct {
	ID             int64      `json:"id"`
	WorkspaceID    int64      `json:"workspace_id"`
	Domain         string     `json:"domain"`
	Code           string     `json:"code"`
	IsAlias        bool       `json:"is_alias"`
	ShortURL       string     `json:"short_url"`
	URL            string     `json:"url"`
	Title          string     `json:"title"`
	RedirectStatus int        `json:"redirect_status"`
	ForwardQuery   bool       `json:"forward_query"`
	Status         string     `json:"status"`
	ExpiresAt      *time.Time `json:"expires_at"`

	HasPassword    bool              `json:"has_password"`
	MaxVisits      *int64            `json:"max_visits"`
	Geo            *link.Geo         `json:"geo"`
	DeviceTargets  map[string]string `json:"device_targets"`
	CountryTargets map[string]string `json:"country_targets"`
	Variants       []link.Variant    `json:"variants"`
	WeChatGuide    bool              `json:"wechat_guide"`
	Form           *link.Form        `json:"form"`
	OG             *link.OG          `json:"og"`

	CreatedBy *int64    `json:"created_by,omitempty"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

func answerLink(l *link.Link) *linkAnswer {
	if l == nil {
		return nil
	}
	r := &l.Rules
	return &linkAnswer{
		ID: l.ID, WorkspaceID: l.WorkspaceID, Domain: l.Domain, Code: l.Key, IsAlias: l.IsAlias,
		ShortURL: l.ShortURL, URL: l.URL, Title: l.Title, RedirectStatus: l.RedirectStatus,
		ForwardQuery: l.ForwardQuery, Status: l.Status, ExpiresAt: l.ExpiresAt,
		HasPassword: r.PasswordHash != "", MaxVisits: r.MaxVisits, Geo: r.Geo,
		DeviceTargets: r.DeviceTargets, CountryTargets: r.CountryTargets, Variants: r.Variants,
		WeChatGuide: r.WeChatGuide, Form: r.Form, OG: r.OG,
		CreatedBy: l.CreatedBy, CreatedAt: l.CreatedAt, UpdatedAt: l.UpdatedAt,
	}
}

func answerLinks(ls []*link.Link) []*linkAnswer {
	out := make([]*linkAnswer, len(ls))
	for i, l := range ls {
		out[i] = answerLink(l)
	}
	return out
}
