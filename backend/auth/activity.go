package auth

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sync"
	"time"

	"github.com/google/uuid"
)

// ActivityFlushEvery is how often a node writes when the sessions it let into workspaces were
// last active: each session's last activity is written at most once in that time, all of them
// in one statement, never once a request (docs/security.md#session-policy).
const ActivityFlushEvery = time.Minute

// ActivitySlack is how much later than a session's true last activity a node may know it: a
// request let in on another node is written within ActivityFlushEvery and then read within
// the liveCacheTTL a node remembers a session. The idle timeout waits that much longer, so
// that no node refuses a session early.
const ActivitySlack = ActivityFlushEvery + liveCacheTTL

// activity is what a node saw of sessions being let into workspaces and has not written yet.
type activity struct {
	mu   sync.Mutex
	seen map[uuid.UUID]time.Time
}

func newActivity() *activity { return &activity{seen: map[uuid.UUID]time.Time{}} }

// touch records that the session was let in at t.
func (a *activity) touch(id uuid.UUID, t time.Time) {
	a.mu.Lock()
	if t.After(a.seen[id]) {
		a.seen[id] = t
	}
	a.mu.Unlock()
}

// last is when this node last let the session in and has not written it yet (zero: not since
// the last write).
func (a *activity) last(id uuid.UUID) time.Time {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.seen[id]
}

// take hands over what was seen and starts afresh.
func (a *activity) take() map[uuid.UUID]time.Time {
	a.mu.Lock()
	defer a.mu.Unlock()
	seen := a.seen
	a.seen = map[uuid.UUID]time.Time{}
	return seen
}

// putBack keeps what could not be written for the next try.
func (a *activity) putBack(seen map[uuid.UUID]time.Time) {
	for id, t := range seen {
		a.touch(id, t)
	}
}

// HashAddress is the keyed hash a session's address is shown as (ip_hash): equal for equal
// addresses under one JWT_SECRET, and no way back to the address; "" for no address.
func (s *Service) HashAddress(ip string) string {
	if ip == "" {
		return ""
	}
	m := hmac.New(sha256.New, s.addressKey)
	m.Write([]byte(ip))
	return hex.EncodeToString(m.Sum(nil))[:32]
}

// CheckSessionPolicy decides whether the access token's session may reach a workspace of
// policy p, now by the service's clock: nil, or unauthorized (session_max_age,
// session_idle_timeout). A session whose state could not be read is refused (the error),
// never let through. Without sessions kept, a policy that limits refuses.
func (s *Service) CheckSessionPolicy(ctx context.Context, p SessionPolicy, session uuid.UUID) error {
	if !p.Limits() {
		return nil
	}
	if s.sessions == nil || session == uuid.Nil {
		return errSessionUnknown
	}
	st, err := s.sessionState(ctx, session)
	if err != nil {
		return fmt.Errorf("check session policy: %w", err)
	}
	f := SessionFacts{StartedAt: st.StartedAt, LastActiveAt: st.LastActiveAt}
	if t := s.sessions.activity.last(session); t.After(f.LastActiveAt) {
		f.LastActiveAt = t
	}
	if p.IdleTimeout > 0 {
		p.IdleTimeout += ActivitySlack
	}
	return p.Check(f, s.sessions.now())
}

// SessionActive records that the session was let into a workspace now; it is written with
// the others at the next FlushActivity. Tokens of no session are not recorded.
func (s *Service) SessionActive(session uuid.UUID) {
	if s.sessions == nil || session == uuid.Nil {
		return
	}
	s.sessions.activity.touch(session, s.sessions.now())
}

// FlushActivity writes, in one statement, when each session this node let in since the last
// flush was last active, and answers how many sessions it wrote. What fails to be written is
// kept for the next flush.
func (s *Service) FlushActivity(ctx context.Context) (int, error) {
	if s.sessions == nil {
		return 0, nil
	}
	seen := s.sessions.activity.take()
	if len(seen) == 0 {
		return 0, nil
	}
	if err := s.sessions.store.RecordActivity(ctx, seen); err != nil {
		s.sessions.activity.putBack(seen)
		return 0, fmt.Errorf("record session activity: %w", err)
	}
	for id := range seen {
		// The state remembered may predate what was just written.
		s.sessions.live.Invalidate(id)
	}
	return len(seen), nil
}

// RunActivity flushes the sessions' activity every ActivityFlushEvery until ctx ends, then
// once more within a few seconds.
func (s *Service) RunActivity(ctx context.Context) {
	if s.sessions == nil {
		return
	}
	tick := time.NewTicker(ActivityFlushEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			last, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			if _, err := s.FlushActivity(last); err != nil {
				s.log.Warn("write session activity at shutdown", "err", err)
			}
			cancel()
			return
		case <-tick.C:
			if _, err := s.FlushActivity(ctx); err != nil {
				s.log.Warn("write session activity", "err", err)
			}
		}
	}
}

// MemberSessions lists the user's live sessions as a workspace's owners see them, current
// marking the caller's own: with when each was last let into a workspace, by this node's
// knowledge when it is newer than what was written.
func (s *Service) MemberSessions(ctx context.Context, userID int64, current uuid.UUID) ([]Session, error) {
	list, err := s.Sessions(ctx, userID, current)
	if err != nil {
		return nil, err
	}
	for i := range list {
		if t := s.sessions.activity.last(list[i].ID); t.After(list[i].LastActiveAt) {
			list[i].LastActiveAt = t
		}
	}
	return list, nil
}

// EndMembersSessions signs out every session of every member of the workspace but keep, and
// answers how many sessions of how many people.
func (s *Service) EndMembersSessions(ctx context.Context, workspaceID int64, keep uuid.UUID) (sessions, people int, err error) {
	if s.sessions == nil {
		return 0, 0, errNoSessions
	}
	sessions, people, err = s.sessions.store.RevokeMembersSessions(ctx, workspaceID, keep)
	if err != nil {
		return 0, 0, fmt.Errorf("end the members' sessions: %w", err)
	}
	s.ForgetSessions()
	return sessions, people, nil
}
