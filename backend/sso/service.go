package sso

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/netguard"
	"github.com/shortlink/shortlink/backend/plan"
	"github.com/shortlink/shortlink/backend/seal"
)

// Plans is what the service asks of a workspace's plan.
type Plans interface {
	// Require answers plan_required unless the workspace's plan unlocks f.
	Require(ctx context.Context, workspaceID int64, f plan.Feature) error
}

// Options configure a Service.
type Options struct {
	// Secret is JWT_SECRET: client secrets are sealed under a key derived from it.
	Secret []byte
	// CallbackURL is the redirect URI registered with providers
	// (PUBLIC_URL + /api/v1/auth/sso/callback).
	CallbackURL string
	// AllowLoopback lets issuers be plain http on loopback, and the provider's addresses be
	// loopback ones: tests only.
	AllowLoopback bool
	// Timeout bounds each request to a provider (discovery, keys, token); default 10s.
	Timeout time.Duration
	// PublicURL is PUBLIC_URL: a workspace's SAML service provider is named by, and receives
	// assertions at, URLs under it (SAMLEntityID, SAMLACSURL).
	PublicURL string
	// Resolver resolves providers' names for the address guard; the system's when nil.
	Resolver netguard.Resolver
	// StateTTL is how long a started sign-in may take; default 10 minutes.
	StateTTL time.Duration
	// CheckEvery is how often a pending email domain's record is looked at again
	// (CheckPending); default a minute.
	CheckEvery time.Duration
	// VerifiedInBackground is called after CheckPending proved a domain (the audit log records
	// it as the service's doing); an owner's own Verify does not call it.
	VerifiedInBackground func(ctx context.Context, st *Settings)
}

// Service manages the settings and runs sign-ins.
type Service struct {
	store   Store
	checker Checker
	plans   Plans
	box     *seal.Box
	o       Options
	client  *http.Client
	log     *slog.Logger

	mu        sync.Mutex
	providers map[string]cachedProvider
	// provisioned binds the people workspaces provisioned (BindProvisioned); nil binds none.
	provisioned   Provisioned
	deprovisioned Deprovisioned
}

type cachedProvider struct {
	p  *oidc.Provider
	at time.Time
}

// providerTTL is how long a provider's discovery document is reused.
const providerTTL = 5 * time.Minute

// NewService returns the service.
func NewService(store Store, checker Checker, plans Plans, o Options, log *slog.Logger) *Service {
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	if o.StateTTL <= 0 {
		o.StateTTL = 10 * time.Minute
	}
	if o.CheckEvery <= 0 {
		o.CheckEvery = time.Minute
	}
	return &Service{store: store, checker: checker, plans: plans, o: o, log: log,
		box: seal.New(o.Secret, "shortlink sso client secret v1"), client: guardedClient(o.Timeout, o.AllowLoopback, o.Resolver),
		providers: map[string]cachedProvider{}}
}

// guardedClient is the client of every request to a provider: bounded in time, and connecting
// only through the address guard (backend/netguard), since an owner names the issuer: no
// private, loopback, link-local, shared or reserved address, nor an IPv6 address that carries
// one. Redirects go through the same guard.
func guardedClient(timeout time.Duration, allowLoopback bool, resolver netguard.Resolver) *http.Client {
	d := &netguard.Dialer{AllowLoopback: allowLoopback, Resolver: resolver, Timeout: timeout}
	t := &http.Transport{DialContext: d.DialContext, TLSHandshakeTimeout: timeout, ResponseHeaderTimeout: timeout,
		MaxIdleConns: 10, IdleConnTimeout: time.Minute}
	return &http.Client{Timeout: timeout, Transport: t, CheckRedirect: func(_ *http.Request, via []*http.Request) error {
		if len(via) >= 3 {
			return errors.New("too many redirects")
		}
		return nil
	}}
}

func secretAD(workspaceID int64) []byte {
	return []byte("workspace:" + strconv.FormatInt(workspaceID, 10))
}

// Get returns the workspace's settings; not_found when there are none.
func (s *Service) Get(ctx context.Context, workspaceID int64) (*Settings, error) {
	return s.store.Get(ctx, workspaceID)
}

// Ended is what enforcing single sign-on ended: the password sessions of the members it binds.
type Ended struct {
	// Members is how many members it binds; Sessions how many of their sessions it ended.
	Members  int
	Sessions int
}

// Put sets the workspace's provider and email domain. A new email domain needs a new proof
// (a new token, unverified); enforce needs the domain proven. Settings that enforce end the
// password sessions of the members they bind (Ended; every Put that enforces does, so one
// whose ending failed is finished by sending it again). Returns plan_required without the sso
// feature, invalid for bad settings, conflict (sso_domain_unverified, sso_domain_taken).
func (s *Service) Put(ctx context.Context, workspaceID int64, in Input) (*Settings, Ended, error) {
	st, err := s.put(ctx, workspaceID, in)
	if err != nil || !st.Enforce {
		return st, Ended{}, err
	}
	ended, err := s.endPasswordSessions(ctx, st)
	if err != nil {
		return nil, Ended{}, fmt.Errorf("enforce sso: %w", err)
	}
	return st, ended, nil
}

// endPasswordSessions ends the password sessions of the members st binds.
func (s *Service) endPasswordSessions(ctx context.Context, st *Settings) (Ended, error) {
	members, err := s.store.Members(ctx, st.WorkspaceID)
	if err != nil {
		return Ended{}, err
	}
	var bound []int64
	for _, u := range members {
		if Binds(st, u) {
			bound = append(bound, u.ID)
		}
	}
	if len(bound) == 0 {
		return Ended{}, nil
	}
	n, err := s.store.EndPasswordSessions(ctx, bound)
	if err != nil {
		return Ended{}, err
	}
	return Ended{Members: len(bound), Sessions: n}, nil
}

func (s *Service) put(ctx context.Context, workspaceID int64, in Input) (*Settings, error) {
	cur, err := s.store.Get(ctx, workspaceID)
	if err != nil && !apperr.Is(err, apperr.NotFound) {
		return nil, err
	}
	var next *Settings
	switch in.Protocol {
	case ProtocolSAML:
		if next, err = s.samlSettings(ctx, workspaceID, in, cur); err != nil {
			return nil, err
		}
	case "", ProtocolOIDC:
		if in, err = CheckInput(in, cur != nil && len(cur.SealedSecret) > 0, s.o.AllowLoopback); err != nil {
			return nil, err
		}
		if err := s.plans.Require(ctx, workspaceID, plan.SSO); err != nil {
			return nil, err
		}
		next = &Settings{WorkspaceID: workspaceID, Protocol: ProtocolOIDC, Issuer: in.Issuer, ClientID: in.ClientID,
			EmailDomain: in.EmailDomain, Enforce: in.Enforce}
		if in.ClientSecret != "" {
			next.SealedSecret = s.box.Seal([]byte(in.ClientSecret), secretAD(workspaceID))
		} else {
			next.SealedSecret = cur.SealedSecret
		}
	default:
		return nil, errProtocol
	}
	if cur != nil && cur.EmailDomain == next.EmailDomain {
		next.Token, next.VerifiedAt = cur.Token, cur.VerifiedAt
	} else if next.Token, err = newToken(); err != nil {
		return nil, err
	}
	if next.Enforce && !next.Verified() {
		return nil, errUnverified
	}
	if other, err := s.store.ByDomain(ctx, next.EmailDomain); err == nil && other.WorkspaceID != workspaceID {
		return nil, errDomainTaken
	} else if err != nil && !apperr.Is(err, apperr.NotFound) {
		return nil, err
	}
	out, err := s.store.Put(ctx, next)
	if apperr.Is(err, apperr.Conflict) {
		return nil, errDomainTaken
	}
	return out, err
}

func newToken() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("sso token: %w", err)
	}
	return "sl-sso-" + hex.EncodeToString(b), nil
}

// Delete removes the workspace's settings: its domain signs in with passwords again.
func (s *Service) Delete(ctx context.Context, workspaceID int64) error {
	return s.store.Delete(ctx, workspaceID)
}

// Verify looks at the email domain's TXT record now and returns the settings, proven when the
// record holds the token; problem names what the lookup saw when it does not
// ("txt_record_missing", "dns_lookup_failed"). Conflict (sso_domain_taken) when another
// workspace proved the domain first.
func (s *Service) Verify(ctx context.Context, workspaceID int64) (st *Settings, problem string, err error) {
	if err := s.plans.Require(ctx, workspaceID, plan.SSO); err != nil {
		return nil, "", err
	}
	cur, err := s.store.Get(ctx, workspaceID)
	if err != nil || cur.Verified() {
		return cur, "", err
	}
	ok, err := s.checker.HoldsAt(ctx, RecordName(cur.EmailDomain), cur.Token)
	if err != nil {
		s.log.Info("sso domain check: resolver failed", "workspace", workspaceID, "err", err)
		return cur, ProblemLookup, nil
	}
	if !ok {
		return cur, ProblemMissing, nil
	}
	st, err = s.store.MarkVerified(ctx, workspaceID, cur.Token)
	if apperr.Is(err, apperr.Conflict) {
		return nil, "", errDomainTaken
	}
	return st, "", err
}

// pendingBatch is how many pending domains CheckPending claims at a time.
const pendingBatch = 100

// CheckPending looks at the TXT records of pending email domains not looked at in the last
// CheckEvery, as custom domains are checked in the background, and proves those whose record
// holds the token. It answers how many it proved.
func (s *Service) CheckPending(ctx context.Context) (proven int, err error) {
	for {
		batch, err := s.store.ClaimPending(ctx, s.o.CheckEvery, pendingBatch)
		if err != nil {
			return proven, err
		}
		for _, st := range batch {
			if err := s.plans.Require(ctx, st.WorkspaceID, plan.SSO); err != nil {
				continue // plan_required: no sign-on to prove it for; other errors: next round
			}
			ok, err := s.checker.HoldsAt(ctx, RecordName(st.EmailDomain), st.Token)
			if err != nil || !ok {
				continue
			}
			out, err := s.store.MarkVerified(ctx, st.WorkspaceID, st.Token)
			switch {
			case apperr.Is(err, apperr.Conflict) || apperr.Is(err, apperr.NotFound):
				// Another workspace proved the domain first, or the settings changed meanwhile.
			case err != nil:
				return proven, err
			default:
				proven++
				if s.o.VerifiedInBackground != nil {
					s.o.VerifiedInBackground(ctx, out)
				}
			}
		}
		if len(batch) < pendingBatch || ctx.Err() != nil {
			return proven, ctx.Err()
		}
	}
}

// What a look at the TXT record can find wrong (the same names as custom domains').
const (
	ProblemMissing = "txt_record_missing"
	ProblemLookup  = "dns_lookup_failed"
)

// CallbackURL is the redirect URI to register with providers.
func (s *Service) CallbackURL() string { return s.o.CallbackURL }

// enforcing returns the settings that enforce single sign-on for email's domain, of a
// workspace whose plan still has sso; nil when there are none. Errors (a store that could not
// tell) are returned: callers refuse on them.
func (s *Service) enforcing(ctx context.Context, email string) (*Settings, error) {
	d := EmailDomain(email)
	if d == "" {
		return nil, nil
	}
	st, err := s.store.ByDomain(ctx, d)
	if apperr.Is(err, apperr.NotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("sso enforcement of %s: %w", d, err)
	}
	if !st.Enforce {
		return nil, nil
	}
	if err := s.plans.Require(ctx, st.WorkspaceID, plan.SSO); err != nil {
		if apperr.Is(err, apperr.PlanRequired) {
			return nil, nil // a downgraded workspace: its people get their passwords back
		}
		return nil, fmt.Errorf("sso enforcement of %s: %w", d, err)
	}
	return st, nil
}

// PasswordAllowed answers sso_required when u's address is in a domain proven by a workspace
// that enforces single sign-on and whose plan still has it, nil otherwise: for a sign-in,
// sign-up or reset request (u then may be an account yet to be made, with the system role
// user). Operators and moderators are never refused: a customer's enforcement does not reach
// the service's staff, who keep their password and second factor.
func (s *Service) PasswordAllowed(ctx context.Context, u *account.User) error {
	if u.SystemRole != account.SystemUser {
		return nil
	}
	st, err := s.enforcing(ctx, u.Email)
	if err == nil && st == nil {
		st, err = s.provisionedBy(ctx, u.Email)
	}
	if err != nil || st == nil {
		return err
	}
	return ErrRequired
}

// PasswordChangeAllowed answers sso_required when the account may not set or change its
// password: its address is in an enforced domain (PasswordAllowed). The store failing to tell
// answers its error, never a pass.
func (s *Service) PasswordChangeAllowed(ctx context.Context, u *account.User) error {
	if err := s.PasswordAllowed(ctx, u); apperr.Is(err, apperr.Forbidden) {
		return errPasswordBound
	} else if err != nil {
		return err
	}
	return nil
}

// EmailChangeAllowed answers sso_required when u is a member bound by a workspace that
// enforces single sign-on (Binds) and email is outside its domain: moving the address out
// would take the account out of its organisation's sign-on while it keeps the membership. The
// store failing to tell answers its error, never a pass.
func (s *Service) EmailChangeAllowed(ctx context.Context, u *account.User, email string) error {
	if u.SystemRole != account.SystemUser {
		return nil
	}
	if err := s.provisionedEmailChange(ctx, u.Email, email); err != nil {
		return err
	}
	st, err := s.enforcing(ctx, u.Email)
	if err != nil || st == nil || !Binds(st, u) || EmailDomain(email) == st.EmailDomain {
		return err
	}
	member, err := s.store.IsMember(ctx, st.WorkspaceID, u.ID)
	if err != nil {
		return fmt.Errorf("sso enforcement: %w", err)
	}
	if !member {
		return nil
	}
	return apperr.Errorf(apperr.Forbidden, "your organisation signs you in with single sign-on: your address stays in %s", st.EmailDomain).
		For("sso_required", "email")
}

// JoinAfterSecondStep makes u a member of the workspace whose provider signed u in, once u's
// second factor passed (Joined.Pending), and reports whether it did. The workspace must still
// sign u's domain in (sso_not_configured otherwise), and u be no operator or moderator.
func (s *Service) JoinAfterSecondStep(ctx context.Context, workspaceID int64, u *account.User) (bool, error) {
	st, err := s.store.Get(ctx, workspaceID)
	if apperr.Is(err, apperr.NotFound) || (err == nil && (!st.Verified() || EmailDomain(u.Email) != st.EmailDomain)) {
		return false, errNotConfigured
	}
	if err != nil {
		return false, err
	}
	if err := s.signsIn(ctx, workspaceID); err != nil {
		return false, err
	}
	if err := MayJoin(Existing{ID: u.ID, SystemRole: u.SystemRole, EmailVerified: u.EmailVerified}); err != nil {
		return false, err
	}
	if err := s.mayRejoin(ctx, workspaceID, u.Email); err != nil {
		return false, err
	}
	return s.store.AddMember(ctx, workspaceID, u.ID)
}

// forDomain returns the proven settings of email's domain, of a workspace whose plan has sso.
func (s *Service) forDomain(ctx context.Context, email string) (*Settings, error) {
	e, err := account.NormalizeEmail(email)
	if err != nil {
		return nil, err
	}
	st, err := s.store.ByDomain(ctx, EmailDomain(e))
	if apperr.Is(err, apperr.NotFound) {
		return nil, errNotConfigured
	}
	if err != nil {
		return nil, err
	}
	if err := s.signsIn(ctx, st.WorkspaceID); err != nil {
		return nil, err
	}
	return st, nil
}

// Started is a sign-in sent to its provider: the browser goes to URL, and keeps State in a
// cookie, which the callback must bring back.
type Started struct {
	URL   string
	State string
	// Protocol is the provider's (ProtocolOIDC or ProtocolSAML): the state comes back to a
	// different endpoint for each.
	Protocol string
}

// Start begins a sign-in of email through its domain's provider: a state, a nonce and a PKCE
// verifier are kept for StateTTL. returnTo is the web app's page to land on (SafeReturn).
// Returns not_found (sso_not_configured) when no workspace signs the domain in, and
// plan_required (sso_plan_required) when the one that does lost sso with its plan.
func (s *Service) Start(ctx context.Context, email, returnTo string, now time.Time) (*Started, error) {
	st, err := s.forDomain(ctx, email)
	if err != nil {
		return nil, err
	}
	if st.Protocol == ProtocolSAML {
		return s.startSAML(ctx, st, returnTo, now)
	}
	cfg, _, err := s.oauthConfig(ctx, st)
	if err != nil {
		return nil, err
	}
	state, nonce := randomValue(), randomValue()
	verifier := oauth2.GenerateVerifier()
	if err := s.store.SaveState(ctx, &State{Hash: hashState(state), WorkspaceID: st.WorkspaceID, Verifier: verifier,
		Nonce: nonce, ReturnTo: SafeReturn(returnTo), Expires: now.Add(s.o.StateTTL)}); err != nil {
		return nil, err
	}
	u := cfg.AuthCodeURL(state, oidc.Nonce(nonce), oauth2.S256ChallengeOption(verifier),
		oauth2.SetAuthURLParam("login_hint", email))
	return &Started{URL: u, State: state, Protocol: ProtocolOIDC}, nil
}

// StateTTL is how long a started sign-in may take (the cookie's lifetime).
func (s *Service) StateTTL() time.Duration { return s.o.StateTTL }

// SignedIn is a finished sign-in.
type SignedIn struct {
	*Joined
	WorkspaceID int64
	Email       string
	ReturnTo    string
}

// Finish completes a sign-in on the provider's redirect: state must be the one this
// browser's cookie holds, and live; the code is exchanged (with the PKCE verifier) and the
// ID token checked (signature, issuer, audience, expiry, nonce), then its email (verified, in
// the proven domain). The account is made or found, and joins the workspace.
func (s *Service) Finish(ctx context.Context, state, cookieState, code string) (*SignedIn, error) {
	if state == "" || cookieState == "" || subtle.ConstantTimeCompare([]byte(state), []byte(cookieState)) != 1 {
		return nil, errStateInvalid
	}
	pending, err := s.store.TakeState(ctx, hashState(state))
	if apperr.Is(err, apperr.NotFound) {
		return nil, errStateInvalid
	}
	if err != nil {
		return nil, err
	}
	st, err := s.store.Get(ctx, pending.WorkspaceID)
	if apperr.Is(err, apperr.NotFound) || (err == nil && (!st.Verified() || st.Protocol != ProtocolOIDC)) {
		return nil, errNotConfigured
	}
	if err != nil {
		return nil, err
	}
	if err := s.signsIn(ctx, st.WorkspaceID); err != nil {
		return nil, err
	}
	if code == "" {
		return nil, errFailed
	}
	cfg, p, err := s.oauthConfig(ctx, st)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(s.clientContext(ctx), s.o.Timeout)
	defer cancel()
	tok, err := cfg.Exchange(ctx, code, oauth2.VerifierOption(pending.Verifier))
	if err != nil {
		s.log.Info("sso code exchange refused", "workspace", st.WorkspaceID, "err", err)
		return nil, refusedOr(err, errFailed)
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		s.log.Info("sso token answer without id_token", "workspace", st.WorkspaceID)
		return nil, errFailed
	}
	idt, err := p.Verifier(&oidc.Config{ClientID: st.ClientID}).Verify(ctx, raw)
	if err != nil {
		s.log.Info("sso id token refused", "workspace", st.WorkspaceID, "err", err)
		return nil, refusedOr(err, errFailed)
	}
	if subtle.ConstantTimeCompare([]byte(idt.Nonce), []byte(pending.Nonce)) != 1 {
		s.log.Info("sso id token with another nonce", "workspace", st.WorkspaceID)
		return nil, errFailed
	}
	var c Claims
	if err := idt.Claims(&c); err != nil {
		return nil, errFailed
	}
	if c.Email == "" {
		// Providers that keep the ID token small answer the address at their userinfo
		// endpoint, for the same subject.
		info, err := p.UserInfo(ctx, oauth2.StaticTokenSource(tok))
		if err != nil {
			s.log.Info("sso userinfo failed", "workspace", st.WorkspaceID, "err", err)
			return nil, refusedOr(err, errFailed)
		}
		if info.Subject != idt.Subject {
			s.log.Info("sso userinfo of another subject", "workspace", st.WorkspaceID)
			return nil, errFailed
		}
		if err := info.Claims(&c); err != nil {
			return nil, errFailed
		}
	}
	return s.join(ctx, st, c, pending.ReturnTo)
}

// join signs in the person a provider vouched for (c) to st's workspace, whatever the
// protocol: the address verified and in the proven domain (CheckClaims), no operator or
// moderator (MayJoin), the account made or found and joined (Store.Join).
func (s *Service) join(ctx context.Context, st *Settings, c Claims, returnTo string) (*SignedIn, error) {
	if err := CheckClaims(c, st.EmailDomain); err != nil {
		return nil, err
	}
	email, err := account.NormalizeEmail(c.Email)
	if err != nil {
		return nil, errEmailDomain
	}
	if err := s.mayRejoin(ctx, st.WorkspaceID, email); err != nil {
		return nil, err
	}
	j, err := s.store.Join(ctx, st.WorkspaceID, email, MayJoin)
	if err != nil {
		return nil, err
	}
	return &SignedIn{Joined: j, WorkspaceID: st.WorkspaceID, Email: email, ReturnTo: returnTo}, nil
}

// oauthConfig is the OAuth 2.0 configuration of the settings' provider, and the provider.
func (s *Service) oauthConfig(ctx context.Context, st *Settings) (*oauth2.Config, *oidc.Provider, error) {
	secret, err := s.box.Open(st.SealedSecret, secretAD(st.WorkspaceID))
	if err != nil {
		return nil, nil, fmt.Errorf("sso client secret: %w", err)
	}
	p, err := s.provider(ctx, st.Issuer)
	if err != nil {
		s.log.Info("sso discovery failed", "workspace", st.WorkspaceID, "err", err)
		return nil, nil, refusedOr(err, errProvider)
	}
	return &oauth2.Config{ClientID: st.ClientID, ClientSecret: string(secret), Endpoint: p.Endpoint(),
		RedirectURL: s.o.CallbackURL, Scopes: []string{oidc.ScopeOpenID, "email", "profile"}}, p, nil
}

var (
	errProvider = apperr.Errorf(apperr.Unavailable, "the identity provider could not be reached, or its issuer does not match: try again later, or ask your administrator").
			For("sso_provider_unavailable", "")
	// errProviderNotPublic names no address: the one a name resolved to may be inside the
	// deployment's network, and the answer must not map it.
	errProviderNotPublic = apperr.Errorf(apperr.Unavailable, "the identity provider's address is %s: ask your administrator", netguard.NotPublic).
				For("sso_provider_not_public", "")
)

// refusedOr is errProviderNotPublic when the address guard refused a request to the provider
// (discovery, token, keys, userinfo), else fallback.
func refusedOr(err, fallback error) error {
	if netguard.IsRefused(err) {
		return errProviderNotPublic
	}
	return fallback
}

// provider returns the issuer's provider from its discovery document (which must name the
// same issuer), reused for providerTTL.
func (s *Service) provider(ctx context.Context, issuer string) (*oidc.Provider, error) {
	s.mu.Lock()
	c, ok := s.providers[issuer]
	s.mu.Unlock()
	if ok && time.Since(c.at) < providerTTL {
		return c.p, nil
	}
	ctx, cancel := context.WithTimeout(s.clientContext(ctx), s.o.Timeout)
	defer cancel()
	p, err := oidc.NewProvider(ctx, issuer)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.providers[issuer] = cachedProvider{p: p, at: time.Now()}
	s.mu.Unlock()
	return p, nil
}

// clientContext makes go-oidc and oauth2 use the guarded client.
func (s *Service) clientContext(ctx context.Context) context.Context {
	return oidc.ClientContext(context.WithValue(ctx, oauth2.HTTPClient, s.client), s.client)
}

func randomValue() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

func hashState(state string) []byte {
	h := sha256.Sum256([]byte(state))
	return h[:]
}

// signsIn says whether a workspace's plan still has sso: one that lost it signs nobody in
// (403 plan_required, reason sso_plan_required); its settings are kept for an upgrade, and its
// people sign in with their passwords meanwhile (PasswordAllowed).
func (s *Service) signsIn(ctx context.Context, workspaceID int64) error {
	err := s.plans.Require(ctx, workspaceID, plan.SSO)
	if apperr.Is(err, apperr.PlanRequired) {
		return errPlanLacksSSO
	}
	return err
}
