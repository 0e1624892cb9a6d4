package sso

import (
	"strings"
	"testing"

	"github.com/crewjam/saml"
)

func TestAssertedEmail(t *testing.T) {
	attr := func(name, friendly string, values ...string) saml.Attribute {
		a := saml.Attribute{Name: name, FriendlyName: friendly}
		for _, v := range values {
			a.Values = append(a.Values, saml.AttributeValue{Value: v})
		}
		return a
	}
	nameID := func(format, v string) *saml.Subject {
		return &saml.Subject{NameID: &saml.NameID{Format: format, Value: v}}
	}
	email := string(saml.EmailAddressNameIDFormat)
	for _, c := range []struct {
		what  string
		attrs []saml.Attribute
		subj  *saml.Subject
		want  string
	}{
		{"mail OID", []saml.Attribute{attr("urn:oid:0.9.2342.19200300.100.1.3", "mail", "ann@acme.com")}, nil, "ann@acme.com"},
		{"Microsoft claim", []saml.Attribute{attr("http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress", "", " ann@acme.com ")}, nil, "ann@acme.com"},
		{"friendly name", []saml.Attribute{attr("urn:x", "email", "ann@acme.com")}, nil, "ann@acme.com"},
		{"empty value skipped", []saml.Attribute{attr("email", "", "", "ann@acme.com")}, nil, "ann@acme.com"},
		{"attribute before NameID", []saml.Attribute{attr("mail", "", "ann@acme.com")}, nameID(email, "other@acme.com"), "ann@acme.com"},
		{"emailAddress NameID", nil, nameID(email, "ann@acme.com"), "ann@acme.com"},
		{"persistent NameID is no address", nil, nameID(string(saml.PersistentNameIDFormat), "ann@acme.com"), ""},
		{"other attributes only", []saml.Attribute{attr("urn:oid:2.5.4.3", "cn", "Ann")}, nil, ""},
	} {
		a := &saml.Assertion{Subject: c.subj}
		if c.attrs != nil {
			a.AttributeStatements = []saml.AttributeStatement{{Attributes: c.attrs}}
		}
		if got := AssertedEmail(a); got != c.want {
			t.Errorf("%s: %q, want %q", c.what, got, c.want)
		}
	}
}

const idpMetadata = `<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://idp.example.com/metadata">
  <IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <KeyDescriptor use="signing"><KeyInfo xmlns="http://www.w3.org/2000/09/xmldsig#"><X509Data><X509Certificate>MIIB</X509Certificate></X509Data></KeyInfo></KeyDescriptor>
    <SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.example.com/sso"/>
  </IDPSSODescriptor>
</EntityDescriptor>`

func TestParseIdPMetadata(t *testing.T) {
	for _, c := range []struct {
		what, xml string
		ok        bool
	}{
		{"usable", idpMetadata, true},
		{"not XML", "hello", false},
		{"a service provider's", strings.ReplaceAll(idpMetadata, "IDPSSODescriptor", "SPSSODescriptor"), false},
		{"no entity ID", strings.Replace(idpMetadata, `entityID="https://idp.example.com/metadata"`, "", 1), false},
		{"POST binding only", strings.Replace(idpMetadata, "HTTP-Redirect", "HTTP-POST", 1), false},
		{"no signing key", strings.Replace(idpMetadata, `use="signing"`, `use="encryption"`, 1), false},
		{"too large", idpMetadata + strings.Repeat(" ", maxMetadata), false},
	} {
		ed, err := ParseIdPMetadata([]byte(c.xml), "idp_metadata_xml")
		if c.ok && (err != nil || ed.EntityID != "https://idp.example.com/metadata") {
			t.Errorf("%s: %v", c.what, err)
		}
		if !c.ok && reasonOf(err) != "sso_idp_metadata_invalid" {
			t.Errorf("%s: %v, want sso_idp_metadata_invalid", c.what, err)
		}
	}
}
