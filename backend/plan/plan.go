// Package plan holds the plans as data: one table of features and limits per plan (free,
// trial, personal, enterprise), the Gate that answers what a plan allows, and the Service
// that starts trials and keeps the monthly link quota.
package plan

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Plan names, cheapest first. They are the values of workspaces.plan.
const (
	Free       = "free"
	Trial      = "trial"
	Personal   = "personal"
	Enterprise = "enterprise"
)

// Names lists every plan, cheapest first.
var Names = []string{Free, Trial, Personal, Enterprise}

// Feature is a capability a plan may unlock; the names are part of the API (docs/rules-and-plans.md).
type Feature string

// The features of the plans table (docs/rules-and-plans.md), by their API names.
const (
	Password      Feature = "password"       // access password on a link
	RealtimeEdit  Feature = "realtime_edit"  // changing the target of an existing link
	Export        Feature = "export"         // CSV exports of links and visits
	BrowserGuide  Feature = "browser_guide"  // "open in your browser" page for in-app browsers
	CustomDomains Feature = "custom_domains" // links on the workspace's own domains
	ABTest        Feature = "ab_test"        // variants and device targets
	Batch         Feature = "batch"          // batch creation and imports
	Geo           Feature = "geo"            // geo limits and country targets
	Form          Feature = "form"           // phone collection, form before visit
	Dashboard     Feature = "dashboard"      // the workspace dashboard
	WeChatAccess  Feature = "wechat_access"  // links open from WeChat for their whole life
	SSO           Feature = "sso"            // single sign-on and a workspace's 2FA requirement
	AuditLog      Feature = "audit_log"      // the workspace audit log
	Webhooks      Feature = "webhooks"       // signed webhooks for a workspace's events
)

// Features lists every feature, in the order the API shows them.
var Features = []Feature{Password, RealtimeEdit, Export, BrowserGuide, CustomDomains, ABTest, Batch, Geo, Form, Dashboard, WeChatAccess, SSO, AuditLog, Webhooks}

// featureTitles are the names people read in messages.
var featureTitles = map[Feature]string{
	Password:      "access passwords",
	RealtimeEdit:  "changing the target of a link",
	Export:        "data export",
	BrowserGuide:  "the open-in-browser guide",
	CustomDomains: "custom domains",
	ABTest:        "A/B tests and device targets",
	Batch:         "batch creation",
	Geo:           "geo limits and country targets",
	Form:          "forms before a visit",
	Dashboard:     "the dashboard",
	WeChatAccess:  "WeChat access after 10 days",
	SSO:           "single sign-on",
	AuditLog:      "the audit log",
	Webhooks:      "webhooks",
}

// Limit is a count a plan allows; Unlimited means no limit.
type Limit int64

// Unlimited is a Limit without a bound; it shows as null in JSON.
const Unlimited Limit = -1

// Allows reports whether n is within the limit.
func (l Limit) Allows(n int64) bool { return l == Unlimited || n <= int64(l) }

// MarshalJSON writes the limit as a number, or null when there is none.
func (l Limit) MarshalJSON() ([]byte, error) {
	if l == Unlimited {
		return []byte("null"), nil
	}
	return strconv.AppendInt(nil, int64(l), 10), nil
}

func (l Limit) String() string {
	if l == Unlimited {
		return "unlimited"
	}
	return strconv.FormatInt(int64(l), 10)
}

// Limits are a plan's quotas; every one of them is configuration (PLAN_LIMITS).
type Limits struct {
	// LinksPerMonth counts new links per calendar month (UTC).
	LinksPerMonth Limit `json:"links_per_month"`
	// Members counts the workspace's members, owners included.
	Members Limit `json:"members"`
	// CustomDomains counts the domains of a plan with the custom_domains feature.
	CustomDomains Limit `json:"custom_domains"`
	// RequestsPerMinute is the workspace's API rate limit, shared by its members and API
	// keys; the free plan's is also every signed-in user's outside workspaces.
	RequestsPerMinute Limit `json:"requests_per_minute"`
}

// Plan is one row of the table: what a plan unlocks and how much it allows.
type Plan struct {
	Name     string
	Features map[Feature]bool
	Limits   Limits
	// WeChatDays is how long after creation a link opens from WeChat on a plan without
	// wechat_access; 0 where the feature is on.
	WeChatDays int
}

// Has reports whether the plan unlocks f.
func (p Plan) Has(f Feature) bool { return p.Features[f] }

// Table is every plan by name.
type Table map[string]Plan

// features builds a feature set.
func features(fs ...Feature) map[Feature]bool {
	m := make(map[Feature]bool, len(Features))
	for _, f := range Features {
		m[f] = slices.Contains(fs, f)
	}
	return m
}

// DefaultTable is the plans table of docs/rules-and-plans.md. The rate limits are the defaults chosen
// here (requests a minute per caller).
func DefaultTable() Table {
	return Table{
		Free: {
			Name:       Free,
			Features:   features(),
			Limits:     Limits{LinksPerMonth: 100, Members: 1, CustomDomains: 0, RequestsPerMinute: 120},
			WeChatDays: 10,
		},
		Trial: {
			Name:     Trial,
			Features: features(Password, RealtimeEdit, Export, BrowserGuide, CustomDomains, ABTest, Batch, Geo, Dashboard, WeChatAccess, Webhooks),
			Limits:   Limits{LinksPerMonth: 1000, Members: 3, CustomDomains: 1, RequestsPerMinute: 600},
		},
		Personal: {
			Name:     Personal,
			Features: features(Password, RealtimeEdit, Export, BrowserGuide, Dashboard, WeChatAccess, Webhooks),
			Limits:   Limits{LinksPerMonth: 10000, Members: 3, CustomDomains: 0, RequestsPerMinute: 600},
		},
		Enterprise: {
			Name:     Enterprise,
			Features: features(Features...),
			Limits:   Limits{LinksPerMonth: Unlimited, Members: Unlimited, CustomDomains: Unlimited, RequestsPerMinute: 6000},
		},
	}
}

// limitFields are the names PLAN_LIMITS accepts, with where each one is kept.
var limitFields = map[string]func(*Limits) *Limit{
	"links_per_month":     func(l *Limits) *Limit { return &l.LinksPerMonth },
	"members":             func(l *Limits) *Limit { return &l.Members },
	"custom_domains":      func(l *Limits) *Limit { return &l.CustomDomains },
	"requests_per_minute": func(l *Limits) *Limit { return &l.RequestsPerMinute },
}

// ParseTable returns DefaultTable with the overrides of a PLAN_LIMITS value applied:
// comma-separated "<plan>.<limit>=<number|unlimited>", such as
// "free.links_per_month=500,enterprise.requests_per_minute=unlimited". Empty keeps the defaults.
func ParseTable(s string) (Table, error) {
	t := DefaultTable()
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		key, value, ok := strings.Cut(item, "=")
		name, field, ok2 := strings.Cut(strings.TrimSpace(key), ".")
		if !ok || !ok2 {
			return nil, fmt.Errorf("%q: write <plan>.<limit>=<number or unlimited>", item)
		}
		p, found := t[name]
		if !found {
			return nil, fmt.Errorf("%q: unknown plan %q (use %s)", item, name, strings.Join(Names, ", "))
		}
		at, found := limitFields[field]
		if !found {
			return nil, fmt.Errorf("%q: unknown limit %q (use links_per_month, members, custom_domains or requests_per_minute)", item, field)
		}
		value = strings.TrimSpace(value)
		l := Unlimited
		if value != "unlimited" {
			n, err := strconv.ParseInt(value, 10, 64)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("%q: the limit must be a whole number ≥ 0 or \"unlimited\"", item)
			}
			l = Limit(n)
		}
		if field == "members" && l == 0 {
			return nil, fmt.Errorf("%q: a workspace always has its owner, so members must be at least 1", item)
		}
		if field == "requests_per_minute" && l == 0 {
			return nil, fmt.Errorf("%q: requests_per_minute must be at least 1 (\"unlimited\" for no limit)", item)
		}
		*at(&p.Limits) = l
		t[name] = p
	}
	return t, nil
}
