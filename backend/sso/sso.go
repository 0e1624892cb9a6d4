// Package sso is single sign-on over OpenID Connect for workspaces whose plan has it: the
// provider settings of a workspace, the proof of its email domain (a TXT record), the
// authorization code flow (PKCE, state, nonce) and the decisions on who may sign in and join.
package sso

import (
	"context"
	"net/netip"
	"net/url"
	"strings"
	"time"
	"unicode"

	"github.com/shortlink/shortlink/backend/account"
	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/domain"
)

// RecordPrefix starts the name of the TXT record that proves an email domain.
const RecordPrefix = "_shortlink-sso."

// RecordName is the name of the TXT record that proves emailDomain.
func RecordName(emailDomain string) string { return RecordPrefix + emailDomain }

// Limits of the settings' fields.
const (
	maxIssuer   = 512
	maxClientID = 255
	maxSecret   = 1024
)

// Settings are a workspace's provider and email domain.
type Settings struct {
	WorkspaceID int64
	// Issuer is the provider's issuer URL, as its discovery document names it.
	Issuer   string
	ClientID string
	// SealedSecret is the client secret, sealed (never shown again once set).
	SealedSecret []byte
	// EmailDomain is the domain whose addresses sign in through the provider, ASCII, lower case.
	EmailDomain string
	// Token is the value the TXT record at RecordName(EmailDomain) must hold.
	Token string
	// VerifiedAt is when the record was found; nil while the domain is unproven.
	VerifiedAt *time.Time
	// Enforce refuses passwords for addresses of the domain (once it is proven), and binds the
	// workspace's members whose address is in it (Binds).
	Enforce   bool
	UpdatedAt time.Time
	// Protocol is ProtocolOIDC or ProtocolSAML. For SAML, Issuer is the provider's entity ID,
	// IdPMetadata its metadata and IdPMetadataURL where it was fetched ("" when uploaded);
	// ClientID and SealedSecret are empty.
	Protocol       string
	IdPMetadata    string
	IdPMetadataURL string
}

// The protocols a workspace's provider may speak.
const (
	ProtocolOIDC = "oidc"
	ProtocolSAML = "saml"
)

// Verified reports whether the email domain was proven.
func (s *Settings) Verified() bool { return s.VerifiedAt != nil }

// Input is what an owner sends; an empty ClientSecret keeps the stored one.
type Input struct {
	Issuer       string `json:"issuer"`
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret"`
	EmailDomain  string `json:"email_domain"`
	Enforce      bool   `json:"enforce"`
	// Protocol is "oidc" (the default) or "saml"; SAML takes the provider's metadata as XML
	// or from a URL instead of the issuer, client ID and secret.
	Protocol       string `json:"protocol"`
	IdPMetadataXML string `json:"idp_metadata_xml"`
	IdPMetadataURL string `json:"idp_metadata_url"`
}

// State is a sign-in under way: kept by the SHA-256 of the state value, good once and for
// a few minutes.
type State struct {
	Hash        []byte
	WorkspaceID int64
	// Verifier is the PKCE code verifier; Nonce the ID token's expected nonce.
	Verifier string
	Nonce    string
	// ReturnTo is the page of the web app to land on (SafeReturn).
	ReturnTo string
	Expires  time.Time
}

// Existing is what a sign-in needs to know of an account that has the address already.
type Existing struct {
	ID            int64
	SystemRole    string
	EmailVerified bool
	// TwoFactor: the account signs in with a second factor (after a take-over, whatever the
	// unproven holder enrolled is gone and this is false).
	TwoFactor bool
}

// Joined is what a sign-in did to accounts and memberships.
type Joined struct {
	UserID int64
	// Created: the account was made now, without a password.
	Created bool
	// Member: the account became a member of the workspace now.
	Member bool
	// Pending: the account has 2FA on and is not a member yet; the membership waits for the
	// second factor (JoinAfterSecondStep).
	Pending bool
	// TookOver: the account existed with the address unproven; its password, 2FA enrolment,
	// sessions and API keys (RevokedKeys) were ended, since whoever made it never proved the
	// address.
	TookOver    bool
	RevokedKeys []int64
}

// Store keeps settings and sign-ins under way, and makes accounts and memberships.
type Store interface {
	// Get returns the workspace's settings; not_found when there are none.
	Get(ctx context.Context, workspaceID int64) (*Settings, error)
	// Put creates or replaces the workspace's settings. Returns conflict when another
	// workspace holds the email domain proven.
	Put(ctx context.Context, s *Settings) (*Settings, error)
	// Delete removes them; not_found when there are none.
	Delete(ctx context.Context, workspaceID int64) error
	// MarkVerified records the domain proven, if token is still the settings' token. Returns
	// conflict when another workspace proved the domain first, not_found when the settings
	// are gone or changed.
	MarkVerified(ctx context.Context, workspaceID int64, token string) (*Settings, error)
	// ClaimPending returns up to limit settings whose domain is not proven and was not looked
	// at in the last every, and records the look as made now, so other nodes skip them.
	ClaimPending(ctx context.Context, every time.Duration, limit int) ([]*Settings, error)
	// ByDomain returns the settings that hold emailDomain proven; not_found when none do.
	ByDomain(ctx context.Context, emailDomain string) (*Settings, error)
	// SaveState keeps a sign-in under way.
	SaveState(ctx context.Context, st *State) error
	// TakeState removes and returns the live (unexpired) sign-in with hash; not_found when
	// there is none, so a state works once.
	TakeState(ctx context.Context, hash []byte) (*State, error)
	// Join signs email in to the workspace, in one transaction: an account with email is
	// made (address verified, no password) when there is none, else allow is asked about the
	// existing one (its error is returned as is); an account whose address was never verified
	// is taken over (Joined.TookOver); the account becomes a member with role member unless
	// it is one already, or has 2FA on (Joined.Pending: AddMember after the second factor).
	Join(ctx context.Context, workspaceID int64, email string, allow func(Existing) error) (*Joined, error)
	// AddMember makes the user a member with role member of the workspace (not deleted), and
	// reports whether it did (false: a member already, or no such workspace).
	AddMember(ctx context.Context, workspaceID, userID int64) (bool, error)
	// IsMember reports whether the user is a member of the workspace.
	IsMember(ctx context.Context, workspaceID, userID int64) (bool, error)
	// Members lists the workspace's members as accounts (ID, email, system role).
	Members(ctx context.Context, workspaceID int64) ([]*account.User, error)
	// ConsumeAssertion records a SAML assertion of the workspace's provider as used until
	// expires, and returns conflict when it was recorded already: each is accepted once.
	ConsumeAssertion(ctx context.Context, workspaceID int64, assertionID string, expires time.Time) error
	// EndPasswordSessions revokes every live session of the users that began with a password
	// (auth.ViaPassword), their refresh tokens with them, and answers how many sessions it
	// ended.
	EndPasswordSessions(ctx context.Context, userIDs []int64) (int, error)
}

// Checker looks at TXT records (domain.DNS).
type Checker interface {
	HoldsAt(ctx context.Context, name, token string) (bool, error)
}

// Errors with reasons; the table in docs/api.md lists them.
var (
	errNotConfigured   = apperr.Errorf(apperr.NotFound, "no single sign-on is set up for this email domain").For("sso_not_configured", "email")
	errPlanLacksSSO    = apperr.Errorf(apperr.PlanRequired, "your organisation's plan no longer includes single sign-on: sign in with your password (or reset it), and ask your administrator to upgrade").For("sso_plan_required", "email")
	errStateInvalid    = apperr.Errorf(apperr.Unauthorized, "the sign-in expired, was used, or was started in another browser: start again").For("sso_state_invalid", "state")
	errFailed          = apperr.Errorf(apperr.Unauthorized, "the identity provider did not sign you in: start again, or ask your administrator").For("sso_failed", "")
	errEmailUnverified = apperr.Errorf(apperr.Forbidden, "the identity provider has not verified your email address").For("sso_email_unverified", "")
	errEmailDomain     = apperr.Errorf(apperr.Forbidden, "the identity provider signed in an address outside the workspace's email domain").For("sso_email_domain", "")
	errStaff           = apperr.Errorf(apperr.Forbidden, "operators and moderators sign in with their password").For("sso_staff_account", "")
	// ErrRequired answers a password sign-in, sign-up or reset for an address whose domain
	// signs in through its provider only.
	ErrRequired = apperr.Errorf(apperr.Forbidden, "your organisation signs in with single sign-on: use \"Sign in with SSO\"").For("sso_required", "email")
	// errPasswordBound answers setting or changing the password of an account that signs in
	// through its organisation's provider only.
	errPasswordBound = apperr.Errorf(apperr.Forbidden, "your organisation signs you in with single sign-on: this account has no password of its own").For("sso_required", "")
	errUnverified    = apperr.Errorf(apperr.Conflict, "prove the email domain with its TXT record before enforcing single sign-on").For("sso_domain_unverified", "enforce")
	errDomainTaken   = apperr.Errorf(apperr.Conflict, "another workspace signs in this email domain").For("sso_domain_taken", "email_domain")
	errSecretMissing = apperr.Errorf(apperr.Invalid, "client_secret is required").For("sso_client_secret_required", "client_secret")
)

// CheckIssuer validates an issuer URL: https, no query or fragment, no credentials; plain
// http only for a loopback host when allowLoopback is set (tests). It returns the URL as given
// (spaces trimmed), trailing slash and all: the discovery document must name it exactly.
func CheckIssuer(raw string, allowLoopback bool) (string, error) {
	return checkURL(raw, allowLoopback, apperr.Errorf(apperr.Invalid, "issuer is required").For("sso_issuer_required", "issuer"),
		func(msg string) error {
			return apperr.Errorf(apperr.Invalid, "issuer %s", msg).For("sso_issuer_invalid", "issuer")
		})
}

// checkURL is CheckIssuer's check, answering missing when raw is empty and bad(why) when it
// is not such a URL.
func checkURL(raw string, allowLoopback bool, missing error, bad func(msg string) error) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", missing
	}
	if len(raw) > maxIssuer {
		return "", bad("is too long")
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Opaque != "" {
		return "", bad("must be an absolute https URL, such as https://login.example.com")
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" || strings.HasSuffix(raw, "?") || strings.HasSuffix(raw, "#") {
		return "", bad("must have no credentials, query or fragment")
	}
	switch u.Scheme {
	case "https":
	case "http":
		if !allowLoopback || !isLoopback(u.Hostname()) {
			return "", bad("must use https")
		}
	default:
		return "", bad("must be an absolute https URL, such as https://login.example.com")
	}
	return raw, nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.IsLoopback()
}

// CheckInput validates settings sent by an owner and returns them cleaned: the issuer
// checked, the email domain normalised. hasSecret tells whether a secret is stored already
// (an empty one then keeps it).
func CheckInput(in Input, hasSecret, allowLoopback bool) (Input, error) {
	issuer, err := CheckIssuer(in.Issuer, allowLoopback)
	if err != nil {
		return in, err
	}
	in.Issuer = issuer
	in.ClientID = strings.TrimSpace(in.ClientID)
	if in.ClientID == "" {
		return in, apperr.Errorf(apperr.Invalid, "client_id is required").For("sso_client_id_required", "client_id")
	}
	if len(in.ClientID) > maxClientID || strings.IndexFunc(in.ClientID, unicode.IsControl) >= 0 {
		return in, apperr.Errorf(apperr.Invalid, "client_id must be at most %d characters of text", maxClientID).For("sso_client_id_invalid", "client_id")
	}
	if in.ClientSecret == "" && !hasSecret {
		return in, errSecretMissing
	}
	if len(in.ClientSecret) > maxSecret {
		return in, apperr.Errorf(apperr.Invalid, "client_secret must be at most %d characters", maxSecret).For("sso_client_secret_invalid", "client_secret")
	}
	d, err := NormalizeDomain(in.EmailDomain)
	if err != nil {
		return in, err
	}
	in.EmailDomain = d
	return in, nil
}

// NormalizeDomain validates an email domain as custom domains' host names are validated
// (a registrable name, no IP address) and returns it in ASCII, lower case.
func NormalizeDomain(d string) (string, error) {
	if strings.TrimSpace(d) == "" {
		return "", apperr.Errorf(apperr.Invalid, "email_domain is required").For("sso_email_domain_required", "email_domain")
	}
	host, err := domain.Normalize(d, nil)
	if err != nil {
		return "", apperr.Errorf(apperr.Invalid, "email_domain %q is not a domain name such as example.com", d).For("sso_email_domain_invalid", "email_domain")
	}
	return host, nil
}

// EmailDomain is the normalised domain of an address ("" when it has none).
func EmailDomain(email string) string {
	at := strings.LastIndexByte(email, '@')
	if at < 0 {
		return ""
	}
	d, err := domain.Normalize(email[at+1:], nil)
	if err != nil {
		return ""
	}
	return d
}

// Claims are what the ID token says of the person.
type Claims struct {
	Email         string `json:"email"`
	EmailVerified any    `json:"email_verified"`
}

// verified reads email_verified, which some providers send as a string.
func (c Claims) verified() bool {
	switch v := c.EmailVerified.(type) {
	case bool:
		return v
	case string:
		return strings.EqualFold(v, "true")
	}
	return false
}

// CheckClaims decides whether an ID token's person may sign in through settings for
// emailDomain: the provider must have verified the address, and the address must be in the
// proven domain (not a subdomain of it: each domain is proven on its own).
func CheckClaims(c Claims, emailDomain string) error {
	if c.Email == "" || !c.verified() {
		return errEmailUnverified
	}
	if EmailDomain(c.Email) != emailDomain {
		return errEmailDomain
	}
	return nil
}

// Binds decides whether the settings of a workspace bind one of its members, u: the domain is
// proven and enforced, u's address is in it, and u is no operator or moderator (staff keep
// their password and second factor whatever a customer enforces). A bound member signs in
// through the provider only, has no password, and keeps the address in the domain
// (docs/security.md#single-sign-on). The plan's part (a workspace that lost sso binds nobody)
// is the caller's.
func Binds(st *Settings, u *account.User) bool {
	return st != nil && st.Verified() && st.Enforce && u.SystemRole == account.SystemUser && EmailDomain(u.Email) == st.EmailDomain
}

// MayJoin decides whether an existing account may be signed in by a workspace's provider:
// not the service's operators and moderators, whose accounts a customer's provider must not
// open.
func MayJoin(e Existing) error {
	if e.SystemRole != account.SystemUser {
		return errStaff
	}
	return nil
}

// appHome is where a sign-in lands by default.
const appHome = "/app/"

// SafeReturn returns p when it is a path of the web app on this site, else the app's home: a
// sign-in link must not send anyone elsewhere (no scheme, host, "//" or "\", no control
// characters, nothing outside /app/).
func SafeReturn(p string) string {
	if p == "" || len(p) > 1024 || !strings.HasPrefix(p, appHome) || strings.Contains(p, "//") ||
		strings.ContainsAny(p, "\\") || strings.IndexFunc(p, unicode.IsControl) >= 0 {
		return appHome
	}
	u, err := url.Parse(p)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || !strings.HasPrefix(u.Path, appHome) ||
		strings.Contains(u.Path, "/../") || strings.HasSuffix(u.Path, "/..") {
		return appHome
	}
	return p
}
