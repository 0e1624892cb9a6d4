// Package audit is the workspace audit log: who did what to a workspace, when, and from
// which (hashed) address. Events are only ever appended; the store refuses to change them,
// and only the retention purge removes them.
package audit

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"iter"
	"log/slog"
	"strconv"
	"time"
)

// ActorType says who did something.
type ActorType string

// The kinds of actor.
const (
	ActorUser   ActorType = "user"
	ActorAPIKey ActorType = "api_key"
	ActorSystem ActorType = "system"
)

// Actor is who did something: a user (with the email they had then), an API key, or the
// service itself (a background job, a billing event, an operator acting outside the workspace
// is a user).
type Actor struct {
	Type  ActorType `json:"type"`
	ID    int64     `json:"id"`
	Email string    `json:"email,omitempty"`
}

// User is the actor of a signed-in person.
func User(id int64, email string) Actor { return Actor{Type: ActorUser, ID: id, Email: email} }

// APIKey is the actor of a workspace API key.
func APIKey(id int64) Actor { return Actor{Type: ActorAPIKey, ID: id} }

// System is the actor of the service's own changes.
func System() Actor { return Actor{Type: ActorSystem} }

// Action names what was done; the names are part of the API.
type Action string

// The actions recorded.
const (
	MemberRoleChanged    Action = "member.role_changed"
	MemberRemoved        Action = "member.removed"
	MemberLeft           Action = "member.left"
	InvitationSent       Action = "invitation.sent"
	InvitationWithdrawn  Action = "invitation.withdrawn"
	InvitationResent     Action = "invitation.resent"
	InvitationAccepted   Action = "invitation.accepted"
	APIKeyCreated        Action = "api_key.created"
	APIKeyRevoked        Action = "api_key.revoked"
	DomainAdded          Action = "domain.added"
	DomainVerified       Action = "domain.verified"
	DomainRemoved        Action = "domain.removed"
	PlanChanged          Action = "plan.changed"
	TrialStarted         Action = "plan.trial_started"
	BillingChanged       Action = "billing.changed"
	WorkspaceRenamed     Action = "workspace.renamed"
	WorkspaceTransferred Action = "workspace.transferred"
	SSOChanged           Action = "sso.changed"
	SSOMemberJoined      Action = "sso.member_joined"
	TwoFactorRequired    Action = "workspace.require_2fa_changed"
	// The session policy and the owners' sign-outs (docs/security.md#session-policy).
	SessionPolicyChanged Action = "workspace.session_policy_changed"
	SessionRevoked       Action = "session.revoked"
	SessionsRevoked      Action = "workspace.sessions_revoked"
	LinkDeleted          Action = "link.deleted"
	LinkBanned           Action = "link.banned"
	LinkUnbanned         Action = "link.unbanned"
	LinkBanKept          Action = "link.ban_kept"
	LinkShared           Action = "link.shared"
	LinkShareRevoked     Action = "link.share_revoked"
	UTMTemplateCreated   Action = "utm_template.created"
	UTMTemplateDeleted   Action = "utm_template.deleted"
	AppLinksSet          Action = "domain.app_links_set"
	AppLinksRemoved      Action = "domain.app_links_removed"
	LogoSet              Action = "workspace.logo_set"
	LogoRemoved          Action = "workspace.logo_removed"
	WebhookCreated       Action = "webhook.created"
	WebhookUpdated       Action = "webhook.updated"
	WebhookDeleted       Action = "webhook.deleted"
	WebhookTested        Action = "webhook.tested"
	WebhookResent        Action = "webhook.delivery_resent"
	// LinksBulkJob is a bulk job's end (docs/api.md#bulk-jobs), by whoever submitted it.
	LinksBulkJob Action = "links.bulk_job"
	// The identity provider's provisioning (docs/scim.md), and the owners' SCIM tokens.
	SCIMUserProvisioned   Action = "scim.user_provisioned"
	SCIMUserDeprovisioned Action = "scim.user_deprovisioned"
	SCIMUserRestored      Action = "scim.user_restored"
	SCIMUserDeleted       Action = "scim.user_deleted"
	SCIMRoleChanged       Action = "scim.role_changed"
	SCIMGroupChanged      Action = "scim.group_changed"
	SCIMTokenCreated      Action = "scim.token_created"
	SCIMTokenRevoked      Action = "scim.token_revoked"
)

// Event is one entry of a workspace's log.
type Event struct {
	ID          int64
	WorkspaceID int64
	At          time.Time
	Actor       Actor
	Action      Action
	// Target names what the action was done to, as "<kind>:<id>" (Target).
	Target string
	// Details are the facts of the change (the old and new role, the domain's host, …).
	Details map[string]any
	// AddressHash is the keyed hash of the client's address (HashAddress); "" when none.
	AddressHash string
	// Names are what the actor and target are called now, on a page the log read (Page).
	Names Names
	// Found is the target as Store.Events read it, which Page names.
	Found Found
}

// Target names a thing an action was done to, such as "member:42" or "link:7".
func Target(kind string, id int64) string { return kind + ":" + strconv.FormatInt(id, 10) }

// Store keeps the events, append-only (package postgres).
type Store interface {
	// Append adds an event; its ID and At are set by the store.
	Append(ctx context.Context, e Event) error
	// Events lists a workspace's events newest first, those with IDs below before (0: from
	// the newest), at most limit, with their actors' Names and their targets Found, read
	// within the workspace in the same statement.
	Events(ctx context.Context, workspaceID, before int64, limit int) ([]Event, error)
	// AllEvents yields every event of a workspace, newest first.
	AllEvents(ctx context.Context, workspaceID int64) iter.Seq2[Event, error]
	// PurgeBefore removes events older than t, and those of workspaces that are gone.
	PurgeBefore(ctx context.Context, t time.Time) (int64, error)
}

// Log records and reads the audit log.
type Log struct {
	store     Store
	key       []byte
	retention time.Duration
	log       *slog.Logger
	now       func() time.Time
	// shortURL names a link target by its short URL (NameLinksWith).
	shortURL func(domainID int64, key string) string
}

// NewLog returns the log over a store. The address key is derived from secret (the JWT
// secret): addresses are kept only as HMACs under it, so the same address gives the same hash
// on every node without the address itself being kept.
func NewLog(store Store, secret []byte, retention time.Duration, log *slog.Logger) *Log {
	return &Log{store: store, key: DeriveKey(secret), retention: retention, log: log, now: time.Now,
		shortURL: func(_ int64, key string) string { return key }}
}

// NameLinksWith makes pages name a link target by shortURL, the short URL of its key on its
// domain.
func (l *Log) NameLinksWith(shortURL func(domainID int64, key string) string) { l.shortURL = shortURL }

// DeriveKey is the key of address hashes, derived from the service's secret for this use alone.
func DeriveKey(secret []byte) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("shortlink audit address v1"))
	return m.Sum(nil)
}

// HashAddress is the keyed hash of a client address under key; "" for no address.
func HashAddress(key []byte, addr string) string {
	if addr == "" {
		return ""
	}
	m := hmac.New(sha256.New, key)
	m.Write([]byte(addr))
	return hex.EncodeToString(m.Sum(nil))[:32]
}

// Record appends an event made from addr (the client's address, hashed here). A failure is
// logged and returned; the change it describes has already happened.
func (l *Log) Record(ctx context.Context, e Event, addr string) error {
	e.AddressHash = HashAddress(l.key, addr)
	if e.Details == nil {
		e.Details = map[string]any{}
	}
	if err := l.store.Append(ctx, e); err != nil {
		l.log.Error("audit: record event", "workspace", e.WorkspaceID, "action", e.Action, "err", err)
		return err
	}
	return nil
}

// Page is a page of events newest first with their Names, and the cursor of the next page
// (0: none).
func (l *Log) Page(ctx context.Context, workspaceID, before int64, limit int) ([]Event, int64, error) {
	limit = PageLimit(limit)
	es, err := l.store.Events(ctx, workspaceID, before, limit)
	if err != nil {
		return nil, 0, err
	}
	for i := range es {
		es[i].Names.Target = NameTarget(es[i].Found, l.shortURL)
	}
	return es, NextCursor(es, limit), nil
}

// All yields every event of a workspace, newest first (the CSV export).
func (l *Log) All(ctx context.Context, workspaceID int64) iter.Seq2[Event, error] {
	return l.store.AllEvents(ctx, workspaceID)
}

// Purge removes the events older than the retention.
func (l *Log) Purge(ctx context.Context) (int64, error) {
	return l.store.PurgeBefore(ctx, Cutoff(l.now(), l.retention))
}

// Retention is how long events are kept.
func (l *Log) Retention() time.Duration { return l.retention }

// MaxPage is the most events one page holds.
const MaxPage = 200

// PageLimit bounds a requested page size: 1 to MaxPage, 50 when unset.
func PageLimit(n int) int {
	switch {
	case n <= 0:
		return 50
	case n > MaxPage:
		return MaxPage
	}
	return n
}

// NextCursor is the cursor after a page: the last event's ID when the page is full, else 0.
func NextCursor(es []Event, limit int) int64 {
	if len(es) < limit || len(es) == 0 {
		return 0
	}
	return es[len(es)-1].ID
}

// Cutoff is the oldest time kept at now under retention.
func Cutoff(now time.Time, retention time.Duration) time.Time { return now.Add(-retention) }
