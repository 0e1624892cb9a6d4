package link

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/sync/singleflight"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/code"
	"github.com/shortlink/shortlink/backend/tag"
)

// MaxBatch is the most links one batch call may create.
const MaxBatch = 1000

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
	// CheckLinkFields answers plan_required for the first field (§13.1 names) the plan lacks.
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

// Result is the answer for one row of a batch: a link or an error.
type Result struct {
	Link    *Link
	Created bool
	Err     error
}

// Create validates in and returns the new link once its row is committed. With in.Dedupe an
// existing link to the same URL is returned instead, with created=false.
func (s *Service) Create(ctx context.Context, workspaceID, userID int64, in Input) (*Link, bool, error) {
	var target string
	var err error
	if in.Dedupe {
		target, err = s.normalizeTarget(in.URL)
	}
	if !in.Dedupe || err != nil {
		r := s.CreateBatch(ctx, workspaceID, userID, []Input{in})[0]
		return r.Link, r.Created, r.Err
	}
	// Two identical dedupe creates at once would each find nothing and each create a link:
	// on this node the second waits for the first and gets its link.
	key := strconv.FormatInt(workspaceID, 10) + "\x00" + in.Domain + "\x00" + in.Alias + "\x00" + target
	leader := false
	v, _, _ := s.dedupes.Do(key, func() (any, error) {
		leader = true
		// Others wait on this call: one caller going away must not fail theirs. The first
		// caller's deadline still bounds it, and so every caller's wait: those who came later
		// have later deadlines.
		lctx := context.WithoutCancel(ctx)
		if d, ok := ctx.Deadline(); ok {
			var cancel context.CancelFunc
			lctx, cancel = context.WithDeadline(lctx, d)
			defer cancel()
		}
		return s.CreateBatch(lctx, workspaceID, userID, []Input{in})[0], nil
	})
	r := v.(Result)
	if !leader {
		r.Created = false
	}
	return r.Link, r.Created, r.Err
}

// CreateBatch creates up to MaxBatch links, answering each row on its own, in input order.
func (s *Service) CreateBatch(ctx context.Context, workspaceID, userID int64, ins []Input) []Result {
	results, toWrite := s.prepareAll(ctx, workspaceID, userID, ins, nil)
	s.write(ctx, workspaceID, results, toWrite, true)
	return results
}

// prepareAll validates every input and gives each new link its ID: ids[i], when ids is not nil
// and it is not 0, is the ID row i takes. It returns the results so far and the rows that make
// a new link, in input order.
func (s *Service) prepareAll(ctx context.Context, workspaceID, userID int64, ins []Input, ids []int64) ([]Result, []int) {
	results := make([]Result, len(ins))
	// Rows are written by several writers at once, so of two rows with one alias the first
	// is made to win here rather than by whichever commits first.
	type place struct {
		domain int64
		key    string
	}
	aliases := map[place]bool{}
	var toWrite []int // rows that make a new link
	for i, in := range ins {
		var id int64
		if ids != nil {
			id = ids[i]
		}
		l, existing, err := s.prepare(ctx, workspaceID, userID, in, id)
		if err == nil && l != nil && l.IsAlias {
			p := place{l.DomainID, l.Key}
			if aliases[p] {
				err = apperr.Errorf(apperr.Conflict, "alias %q is already in use", in.Alias).For("alias_taken", "alias")
			}
			aliases[p] = true
		}
		switch {
		case err != nil && apperr.CodeOf(err) == apperr.Internal && callerGone(ctx):
			results[i].Err = errNotSaved
		case err != nil:
			results[i].Err = err
		case existing != nil:
			results[i].Link = s.Decorate(existing)
		default:
			results[i].Link = l
			toWrite = append(toWrite, i)
		}
	}
	return results, s.spellTags(ctx, workspaceID, results, toWrite)
}

// spellTags makes the tags the new links of rows toWrite name and the workspace lacks, all at
// once, and gives each link the workspace's spelling of its tags. Should that fail, every row
// with tags answers the error; the rows still to write are returned.
func (s *Service) spellTags(ctx context.Context, workspaceID int64, results []Result, toWrite []int) []int {
	var names []string
	seen := map[string]bool{}
	for _, i := range toWrite {
		for _, n := range results[i].Link.Tags {
			if f := tag.Fold(n); !seen[f] {
				seen[f] = true
				names = append(names, n)
			}
		}
	}
	if len(names) == 0 {
		return toWrite
	}
	var tags []tag.Tag
	err := fmt.Errorf("create link: no tag service configured")
	if s.tags != nil {
		tags, err = s.tags.Ensure(ctx, workspaceID, names)
	}
	spelling := make(map[string]string, len(tags))
	for _, t := range tags {
		spelling[tag.Fold(t.Name)] = t.Name
	}
	kept := toWrite[:0]
	for _, i := range toWrite {
		l := results[i].Link
		if len(l.Tags) == 0 {
			kept = append(kept, i)
			continue
		}
		if err != nil {
			if apperr.CodeOf(err) == apperr.Internal {
				s.log.Error("create link: tags", "err", err)
				err = apperr.Errorf(apperr.Unavailable, "cannot save links right now, try again").For("unavailable", "")
			}
			results[i] = Result{Err: err}
			continue
		}
		for j, n := range l.Tags {
			if sp, ok := spelling[tag.Fold(n)]; ok {
				l.Tags[j] = sp
			}
		}
		tag.Sort(l.Tags)
		kept = append(kept, i)
	}
	return kept
}

// write takes the month's quota for the rows toWrite, in order, writes their links through the
// coalescing writer and answers each row in results. With reissue, a generated code that
// collides with an alias created meanwhile takes the next ID; without, the row answers conflict.
func (s *Service) write(ctx context.Context, workspaceID int64, results []Result, toWrite []int, reissue bool) {
	waits := make([]<-chan error, len(results))
	// The month's quota is taken for the rows to be written, in input order: those past it
	// are refused one by one.
	granted := len(toWrite)
	if s.plans != nil && len(toWrite) > 0 {
		var qerr error
		granted, qerr = s.plans.Reserve(ctx, workspaceID, len(toWrite))
		if qerr != nil && callerGone(ctx) {
			qerr = errNotSaved
		}
		for _, i := range toWrite[granted:] {
			results[i] = Result{Err: qerr}
		}
	}
	failed := 0 // rows granted and not created: their quota is given back
	defer func() {
		if failed > 0 && s.plans != nil {
			s.plans.Release(workspaceID, failed)
		}
	}()
	// Passwords are hashed only now, for the rows the quota granted: a batch or an import
	// past the month's quota costs no argon2id.
	for _, i := range toWrite[:granted] {
		if err := s.hashPending(ctx, results[i].Link); err != nil {
			results[i] = Result{Err: s.writeError(ctx, err)}
			failed++
			continue
		}
		waits[i] = s.batch.submit(ctx, results[i].Link)
	}
	var unanswered []<-chan error
	for i, w := range waits {
		if w == nil {
			continue
		}
		var err error
		select {
		case err = <-w:
		case <-ctx.Done():
			// The caller's deadline passed or it went away: rows not answered by now are not
			// acknowledged, though they may still be written. What they took of the quota is
			// given back once the writer has answered them (release).
			select {
			case err = <-w:
			default:
				results[i] = Result{Err: errNotSaved}
				unanswered = append(unanswered, w)
				continue
			}
		}
		// A generated code can collide with an alias created on the same domain meanwhile:
		// such a row simply takes the next ID.
		for try := 0; reissue && apperr.Is(err, apperr.Conflict) && !results[i].Link.IsAlias && try < 5 && ctx.Err() == nil; try++ {
			if err = s.assignCode(ctx, results[i].Link); err == nil {
				err = s.wait(ctx, s.batch.submit(ctx, results[i].Link))
			}
		}
		if err != nil {
			results[i] = Result{Err: s.writeError(ctx, err)}
			failed++
			continue
		}
		results[i].Created = true
		s.Decorate(results[i].Link)
	}
	if len(unanswered) > 0 && s.plans != nil {
		go s.release(workspaceID, unanswered)
	}
}

// wait returns the writer's answer for one row, or the caller's context error when that ends
// first (the row may still be written, unacknowledged).
func (s *Service) wait(ctx context.Context, w <-chan error) error {
	select {
	case err := <-w:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// release waits for the writer's answers of rows whose caller stopped waiting and gives back
// the quota of those that were not written.
func (s *Service) release(workspaceID int64, waits []<-chan error) {
	failed := 0
	for _, w := range waits {
		if <-w != nil {
			failed++
		}
	}
	if failed > 0 {
		s.plans.Release(workspaceID, failed)
	}
}

// errNotSaved answers a write not acknowledged because its caller's deadline passed or the
// caller went away; the caller may retry.
var errNotSaved = apperr.Errorf(apperr.Unavailable, "cannot save links right now, try again").For("unavailable", "")

// callerGone reports whether ctx's caller went away or its deadline passed. The deadline is read
// from the clock: a store's own timer may fire at it before the context's does.
func callerGone(ctx context.Context) bool {
	if ctx.Err() != nil {
		return true
	}
	d, ok := ctx.Deadline()
	return ok && !time.Now().Before(d)
}

// writeError is what a caller of ctx is told of a row the writer did not write.
func (s *Service) writeError(ctx context.Context, err error) error {
	if errors.Is(err, errClosed) {
		return apperr.Errorf(apperr.Unavailable, "the service is shutting down, try again").For("unavailable", "")
	}
	if apperr.CodeOf(err) == apperr.Internal && callerGone(ctx) {
		// Most likely because of the caller's deadline or its leaving: no failure to log.
		return errNotSaved
	}
	if apperr.CodeOf(err) == apperr.Internal {
		// Rows are refused one by one with their own errors; a whole write failing means the
		// database cannot be written to now, which the client may retry.
		s.log.Error("create link: write failed", "err", err)
		return apperr.Errorf(apperr.Unavailable, "cannot save links right now, try again").For("unavailable", "")
	}
	return err
}

// prepare validates one input; it returns the link to insert, or an existing one for dedupe.
// A new link takes the ID id, or the next one when id is 0.
func (s *Service) prepare(ctx context.Context, workspaceID, userID int64, in Input, id int64) (*Link, *Link, error) {
	target, err := s.normalizeTarget(in.URL)
	if err != nil {
		return nil, nil, err
	}
	domainID, err := s.domainID(ctx, workspaceID, in.Domain)
	if err != nil {
		return nil, nil, err
	}
	l := &Link{
		WorkspaceID:    workspaceID,
		DomainID:       domainID,
		URL:            target,
		Title:          in.Title,
		RedirectStatus: in.RedirectStatus,
		ForwardQuery:   in.ForwardQuery,
		Status:         StatusActive,
		ExpiresAt:      in.ExpiresAt,
		CreatedAt:      time.Now().UTC().Truncate(time.Microsecond), // PostgreSQL's precision: answers and caches agree
	}
	if userID != 0 {
		l.CreatedBy = &userID
	}
	l.UpdatedAt = l.CreatedAt
	if err := s.validateFields(l.Title, &l.RedirectStatus, l.ExpiresAt); err != nil {
		return nil, nil, err
	}
	if in.UTM != nil {
		in.UTM.Trim()
		if err := in.UTM.Validate("utm"); err != nil {
			return nil, nil, err
		}
		l.UTM = *in.UTM
	}
	l.Finish()
	if err := in.RuleFields.Validate(s.ruleCheck); err != nil {
		return nil, nil, err
	}
	if len(in.Tags) > 0 {
		if l.Tags, err = tag.Names(in.Tags, "tags"); err != nil {
			return nil, nil, err
		}
	}
	if err := s.checkPlan(ctx, workspaceID, in.RuleFields.Setting(), false); err != nil {
		return nil, nil, err
	}
	// An alias asks for that very code, and rules ask for a link of their own, so there is
	// nothing to dedupe against.
	if in.Dedupe && in.Alias == "" && !in.RuleFields.Any() && l.UTM.IsZero() {
		existing, err := s.store.FindByURL(ctx, workspaceID, target)
		if err == nil && existing.DomainID == domainID {
			return nil, existing, nil
		}
		if err == nil {
			err = apperr.Errorf(apperr.NotFound, "the link to that URL is on another domain").For("link_not_found", "")
		}
		if !apperr.Is(err, apperr.NotFound) {
			return nil, nil, fmt.Errorf("create link: dedupe: %w", err)
		}
	}
	if err := s.applyRules(l, &in.RuleFields); err != nil {
		return nil, nil, err
	}
	if in.Alias != "" {
		if err := ValidateAlias(in.Alias); err != nil {
			return nil, nil, err
		}
		if id, ok := s.codec.Decode(in.Alias); ok {
			// The alias spells a code: refuse it if that ID was issued, else keep the ID unissued.
			if err := s.store.ReserveID(ctx, workspaceID, l.DomainID, in.Alias, int64(id), s.maxCodeAliases); err != nil {
				if apperr.Is(err, apperr.Conflict) {
					return nil, nil, apperr.Errorf(apperr.Conflict, "alias %q is already in use", in.Alias).For("alias_taken", "alias")
				}
				return nil, nil, fmt.Errorf("create link: reserve alias: %w", err)
			}
			s.cache.Reserved(ctx, int64(id))
		}
		if id == 0 {
			if id, err = s.ids.Next(ctx); err != nil {
				return nil, nil, s.idError(ctx, err)
			}
		}
		l.ID, l.Key, l.IsAlias = id, in.Alias, true
		return l, nil, nil
	}
	if id != 0 {
		key, err := s.codec.Encode(uint64(id))
		if err != nil {
			return nil, nil, fmt.Errorf("create link: code of id %d: %w", id, err)
		}
		l.ID, l.Key = id, key
		return l, nil, nil
	}
	if err := s.assignCode(ctx, l); err != nil {
		return nil, nil, err
	}
	return l, nil, nil
}

// normalizeTarget is NormalizeURL, refusing the verified custom domains too.
func (s *Service) normalizeTarget(raw string) (string, error) { return s.ruleCheck.target(raw) }

// checkPlan answers plan_required when the workspace's plan lacks what fields need.
func (s *Service) checkPlan(ctx context.Context, workspaceID int64, fields []string, isEdit bool) error {
	if s.plans == nil || len(fields) == 0 {
		return nil
	}
	return s.plans.CheckLinkFields(ctx, workspaceID, fields, isEdit)
}

// applyRules sets the new link's rules from validated fields. Its password is kept to be
// hashed by write, once the quota has granted the link (hashPending).
func (s *Service) applyRules(l *Link, f *RuleFields) error {
	if !f.Any() {
		return nil
	}
	if f.Password.Set && f.Password.Value != nil {
		if s.passwords == nil {
			return errors.New("link passwords: no hasher configured")
		}
		l.password = *f.Password.Value
	}
	l.Rules = f.Apply(Rules{}, "")
	return nil
}

// hashPending hashes the password a new link was given (applyRules) into its rules.
func (s *Service) hashPending(ctx context.Context, l *Link) error {
	if l.password == "" {
		return nil
	}
	hash, err := s.passwords.Hash(ctx, l.password)
	if err != nil {
		return fmt.Errorf("hash link password: %w", err)
	}
	l.Rules.PasswordHash, l.password = hash, ""
	return nil
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

func (s *Service) assignCode(ctx context.Context, l *Link) error {
	id, err := s.ids.Next(ctx)
	if err != nil {
		return s.idError(ctx, err)
	}
	key, err := s.codec.Encode(uint64(id))
	if err != nil {
		return apperr.Errorf(apperr.Unavailable, "this deployment has issued every code of its length").For("codes_exhausted", "")
	}
	l.ID, l.Key = id, key
	return nil
}

func (s *Service) idError(ctx context.Context, err error) error {
	if apperr.CodeOf(err) != apperr.Internal {
		return err
	}
	if callerGone(ctx) {
		return errNotSaved
	}
	s.log.Error("allocate link id", "err", err)
	return apperr.Errorf(apperr.Unavailable, "cannot create links right now, try again").For("unavailable", "")
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

// Get returns one of the workspace's links.
func (s *Service) Get(ctx context.Context, workspaceID, id int64) (*Link, error) {
	l, err := s.store.Get(ctx, workspaceID, id)
	if err != nil {
		return nil, err
	}
	return s.Decorate(l), nil
}

// MaxPage is the largest page List returns.
const MaxPage = 100

// MaxDays is the most days of visits a listing answers per link.
const MaxDays = 31

// List returns a page of the workspace's links in the order of f.Sort, each with its visits,
// and the cursor of the next page (nil when there is none).
func (s *Service) List(ctx context.Context, workspaceID int64, f Filter) ([]*Link, *Cursor, error) {
	if f.Limit < 1 || f.Limit > MaxPage {
		return nil, nil, apperr.Errorf(apperr.Invalid, "limit must be between 1 and %d", MaxPage).For("value_invalid", "limit")
	}
	if f.Sort == "" {
		f.Sort = SortNewest
	}
	if !f.Sort.Valid() {
		return nil, nil, apperr.Errorf(apperr.Invalid, "sort must be created, -created, visits or -visits").For("value_invalid", "sort")
	}
	if f.After != nil && (f.After.ID <= 0 || f.After.Visits < 0 || (!f.Sort.ByVisits() && f.After.Visits != 0)) {
		return nil, nil, apperr.Errorf(apperr.Invalid, "cursor is not one of this listing's").For("value_invalid", "cursor")
	}
	if len(f.Days) == 1 || len(f.Days) > MaxDays+1 {
		return nil, nil, fmt.Errorf("list links: %d day bounds", len(f.Days))
	}
	if len(f.Query) > 200 || !utf8.ValidString(f.Query) || strings.IndexByte(f.Query, 0) >= 0 {
		return nil, nil, apperr.Errorf(apperr.Invalid, "q must be text of at most 200 characters").For("value_invalid", "q")
	}
	switch f.Status {
	case "", StatusActive, StatusDisabled, StatusBanned, StatusHeld:
	default:
		return nil, nil, apperr.Errorf(apperr.Invalid, "status must be active, disabled, banned or held").For("value_invalid", "status")
	}
	switch f.Health {
	case "", "ok", "broken":
	default:
		return nil, nil, apperr.Errorf(apperr.Invalid, "health must be ok or broken").For("value_invalid", "health")
	}
	f.DomainID = nil
	if f.Domain != "" {
		id, err := s.domainID(ctx, workspaceID, f.Domain)
		if err != nil {
			return nil, nil, err
		}
		f.DomainID = &id
	}
	f.TagID = nil
	if f.Tag != "" {
		var tags []tag.Tag
		var err error
		if s.tags != nil && len(f.Tag) <= 4*tag.MaxNameLength {
			if tags, err = s.tags.Find(ctx, workspaceID, []string{f.Tag}); err != nil {
				return nil, nil, err
			}
		}
		if len(tags) == 0 {
			return []*Link{}, nil, nil // no such tag: no link carries it
		}
		f.TagID = &tags[0].ID
	}
	links, more, err := s.store.List(ctx, workspaceID, f)
	if err != nil {
		return nil, nil, err
	}
	for _, l := range links {
		s.Decorate(l)
	}
	if !more || len(links) == 0 {
		return links, nil, nil
	}
	last := links[len(links)-1]
	next := &Cursor{ID: last.ID}
	if f.Sort.ByVisits() && last.Visits != nil {
		next.Visits = last.Visits.Total
	}
	return links, next, nil
}

// Lookup finds the workspace's link by its short URL or its code.
func (s *Service) Lookup(ctx context.Context, workspaceID int64, shortURL, key string) (*Link, error) {
	domainID := DefaultDomain
	if shortURL != "" {
		u, err := url.Parse(shortURL)
		if err != nil || u.Host == "" {
			return nil, apperr.Errorf(apperr.Invalid, "short_url must be a full URL such as %sabc123", s.base).For("short_url_invalid", "short_url")
		}
		id, err := s.domainID(ctx, workspaceID, u.Hostname())
		if err != nil {
			if id, err = s.domainID(ctx, workspaceID, u.Host); err != nil {
				return nil, apperr.Errorf(apperr.NotFound, "link not found").For("link_not_found", "")
			}
		}
		domainID = id
		key = strings.TrimSuffix(strings.TrimPrefix(u.Path, "/"), "+")
	}
	if key == "" {
		return nil, apperr.Errorf(apperr.Invalid, "give short_url or code").For("short_url_required", "short_url")
	}
	if !KeyShaped(key) {
		return nil, apperr.Errorf(apperr.NotFound, "link not found").For("link_not_found", "")
	}
	l, err := s.store.FindByKey(ctx, workspaceID, domainID, key)
	if err != nil {
		return nil, err
	}
	return s.Decorate(l), nil
}

// Update applies p to one of the workspace's links; every node sees the change within a second.
func (s *Service) Update(ctx context.Context, workspaceID, id int64, p Patch) (*Link, error) {
	if p.URL.Set {
		target, err := s.normalizeTarget(p.URL.Value)
		if err != nil {
			return nil, err
		}
		p.URL.Value = target
	}
	title, status := "", 302
	if p.Title.Set {
		title = p.Title.Value
	}
	if p.RedirectStatus.Set {
		if p.RedirectStatus.Value == 0 {
			return nil, apperr.Errorf(apperr.Invalid, "redirect_status must be 301, 302 or 307").For("value_invalid", "redirect_status")
		}
		status = p.RedirectStatus.Value
	}
	if err := s.validateFields(title, &status, p.ExpiresAt.Value); err != nil {
		return nil, err
	}
	if p.Status.Set && p.Status.Value != StatusActive && p.Status.Value != StatusDisabled {
		return nil, apperr.Errorf(apperr.Invalid, "status must be active or disabled").For("value_invalid", "status")
	}
	if p.UTM.Set && p.UTM.Value != nil {
		p.UTM.Value.Trim()
		if err := p.UTM.Value.Validate("utm"); err != nil {
			return nil, err
		}
	}
	if err := p.RuleFields.Validate(s.ruleCheck); err != nil {
		return nil, err
	}
	fields := p.RuleFields.Setting()
	if p.URL.Set {
		fields = append(fields, "url")
	}
	if err := s.checkPlan(ctx, workspaceID, fields, true); err != nil {
		return nil, err
	}
	if p.Tags.Set {
		names, err := tag.Names(p.Tags.Value, "tags")
		if err != nil {
			return nil, err
		}
		p.TagIDs = []int64{}
		if len(names) > 0 {
			if s.tags == nil {
				return nil, fmt.Errorf("edit link: no tag service configured")
			}
			// No tags are made for a link that is not the workspace's.
			if _, err := s.store.Get(ctx, workspaceID, id); err != nil {
				return nil, err
			}
			tags, err := s.tags.Ensure(ctx, workspaceID, names)
			if err != nil {
				return nil, err
			}
			for _, t := range tags {
				p.TagIDs = append(p.TagIDs, t.ID)
			}
		}
	}
	hash, err := s.hashPassword(ctx, &p.RuleFields)
	if err != nil {
		return nil, err
	}
	p.Rules = p.RuleFields.Edit(hash)
	l, err := s.store.Update(ctx, workspaceID, id, p)
	if err != nil {
		return nil, err
	}
	s.cache.Changed(ctx, l)
	return s.Decorate(l), nil
}

// Delete removes one of the workspace's links; its short URL answers 404 everywhere.
func (s *Service) Delete(ctx context.Context, workspaceID, id int64) error {
	l, err := s.store.Delete(ctx, workspaceID, id)
	if err != nil {
		return err
	}
	s.cache.Removed(ctx, l)
	return nil
}
