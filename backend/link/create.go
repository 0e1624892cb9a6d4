// Creating links, one or a batch: validation, IDs and codes, the month's quota, and the
// coalescing writer's answers.

package link

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/tag"
)

// MaxBatch is the most links one batch call may create.
const MaxBatch = 1000

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
	l.ArchivedAt = archivedAt(in.Archived, l.CreatedAt)
	if err := s.validateFields(l.Title, &l.RedirectStatus, l.ExpiresAt); err != nil {
		return nil, nil, err
	}
	if err := setUTMAndQR(l, &in); err != nil {
		return nil, nil, err
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
	if in.Dedupe && in.Alias == "" && !in.RuleFields.Any() && l.UTM.IsZero() && l.QR == nil {
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
