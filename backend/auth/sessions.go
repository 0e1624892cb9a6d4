package auth

import (
	"context"
	"fmt"
	"net/netip"
	"time"

	"github.com/google/uuid"
	"github.com/maypok86/otter/v2"

	"github.com/shortlink/shortlink/backend/apperr"
)

// liveCacheTTL bounds how long a session signed out on another node keeps its access tokens
// working here; on the node that signed it out they stop at once.
const liveCacheTTL = 5 * time.Second

// Device is what a session's requests say about where it runs: browser and system families
// (as the visitor package names them; "" when unknown) and the network of its address.
type Device struct {
	Browser string
	OS      string
	// Network is the address's /24 (IPv4) or /48 (IPv6), never the address itself; "" when
	// there is none.
	Network string
	// IPHash is the keyed hash of the address (Service.HashAddress); "" when there is none.
	IPHash string
}

// NetworkOf is the network a session's address is shown as: an IPv4 address's /24, an IPv6
// address's /48, "" for anything that is not an address.
func NetworkOf(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return ""
	}
	a = a.Unmap().WithZone("")
	bits := 48
	if a.Is4() {
		bits = 24
	}
	p, err := a.Prefix(bits)
	if err != nil {
		return ""
	}
	return p.String()
}

// Session is one signed-in device of a person: a refresh-token family.
type Session struct {
	ID        uuid.UUID `json:"id"`
	CreatedAt time.Time `json:"created_at"`
	// LastUsedAt is when its newest refresh token was issued: sign-in or the last renewal.
	LastUsedAt time.Time `json:"last_used_at"`
	Browser    string    `json:"browser"`
	OS         string    `json:"os"`
	Network    string    `json:"network"`
	// Current marks the session of the request that listed them.
	Current bool `json:"current"`
	// ExpiresAt is when its newest refresh token expires; LastActiveAt when it was last let
	// into a workspace (zero: never); IPHash is its newest token's. Owners see them in a
	// member's sessions (docs/security.md#session-policy); the person's own list does not.
	ExpiresAt    time.Time `json:"-"`
	LastActiveAt time.Time `json:"-"`
	IPHash       string    `json:"-"`
}

// SessionState is what a request's check needs of its session, remembered for a few seconds.
type SessionState struct {
	// Live: none of its tokens revoked and its newest not expired.
	Live bool
	// StartedAt is when it began (its first token); LastActiveAt when a node last wrote it
	// was let into a workspace (zero: never).
	StartedAt    time.Time
	LastActiveAt time.Time
}

// SessionStore keeps what the sessions list and the revocations need, beside RefreshStore.
type SessionStore interface {
	// DescribeRefresh records the device of the request that was issued the token.
	DescribeRefresh(ctx context.Context, hash []byte, d Device) error
	// Sessions lists the user's live sessions, most recently used first.
	Sessions(ctx context.Context, userID int64) ([]Session, error)
	// RevokeSession revokes the user's live session id; not_found when the user has none.
	RevokeSession(ctx context.Context, userID int64, id uuid.UUID) error
	// RevokeSessionsExcept revokes every session of the user but keep (uuid.Nil: all), and
	// answers how many it revoked.
	RevokeSessionsExcept(ctx context.Context, userID int64, keep uuid.UUID) (int, error)
	// SessionState reports whether the session is live, when it began and when it was last
	// active; a session of no token answers not live.
	SessionState(ctx context.Context, id uuid.UUID) (SessionState, error)
	// SessionStarted stores when the session began, by the clock of the policies.
	SessionStarted(ctx context.Context, id uuid.UUID, at time.Time) error
	// RecordActivity stores when each session was last let into a workspace, keeping the
	// later of what is stored and what is given.
	RecordActivity(ctx context.Context, seen map[uuid.UUID]time.Time) error
	// RevokeMembersSessions revokes every session of every member of the workspace but keep,
	// and answers how many sessions of how many people.
	RevokeMembersSessions(ctx context.Context, workspaceID int64, keep uuid.UUID) (sessions, people int, err error)
}

type sessions struct {
	store SessionStore
	// live caches SessionState by session.
	live *otter.Cache[uuid.UUID, SessionState]
	// now is the clock of the session policies (UseClock).
	now func() time.Time
	// activity is what this node saw of sessions being let into workspaces and has not
	// written yet.
	activity *activity
	// ended tells the other nodes of sessions signed out here (OnSessionsEnded); nil: nobody.
	ended func(ctx context.Context)
}

// UseSessions lets the service list and end sessions, and refuse the access tokens of ended
// ones (CheckSession); without it tokens stay good until they expire.
func (s *Service) UseSessions(store SessionStore) {
	s.sessions = &sessions{store: store, live: otter.Must(&otter.Options[uuid.UUID, SessionState]{
		MaximumSize:      100_000,
		ExpiryCalculator: otter.ExpiryWriting[uuid.UUID, SessionState](liveCacheTTL),
	}), now: time.Now, activity: newActivity()}
}

// StartSession starts a session (a refresh-token family) for the user on device d, begun
// via, and returns its first refresh token and the session's ID.
func (s *Service) StartSession(ctx context.Context, userID int64, d Device, via Via) (string, uuid.UUID, error) {
	family := uuid.New()
	token, err := s.issueRefresh(ctx, userID, family, via)
	if err != nil {
		return "", uuid.Nil, err
	}
	if s.sessions != nil {
		// A session whose start is not written is judged by its first token's, a moment
		// earlier: a policy then ends it sooner, never later.
		if err := s.sessions.store.SessionStarted(ctx, family, s.sessions.now()); err != nil {
			s.log.Warn("record the start of a session", "err", err)
		}
	}
	s.describe(ctx, token, d)
	return token, family, nil
}

// RotateSession is Rotate for a request from device d, and also answers the session's ID.
func (s *Service) RotateSession(ctx context.Context, token string, d Device) (userID int64, session uuid.UUID, next string, err error) {
	userID, session, next, err = s.rotate(ctx, token)
	if err == nil {
		s.describe(ctx, next, d)
	}
	return userID, session, next, err
}

// describe records the device of a new token; the list shows less when it fails, nothing more.
func (s *Service) describe(ctx context.Context, token string, d Device) {
	if s.sessions == nil {
		return
	}
	if err := s.sessions.store.DescribeRefresh(ctx, hashToken(token), d); err != nil {
		s.log.Warn("record the device of a session", "err", err)
	}
}

var errNoSessions = apperr.Errorf(apperr.Unavailable, "sessions are not kept by this server").For("unavailable", "")

// Sessions lists the user's live sessions, current marking the caller's own.
func (s *Service) Sessions(ctx context.Context, userID int64, current uuid.UUID) ([]Session, error) {
	if s.sessions == nil {
		return nil, errNoSessions
	}
	list, err := s.sessions.store.Sessions(ctx, userID)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	for i := range list {
		list[i].Current = current != uuid.Nil && list[i].ID == current
	}
	return list, nil
}

// EndSession signs out one of the user's sessions; not_found when the user has no live
// session with that ID (another person's included).
func (s *Service) EndSession(ctx context.Context, userID int64, id uuid.UUID) error {
	if s.sessions == nil {
		return errNoSessions
	}
	if err := s.sessions.store.RevokeSession(ctx, userID, id); err != nil {
		if apperr.Is(err, apperr.NotFound) {
			return apperr.Errorf(apperr.NotFound, "session not found").For("session_not_found", "id")
		}
		return fmt.Errorf("end session: %w", err)
	}
	s.sessions.live.Invalidate(id)
	if s.sessions.ended != nil {
		s.sessions.ended(ctx)
	}
	return nil
}

// EndOtherSessions signs out every session of the user but keep (uuid.Nil: every one) and
// answers how many.
func (s *Service) EndOtherSessions(ctx context.Context, userID int64, keep uuid.UUID) (int, error) {
	if s.sessions == nil {
		return 0, errNoSessions
	}
	n, err := s.sessions.store.RevokeSessionsExcept(ctx, userID, keep)
	if err != nil {
		return 0, fmt.Errorf("end other sessions: %w", err)
	}
	s.ForgetSessions()
	return n, nil
}

// ForgetSessions drops what this node remembers of sessions being live, after sessions were
// revoked outside the service (a password change, a reset, a deprovisioning), and has the
// other nodes told (OnSessionsEnded).
func (s *Service) ForgetSessions() {
	if s.sessions == nil {
		return
	}
	s.sessions.live.InvalidateAll()
	if s.sessions.ended != nil {
		s.sessions.ended(context.Background())
	}
}

// ForgetSessionsHere is ForgetSessions on this node alone: what a node does when told another
// signed sessions out.
func (s *Service) ForgetSessionsHere() {
	if s.sessions != nil {
		s.sessions.live.InvalidateAll()
	}
}

// OnSessionsEnded sets what is told, after this node forgot them, of sessions signed out
// here, so that the other nodes stop their access tokens at once. Call it after UseSessions,
// before serving.
func (s *Service) OnSessionsEnded(fn func(ctx context.Context)) {
	if s.sessions != nil {
		s.sessions.ended = fn
	}
}

var errSessionEnded = apperr.Errorf(apperr.Unauthorized, "this session was signed out: sign in again").For("session_ended", "")

// CheckSession answers unauthorized when the access token's session was signed out. Tokens
// of no session (issued before sessions were named in them) pass: they expire soon.
func (s *Service) CheckSession(ctx context.Context, c Claims) error {
	if s.sessions == nil || c.Session == uuid.Nil {
		return nil
	}
	st, err := s.sessionState(ctx, c.Session)
	if err != nil {
		return fmt.Errorf("check session: %w", err)
	}
	if !st.Live {
		return errSessionEnded
	}
	return nil
}

// sessionState is the session's state as this node remembers it for liveCacheTTL, read from
// the store when it does not.
func (s *Service) sessionState(ctx context.Context, id uuid.UUID) (SessionState, error) {
	if st, ok := s.sessions.live.GetIfPresent(id); ok {
		return st, nil
	}
	st, err := s.sessions.store.SessionState(ctx, id)
	if err != nil {
		return SessionState{}, err
	}
	s.sessions.live.Set(id, st)
	return st, nil
}
