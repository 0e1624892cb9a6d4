package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"
)

// cookieSAML carries a started SAML sign-in's state to the assertion consumer service. The
// provider posts there from its own site, so the cookie must be SameSite=None (and therefore
// Secure) for browsers to send it; without Secure cookies (plain-http development) it is Lax,
// which works for a provider on the same site only.
const cookieSAML = "sl_saml"

// samlPath scopes cookieSAML to the workspaces' assertion consumer services.
const samlPath = "/api/v1/auth/saml"

// samlAnswer is the workspace's service provider, to register with its SAML provider.
type samlAnswer struct {
	EntityID    string `json:"entity_id"`
	ACSURL      string `json:"acs_url"`
	MetadataURL string `json:"metadata_url"`
}

func (s *Server) samlOf(workspaceID int64) samlAnswer {
	id := s.sso.SAMLEntityID(workspaceID)
	return samlAnswer{EntityID: id, ACSURL: s.sso.SAMLACSURL(workspaceID), MetadataURL: id}
}

func (s *Server) setSAMLState(c *gin.Context, state string, maxAge int) {
	same := http.SameSiteLaxMode
	if s.secureCookies {
		same = http.SameSiteNoneMode
	}
	http.SetCookie(c.Writer, &http.Cookie{Name: cookieSAML, Value: state, Path: samlPath, MaxAge: maxAge,
		HttpOnly: true, Secure: s.secureCookies, SameSite: same})
}

// samlMetadata publishes a workspace's service provider metadata. It holds nothing of the
// workspace but its number (the entity ID and ACS URL are made of it), so it is served
// whether or not the workspace set SAML up: owners register it with their provider first.
func (s *Server) samlMetadata(c *gin.Context) {
	id, err := int64Param(c, "workspace", "workspace")
	if err != nil {
		s.fail(c, errNoWorkspace)
		return
	}
	out, err := s.sso.SAMLMetadata(c.Request.Context(), id)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.Header("Content-Disposition", `attachment; filename="shortlink-saml-metadata.xml"`)
	c.Data(http.StatusOK, "application/samlmetadata+xml", out)
}

// samlACS is the workspace's assertion consumer service: the provider's HTTP-POST of
// SAMLResponse and RelayState, in the browser that started the sign-in.
func (s *Server) samlACS(c *gin.Context) {
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, s.maxBody)
	cookie, _ := c.Cookie(cookieSAML)
	s.setSAMLState(c, "", -1)
	c.Header("Cache-Control", "no-store")
	id, err := int64Param(c, "workspace", "workspace")
	if err != nil {
		s.ssoFail(c, errNoWorkspace)
		return
	}
	in, err := s.sso.FinishSAML(c.Request.Context(), id, c.PostForm("RelayState"), cookie, c.PostForm("SAMLResponse"))
	if err != nil {
		s.ssoFail(c, err)
		return
	}
	s.ssoSignedIn(c, in)
}
