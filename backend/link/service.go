// The link Service, what it asks of other packages, and what its operations share: checks of
// the fields, the domain and the plan, and the short URLs. The operations are in create.go,
// list.go and update.go.

package link

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/sync/singleflight"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/code"
	"github.com/shortlink/shortlink/backend/tag"
)

// MaxTitleLength bounds a link's title.
const MaxTitleLength = 500

// Options configure a Service.
type Options struct {
	// Base is the public URL of the short domain (scheme and host), the prefix of short URLs.
	Base *url.URL
	// OwnHosts are the host names of the short domain; targets may not point at them.
	OwnHosts []string
	Writers  int
	BatchMax int
	// Plans gates rule fields and counts new links against the month's quota; nil lets
	// everything through.
	Plans Plans
	// Passwords hashes link passwords.
	Passwords Passwords
	// GeoAvailable says whether the server has a GeoIP database: geo rules need one.
	GeoAvailable bool
	// MaxCodeAliases bounds a workspace's custom aliases shaped like generated codes, which
	// every node keeps in memory until the ID range reaches them; 0 allows none.
	MaxCodeAliases int
	// Domains are the workspaces' custom domains; nil allows only the service's own.
	Domains Domains
	// Tags are the workspaces' tags; nil refuses links with tags.
	Tags Tags
	// WriteTimeout bounds one batch insert of the coalescing writer; 0 means 10s. Rows whose
	// caller has gone (its context ended) by the time their batch is written are left out.
	WriteTimeout time.Duration
}

// Domains is what the link service asks of the workspaces' custom domains.
type Domains interface {
	// Resolve returns the ID of the workspace's verified domain named host; invalid when it
	// is no such domain (unknown, pending, removed or another workspace's).
	Resolve(ctx context.Context, workspaceID int64, host string) (int64, error)
	// Name returns the host name of domain id and whether links answer on it (verified and
	// not removed); "" when it is unknown.
	Name(id int64) (host string, active bool)
	// Serves reports whether host is a verified custom domain of any workspace: no link may
	// point at one (a loop through this service).
	Serves(host string) bool
}

// Tags is what the link service asks of the workspaces' tags (tag.Service).
type Tags interface {
	// Ensure returns the workspace's tags named names (valid and each once, as tag.Names
	// answers them), making those it lacks; quota_exceeded past the workspace's limit.
	Ensure(ctx context.Context, workspaceID int64, names []string) ([]tag.Tag, error)
	// Find returns the workspace's tags named names, in any case; unknown names are left out.
	Find(ctx context.Context, workspaceID int64, names []string) ([]tag.Tag, error)
}

// Plans is what the link service asks of the workspace's plan.
type Plans interface {
	// CheckLinkFields answers plan_required for the first field (as docs/api.md names them) the plan lacks.
	CheckLinkFields(ctx context.Context, workspaceID int64, fields []string, isEdit bool) error
	// Reserve takes n links from the month's quota: the first k granted, quota_exceeded for
	// the rest.
	Reserve(ctx context.Context, workspaceID int64, n int) (int, error)
	// Release gives back links reserved and not created.
	Release(workspaceID int64, n int)
}

// Passwords hashes passwords (argon2id, bounded: see auth.Hasher).
type Passwords interface {
	Hash(ctx context.Context, password string) (string, error)
}

// Service creates, edits and finds links.
type Service struct {
	store     Store
	ids       IDs
	codec     *code.Codec
	cache     Cache
	batch     *batcher
	base      string
	domain    string
	scheme    string
	domains   Domains
	tags      Tags
	ownHosts  []string
	plans     Plans
	passwords Passwords
	ruleCheck RuleCheck
	// maxCodeAliases bounds each workspace's reserved IDs (Options.MaxCodeAliases).
	maxCodeAliases int
	log            *slog.Logger
	// dedupes joins concurrent identical dedupe creates on this node into one.
	dedupes singleflight.Group
}

// NewService starts the service's writers; Close stops them.
func NewService(store Store, ids IDs, codec *code.Codec, cache Cache, o Options, log *slog.Logger) *Service {
	s := &Service{
		store:    store,
		ids:      ids,
		codec:    codec,
		cache:    cache,
		batch:    newBatcher(store, cache, o.Writers, o.BatchMax, o.WriteTimeout, log),
		base:     strings.TrimSuffix(o.Base.String(), "/") + "/",
		domain:   o.Base.Host,
		scheme:   o.Base.Scheme,
		domains:  o.Domains,
		tags:     o.Tags,
		ownHosts: o.OwnHosts,
		log:      log,

		maxCodeAliases: o.MaxCodeAliases,
		plans:          o.Plans,
		passwords:      o.Passwords,
		ruleCheck:      RuleCheck{OwnHosts: o.OwnHosts, GeoAvailable: o.GeoAvailable},
	}
	if o.Domains != nil {
		s.ruleCheck.Serves = o.Domains.Serves
	}
	return s
}

// Close waits until every accepted create has been written.
func (s *Service) Close() { s.batch.close() }

// normalizeTarget is NormalizeURL, refusing the verified custom domains too.
func (s *Service) normalizeTarget(raw string) (string, error) { return s.ruleCheck.target(raw) }

// checkPlan answers plan_required when the workspace's plan lacks what fields need.
func (s *Service) checkPlan(ctx context.Context, workspaceID int64, fields []string, isEdit bool) error {
	if s.plans == nil || len(fields) == 0 {
		return nil
	}
	return s.plans.CheckLinkFields(ctx, workspaceID, fields, isEdit)
}

// hashPassword hashes the password f sets, if any.
func (s *Service) hashPassword(ctx context.Context, f *RuleFields) (string, error) {
	if !f.Password.Set || f.Password.Value == nil {
		return "", nil
	}
	if s.passwords == nil {
		return "", errors.New("link passwords: no hasher configured")
	}
	hash, err := s.passwords.Hash(ctx, *f.Password.Value)
	if err != nil {
		return "", fmt.Errorf("hash link password: %w", err)
	}
	return hash, nil
}

func (s *Service) validateFields(title string, status *int, expires *time.Time) error {
	if utf8.RuneCountInString(title) > MaxTitleLength || !utf8.ValidString(title) || strings.IndexByte(title, 0) >= 0 {
		return apperr.Errorf(apperr.Invalid, "title must be valid text of at most %d characters", MaxTitleLength).For("title_invalid", "title")
	}
	switch *status {
	case 0:
		*status = 302
	case 301, 302, 307:
	default:
		return apperr.Errorf(apperr.Invalid, "redirect_status must be 301, 302 or 307").For("value_invalid", "redirect_status")
	}
	if expires != nil && !expires.After(time.Now()) {
		return apperr.Errorf(apperr.Invalid, "expires_at must be in the future").For("expires_at_past", "expires_at")
	}
	return nil
}

// domainID maps a domain name from the API to its ID: empty or one of the service's own hosts
// is the short domain, anything else must be a verified domain of the workspace.
func (s *Service) domainID(ctx context.Context, workspaceID int64, name string) (int64, error) {
	if name == "" {
		return DefaultDomain, nil
	}
	for _, h := range append([]string{s.domain}, s.ownHosts...) {
		if strings.EqualFold(name, h) {
			return DefaultDomain, nil
		}
	}
	if s.domains == nil || len(name) > 1000 {
		return 0, apperr.Errorf(apperr.Invalid, "domain %q is not a domain of this workspace", name).For("domain_not_verified", "domain")
	}
	return s.domains.Resolve(ctx, workspaceID, name)
}

// Decorate fills the fields of a link read from the store that are derived, not stored.
func (s *Service) Decorate(l *Link) *Link {
	if l.DomainID == DefaultDomain || s.domains == nil {
		l.Domain = s.domain
		l.ShortURL = s.base + l.Key
		return l
	}
	host, active := s.domains.Name(l.DomainID)
	l.Domain, l.ShortURL, l.DomainRemoved = host, "", !active
	if active {
		l.ShortURL = s.scheme + "://" + host + "/" + l.Key
	}
	return l
}

// ShortURL is the short URL of the link at key on a domain, as link answers show it: "" for
// a custom domain since removed (its links answer nowhere).
func (s *Service) ShortURL(domainID int64, key string) string {
	if domainID == DefaultDomain || s.domains == nil {
		return s.base + key
	}
	host, active := s.domains.Name(domainID)
	if !active {
		return ""
	}
	return s.scheme + "://" + host + "/" + key
}
