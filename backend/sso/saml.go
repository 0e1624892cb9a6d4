package sso

import (
	"context"
	"crypto/subtle"
	"encoding/base64"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/crewjam/saml"
	"github.com/crewjam/saml/samlsp"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/plan"
)

// SAML 2.0 beside OpenID Connect (docs/security.md#saml), with crewjam/saml: each workspace is
// a service provider of its own, named by its metadata URL, that sends unsigned AuthnRequests
// over HTTP-Redirect and takes signed assertions over HTTP-POST, only in answer to a request it
// made (no IdP-initiated sign-in). Time is crewjam/saml's: an assertion issued more than
// saml.MaxIssueDelay (90 s) ago is refused, and NotBefore / NotOnOrAfter are allowed
// saml.MaxClockSkew (180 s) of drift.

// maxMetadata bounds an identity provider's metadata, uploaded or fetched.
const maxMetadata = 512 << 10

var (
	errProtocol         = apperr.Errorf(apperr.Invalid, `protocol must be "oidc" or "saml"`).For("sso_protocol_invalid", "protocol")
	errMetadataRequired = apperr.Errorf(apperr.Invalid, "idp_metadata_xml or idp_metadata_url is required").For("sso_idp_metadata_required", "idp_metadata_xml")
	errMetadataBoth     = apperr.Errorf(apperr.Invalid, "send idp_metadata_xml or idp_metadata_url, not both").For("sso_idp_metadata_invalid", "idp_metadata_xml")
	errMetadataFetch    = apperr.Errorf(apperr.Unavailable, "the identity provider's metadata could not be fetched: check idp_metadata_url, or upload the XML").
				For("sso_idp_metadata_unavailable", "idp_metadata_url")
)

// errMetadata answers metadata that is no identity provider's.
func errMetadata(field, why string) error {
	return apperr.Errorf(apperr.Invalid, "%s is not usable SAML identity provider metadata: %s", field, why).For("sso_idp_metadata_invalid", field)
}

// ParseIdPMetadata reads an identity provider's metadata and checks it can sign people in
// here: an entity ID, a single sign-on service with the HTTP-Redirect binding, and at least
// one signing certificate. field names the input in errors.
func ParseIdPMetadata(data []byte, field string) (*saml.EntityDescriptor, error) {
	if len(data) > maxMetadata {
		return nil, errMetadata(field, fmt.Sprintf("larger than %d KiB", maxMetadata>>10))
	}
	ed, err := samlsp.ParseMetadata(data)
	if err != nil {
		return nil, errMetadata(field, "not an EntityDescriptor with an IDPSSODescriptor")
	}
	if ed.EntityID == "" || len(ed.EntityID) > maxIssuer {
		return nil, errMetadata(field, "no entityID")
	}
	var redirect, signing bool
	for _, d := range ed.IDPSSODescriptors {
		for _, s := range d.SingleSignOnServices {
			if s.Binding == saml.HTTPRedirectBinding && s.Location != "" {
				redirect = true
			}
		}
		for _, k := range d.KeyDescriptors {
			if (k.Use == "" || k.Use == "signing") && len(k.KeyInfo.X509Data.X509Certificates) > 0 {
				signing = true
			}
		}
	}
	if !redirect {
		return nil, errMetadata(field, "no SingleSignOnService with the HTTP-Redirect binding")
	}
	if !signing {
		return nil, errMetadata(field, "no signing certificate")
	}
	return ed, nil
}

// samlSettings checks SAML settings sent by an owner, the plan, and reads the provider's
// metadata: the XML sent, else fetched from the URL through the address guard, else (neither
// sent) the stored one of SAML settings.
func (s *Service) samlSettings(ctx context.Context, workspaceID int64, in Input, cur *Settings) (*Settings, error) {
	d, err := NormalizeDomain(in.EmailDomain)
	if err != nil {
		return nil, err
	}
	xmlIn, rawURL := strings.TrimSpace(in.IdPMetadataXML), strings.TrimSpace(in.IdPMetadataURL)
	kept := cur != nil && cur.Protocol == ProtocolSAML && cur.IdPMetadata != ""
	switch {
	case xmlIn != "" && rawURL != "":
		return nil, errMetadataBoth
	case xmlIn == "" && rawURL == "" && !kept:
		return nil, errMetadataRequired
	case rawURL != "":
		if rawURL, err = checkURL(rawURL, s.o.AllowLoopback, errMetadataRequired, func(msg string) error {
			return apperr.Errorf(apperr.Invalid, "idp_metadata_url %s", msg).For("sso_idp_metadata_url_invalid", "idp_metadata_url")
		}); err != nil {
			return nil, err
		}
	}
	if err := s.plans.Require(ctx, workspaceID, plan.SSO); err != nil {
		return nil, err
	}
	next := &Settings{WorkspaceID: workspaceID, Protocol: ProtocolSAML, EmailDomain: d, Enforce: in.Enforce, SealedSecret: []byte{}}
	var data []byte
	field := "idp_metadata_xml"
	switch {
	case xmlIn != "":
		data = []byte(xmlIn)
	case rawURL != "":
		field = "idp_metadata_url"
		if data, err = s.fetchMetadata(ctx, rawURL); err != nil {
			s.log.Info("saml metadata fetch failed", "workspace", workspaceID, "err", err)
			return nil, refusedOr(err, errMetadataFetch)
		}
		next.IdPMetadataURL = rawURL
	default:
		data, next.IdPMetadataURL = []byte(cur.IdPMetadata), cur.IdPMetadataURL
	}
	ed, err := ParseIdPMetadata(data, field)
	if err != nil {
		return nil, err
	}
	next.Issuer, next.IdPMetadata = ed.EntityID, string(data)
	return next, nil
}

// fetchMetadata gets a provider's metadata with the guarded client (backend/netguard), as
// OpenID discovery is fetched.
func (s *Service) fetchMetadata(ctx context.Context, rawURL string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, s.o.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, err
	}
	res, err := s.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer func() { _ = res.Body.Close() }()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("metadata answered %d", res.StatusCode)
	}
	data, err := io.ReadAll(io.LimitReader(res.Body, maxMetadata+1))
	if err != nil {
		return nil, err
	}
	return data, nil
}

// samlBase is where a workspace's service provider lives.
func (s *Service) samlBase(workspaceID int64) string {
	return strings.TrimSuffix(s.o.PublicURL, "/") + "/api/v1/auth/saml/" + strconv.FormatInt(workspaceID, 10)
}

// SAMLEntityID is the entity ID of the workspace's service provider: its metadata URL.
func (s *Service) SAMLEntityID(workspaceID int64) string {
	return s.samlBase(workspaceID) + "/metadata"
}

// SAMLACSURL is where the workspace's provider posts its assertions.
func (s *Service) SAMLACSURL(workspaceID int64) string { return s.samlBase(workspaceID) + "/acs" }

// serviceProvider is the workspace's service provider; idp is nil for publishing its metadata.
// Assertions it accepts are recorded in the store (replay) under ctx.
func (s *Service) serviceProvider(ctx context.Context, workspaceID int64, idp *saml.EntityDescriptor) (*saml.ServiceProvider, error) {
	meta, err := url.Parse(s.SAMLEntityID(workspaceID))
	if err != nil {
		return nil, fmt.Errorf("saml metadata url: %w", err)
	}
	acs, err := url.Parse(s.SAMLACSURL(workspaceID))
	if err != nil {
		return nil, fmt.Errorf("saml acs url: %w", err)
	}
	return &saml.ServiceProvider{
		EntityID: meta.String(), MetadataURL: *meta, AcsURL: *acs, IDPMetadata: idp,
		AuthnNameIDFormat: saml.EmailAddressNameIDFormat, AllowIDPInitiated: false,
		AssertionConsumerServiceBindings: []string{saml.HTTPPostBinding},
		HTTPClient:                       s.client,
		ReplayCache:                      replayCache{ctx: ctx, store: s.store, workspaceID: workspaceID},
		RejectUnknownConditions:          true,
	}, nil
}

// replayCache keeps accepted assertion IDs in the store (saml.AssertionReplayCache).
type replayCache struct {
	ctx         context.Context
	store       Store
	workspaceID int64
}

func (r replayCache) Consume(assertionID string, expires time.Time) error {
	err := r.store.ConsumeAssertion(r.ctx, r.workspaceID, assertionID, expires)
	if apperr.Is(err, apperr.Conflict) {
		return saml.ErrAssertionReplayed
	}
	return err
}

// SAMLMetadata is the workspace's service provider metadata (entity ID, ACS URL; no key: the
// requests are not signed), as XML.
func (s *Service) SAMLMetadata(ctx context.Context, workspaceID int64) ([]byte, error) {
	sp, err := s.serviceProvider(ctx, workspaceID, nil)
	if err != nil {
		return nil, err
	}
	out, err := xml.MarshalIndent(sp.Metadata(), "", "  ")
	if err != nil {
		return nil, fmt.Errorf("saml metadata: %w", err)
	}
	return append([]byte(xml.Header), out...), nil
}

// startSAML sends the browser to st's provider with an AuthnRequest; its ID is kept with the
// state (the RelayState), so the answer must be to this request.
func (s *Service) startSAML(ctx context.Context, st *Settings, returnTo string, now time.Time) (*Started, error) {
	idp, err := ParseIdPMetadata([]byte(st.IdPMetadata), "idp_metadata_xml")
	if err != nil {
		return nil, fmt.Errorf("saml metadata of workspace %d: %w", st.WorkspaceID, err)
	}
	sp, err := s.serviceProvider(ctx, st.WorkspaceID, idp)
	if err != nil {
		return nil, err
	}
	req, err := sp.MakeAuthenticationRequest(sp.GetSSOBindingLocation(saml.HTTPRedirectBinding), saml.HTTPRedirectBinding, saml.HTTPPostBinding)
	if err != nil {
		return nil, fmt.Errorf("saml authn request: %w", err)
	}
	state := randomValue()
	u, err := req.Redirect(state, sp)
	if err != nil {
		return nil, fmt.Errorf("saml authn request: %w", err)
	}
	if err := s.store.SaveState(ctx, &State{Hash: hashState(state), WorkspaceID: st.WorkspaceID, Nonce: req.ID,
		ReturnTo: SafeReturn(returnTo), Expires: now.Add(s.o.StateTTL)}); err != nil {
		return nil, err
	}
	return &Started{URL: u.String(), State: state, Protocol: ProtocolSAML}, nil
}

// FinishSAML completes a sign-in at the workspace's assertion consumer service: relayState
// must be the state this browser's cookie holds, live and of this workspace; the response is
// checked by crewjam/saml against the provider's metadata (signature of the response or the
// assertion, issuer, destination and recipient, audience, InResponseTo the request of the
// state, time bounds) and recorded against replay, then its address signs in as OpenID
// Connect's does (join).
func (s *Service) FinishSAML(ctx context.Context, workspaceID int64, relayState, cookieState, samlResponse string) (*SignedIn, error) {
	if relayState == "" || cookieState == "" || subtle.ConstantTimeCompare([]byte(relayState), []byte(cookieState)) != 1 {
		return nil, errStateInvalid
	}
	pending, err := s.store.TakeState(ctx, hashState(relayState))
	if apperr.Is(err, apperr.NotFound) || (err == nil && pending.WorkspaceID != workspaceID) {
		return nil, errStateInvalid
	}
	if err != nil {
		return nil, err
	}
	st, err := s.store.Get(ctx, workspaceID)
	if apperr.Is(err, apperr.NotFound) || (err == nil && (!st.Verified() || st.Protocol != ProtocolSAML)) {
		return nil, errNotConfigured
	}
	if err != nil {
		return nil, err
	}
	if err := s.signsIn(ctx, workspaceID); err != nil {
		return nil, err
	}
	raw, err := base64.StdEncoding.DecodeString(samlResponse)
	if err != nil || len(raw) == 0 {
		return nil, errFailed
	}
	idp, err := ParseIdPMetadata([]byte(st.IdPMetadata), "idp_metadata_xml")
	if err != nil {
		return nil, fmt.Errorf("saml metadata of workspace %d: %w", workspaceID, err)
	}
	sp, err := s.serviceProvider(ctx, workspaceID, idp)
	if err != nil {
		return nil, err
	}
	a, err := sp.ParseXMLResponse(raw, []string{pending.Nonce}, sp.AcsURL)
	if err != nil {
		var ir *saml.InvalidResponseError
		if errors.As(err, &ir) && ir.PrivateErr != nil {
			err = ir.PrivateErr
		}
		s.log.Info("saml response refused", "workspace", workspaceID, "err", err)
		return nil, errFailed
	}
	email := AssertedEmail(a)
	if email == "" {
		s.log.Info("saml assertion names no address", "workspace", workspaceID)
		return nil, errFailed
	}
	// The provider vouches for the address it asserts: SAML has no email_verified, and the
	// provider is the one the workspace's owner chose for the domain they proved.
	return s.join(ctx, st, Claims{Email: email, EmailVerified: true}, pending.ReturnTo)
}

// emailAttributes are the attribute names providers put an address in: the LDAP mail OID,
// Microsoft's claim (ADFS, Entra ID), and the plain names Okta and others use.
var emailAttributes = []string{
	"urn:oid:0.9.2342.19200300.100.1.3",
	"http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress",
	"email", "mail", "emailaddress", "emailAddress", "Email",
}

// AssertedEmail is the address an assertion names: the first email attribute with a value,
// else the subject's NameID when its format is emailAddress; "" when it names none.
func AssertedEmail(a *saml.Assertion) string {
	for _, name := range emailAttributes {
		for _, st := range a.AttributeStatements {
			for _, at := range st.Attributes {
				if at.Name != name && at.FriendlyName != name {
					continue
				}
				for _, v := range at.Values {
					if e := strings.TrimSpace(v.Value); e != "" {
						return e
					}
				}
			}
		}
	}
	if a.Subject != nil && a.Subject.NameID != nil && a.Subject.NameID.Format == string(saml.EmailAddressNameIDFormat) {
		return strings.TrimSpace(a.Subject.NameID.Value)
	}
	return ""
}
