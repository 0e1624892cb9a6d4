// The account Service, what it is given at start-up and how it stops. Its operations are in
// signup.go, workspaces.go, members.go, invitations.go, keys.go and operators.go.

package account

import (
	"context"
	"log/slog"
	"net/url"
	"sync"
	"time"

	"github.com/maypok86/otter/v2"

	"github.com/shortlink/shortlink/backend/auth"
)

// Service manages users, workspaces, members, invitations and API keys.
type Service struct {
	store Store
	// hasher hashes and checks every password, within its bound on concurrent hashes.
	hasher *auth.Hasher
	log    *slog.Logger
	// keys caches API keys by the hash of their secret, so a busy integration costs no
	// database round trip per request.
	keys *otter.Cache[string, *APIKey]

	// linksRemoved hears of the links a workspace deletion took with it.
	linksRemoved func(context.Context, []LinkRef)
	// keyRevoked hears of each revoked API key, to tell the other nodes.
	keyRevoked func(context.Context, int64)
	// deletions removes the rows of deleted workspaces in the background.
	deletions deletions
	// memberCheck refuses members past the workspace's plan (CheckMembersWith); nil: no limit.
	memberCheck func(ctx context.Context, workspaceID, adding int64) error
	// guard refuses changes of password and address that single sign-on forbids
	// (GuardCredentials); nil: none is refused.
	guard CredentialGuard

	// mailer sends verification and password-reset links pointing at appBase.
	mailer  Mailer
	appBase *url.URL

	// invites, when set, bounds the invitations of each workspace to invitesPerHour.
	invites        Limiter
	invitesPerHour int
	// now is the time invitations expire by (UseClock); nil: the real time.
	now func() time.Time

	mu      sync.Mutex
	touched map[int64]time.Time // when each key's use was last written
	pending sync.WaitGroup      // last-used writes and mails in flight
	// bg is the context of background work; Close cancels it.
	bg     context.Context
	stopBG context.CancelFunc
}

// NewService returns the account service; every password goes through hasher.
func NewService(store Store, hasher *auth.Hasher, log *slog.Logger) *Service {
	bg, stop := context.WithCancel(context.Background())
	s := &Service{
		store:  store,
		hasher: hasher,
		log:    log,
		keys: otter.Must(&otter.Options[string, *APIKey]{
			MaximumSize:      100_000,
			ExpiryCalculator: otter.ExpiryWriting[string, *APIKey](keyCacheTTL),
		}),
		touched:   map[int64]time.Time{},
		deletions: newDeletions(),
		bg:        bg,
		stopBG:    stop,
	}
	s.UseMail(nil, nil)
	return s
}

// Limiter takes one attempt from a budget of n per period shared by every node, or answers
// rate_limited (an *auth.RateLimitError, which says when to come back).
type Limiter interface {
	Take(ctx context.Context, key, what string, n int, period time.Duration) error
}

// OnLinksRemoved sets what is told of each batch of links a workspace deletion removed; the
// redirect caches use it so those links are dropped everywhere at once.
func (s *Service) OnLinksRemoved(fn func(context.Context, []LinkRef)) { s.linksRemoved = fn }

// Close gives up on mails still being sent (their users can ask again), waits for the
// last-used times still being written, and stops removing deleted workspaces (any node resumes
// that later).
func (s *Service) Close() {
	s.stopBG()
	s.pending.Wait()
	s.deletions.stop()
}
