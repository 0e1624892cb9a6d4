package plan

import (
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
)

// TrialLength is how long a trial lasts; a workspace gets one.
const TrialLength = 7 * 24 * time.Hour

// linkFieldFeatures maps the link fields (docs/api.md) that a plan gates to the feature each needs.
// Fields not named here (expires_at, max_visits, og, title, alias, …) are on every plan.
var linkFieldFeatures = map[string]Feature{
	"password":        Password,
	"variants":        ABTest,
	"device_targets":  ABTest,
	"geo":             Geo,
	"country_targets": Geo,
	"wechat_guide":    BrowserGuide,
	"form":            Form,
}

// Gate answers what a plan allows, from the table alone: it does no I/O, so it can be called
// anywhere, on the redirect path too.
type Gate struct {
	table Table
}

// NewGate returns the gate of a table (DefaultTable or ParseTable's).
func NewGate(t Table) *Gate { return &Gate{table: t} }

// Plan returns the table's row of a plan; an unknown name answers as free.
func (g *Gate) Plan(name string) Plan {
	if p, ok := g.table[name]; ok {
		return p
	}
	return g.table[Free]
}

// Effective is the plan a workspace is on at now: a trial whose end has passed answers as
// free. A trial without an end (one an operator granted) lasts until it is changed.
func Effective(plan string, now time.Time, trialEndsAt *time.Time) string {
	if plan == Trial && trialEndsAt != nil && !now.Before(*trialEndsAt) {
		return Free
	}
	return plan
}

// Require returns nil when plan unlocks f, else plan_required naming the cheapest plan that
// does (and the trial, for a free workspace, where the trial has it).
func (g *Gate) Require(plan string, f Feature) error {
	if g.Plan(plan).Has(f) {
		return nil
	}
	return apperr.Errorf(apperr.PlanRequired, "the %s plan does not include %s (%q): %s",
		g.Plan(plan).Name, featureTitles[f], f, g.unlockedBy(plan, f)).For("plan_required", "")
}

// unlockedBy says which plan to move to for f: the cheapest paid plan that has it, and the
// trial where a free workspace could start it.
func (g *Gate) unlockedBy(plan string, f Feature) string {
	var paid string
	for _, name := range Names {
		if name != Free && name != Trial && g.Plan(name).Has(f) {
			paid = name
			break
		}
	}
	trial := plan == Free && g.Plan(Trial).Has(f)
	switch {
	case paid != "" && trial:
		return "upgrade to the " + paid + " plan, or start the 7-day trial"
	case paid != "":
		return "upgrade to the " + paid + " plan"
	case trial:
		return "start the 7-day trial"
	}
	return "no plan includes it"
}

// LinkFieldFeature is the feature a link field needs; ok is false for fields on every plan.
func LinkFieldFeature(field string) (f Feature, ok bool) {
	f, ok = linkFieldFeatures[field]
	return f, ok
}

// CheckLinkFields returns plan_required for the first of fields that plan does not allow.
// fields are the names (docs/api.md) a create or patch sets to a value; a field set to null removes
// a rule, which every plan may do, so it is left out. isEdit says the link exists already:
// then "url" (changing its target) needs realtime_edit.
func (g *Gate) CheckLinkFields(plan string, fields []string, isEdit bool) error {
	for _, field := range fields {
		f, gated := linkFieldFeatures[field]
		if field == "url" && isEdit {
			f, gated = RealtimeEdit, true
		}
		if !gated {
			continue
		}
		if err := g.Require(plan, f); err != nil {
			return apperr.Errorf(apperr.PlanRequired, "%s: %s", field, apperr.MessageOf(err)).For("plan_required", field)
		}
	}
	return nil
}

// anyGated reports whether any of fields needs a feature some plan lacks.
func (g *Gate) anyGated(fields []string, isEdit bool) bool {
	for _, field := range fields {
		if _, gated := linkFieldFeatures[field]; gated || (field == "url" && isEdit) {
			return true
		}
	}
	return false
}

// protectiveFields are the gated rules that protect a link's content: after a downgrade they
// keep applying as they were (a protective rule never fails open); the plan only stops setting
// or changing them (CheckLinkFields).
var protectiveFields = map[string]bool{"password": true, "geo": true, "form": true}

// InactiveLinkFields returns those of a link's rule fields that plan no longer applies (after
// a downgrade): the redirect path skips them and the link answer names them. The link keeps
// working; only these rules stop, and never a protective one (password, geo, form).
func (g *Gate) InactiveLinkFields(plan string, fields []string) []string {
	var out []string
	for _, field := range fields {
		if f, gated := linkFieldFeatures[field]; gated && !protectiveFields[field] && !g.Plan(plan).Has(f) {
			out = append(out, field)
		}
	}
	return out
}

// WeChatAccess reports whether a link created at created opens from WeChat at now: always
// with wechat_access, else for the plan's first days (free: 10) after creation.
func (g *Gate) WeChatAccess(plan string, created, now time.Time) bool {
	p := g.Plan(plan)
	if p.Has(WeChatAccess) {
		return true
	}
	return now.Before(created.Add(time.Duration(p.WeChatDays) * 24 * time.Hour))
}

// GrantLinks returns how many of n new links fit in plan's monthly quota when used were
// created this month already, with quota_exceeded naming the limit when not all of them do.
func (g *Gate) GrantLinks(plan string, used, n int64) (int64, error) {
	limit := g.Plan(plan).Limits.LinksPerMonth
	if limit.Allows(used + n) {
		return n, nil
	}
	granted := max(0, min(n, int64(limit)-used))
	return granted, g.quotaError(plan, limit)
}

func (g *Gate) quotaError(plan string, limit Limit) error {
	return apperr.Errorf(apperr.QuotaExceeded, "the %s plan allows %d new links a month and this month's are used up%s",
		plan, int64(limit), g.upgradeHint(plan, func(p Plan) Limit { return p.Limits.LinksPerMonth }, limit)).For("link_quota_exceeded", "")
}

// CheckMembers returns quota_exceeded when a workspace on plan with current members may not
// take adding more.
func (g *Gate) CheckMembers(plan string, current, adding int64) error {
	limit := g.Plan(plan).Limits.Members
	if limit.Allows(current + adding) {
		return nil
	}
	return apperr.Errorf(apperr.QuotaExceeded, "the %s plan allows %d members%s",
		plan, int64(limit), g.upgradeHint(plan, func(p Plan) Limit { return p.Limits.Members }, limit)).For("member_quota_exceeded", "")
}

// CheckDomains returns plan_required when plan has no custom domains and quota_exceeded
// when a workspace with current domains may not add one more.
func (g *Gate) CheckDomains(plan string, current int64) error {
	if err := g.Require(plan, CustomDomains); err != nil {
		return err
	}
	limit := g.Plan(plan).Limits.CustomDomains
	if limit.Allows(current + 1) {
		return nil
	}
	return apperr.Errorf(apperr.QuotaExceeded, "the %s plan allows %d custom domains", plan, int64(limit)).For("domain_quota_exceeded", "")
}

// upgradeHint names the cheapest plan (trial aside) whose limit is larger, if any.
func (g *Gate) upgradeHint(plan string, of func(Plan) Limit, limit Limit) string {
	for _, name := range Names {
		if name == Free || name == Trial || name == plan {
			continue
		}
		if l := of(g.Plan(name)); l == Unlimited || l > limit {
			return "; the " + name + " plan allows " + l.String()
		}
	}
	return ""
}
