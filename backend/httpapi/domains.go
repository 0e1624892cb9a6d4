package httpapi

import (
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/audit"
	"github.com/shortlink/shortlink/backend/domain"
	"github.com/shortlink/shortlink/backend/link"
)

// domainAnswer is a custom domain as the API shows it (docs/domains-and-imports.md#custom-domains).
type domainAnswer struct {
	ID           int64              `json:"id"`
	WorkspaceID  int64              `json:"workspace_id"`
	Hostname     string             `json:"hostname"`
	Verified     bool               `json:"verified"`
	VerifiedAt   *time.Time         `json:"verified_at"`
	RootURL      *string            `json:"root_url"`
	Verification verificationAnswer `json:"verification"`
	// Routing are the records that send the domain's visitors here (DOMAIN_TARGET).
	Routing   []domain.Record `json:"routing"`
	CreatedAt time.Time       `json:"created_at"`
}

// verificationAnswer is the DNS record that proves a domain, and what the last look found.
type verificationAnswer struct {
	Type      string     `json:"type"`
	Name      string     `json:"name"`
	Value     string     `json:"value"`
	CheckedAt *time.Time `json:"checked_at"`
	// Problem says why the last look did not verify the domain; "" once verified.
	Problem string `json:"problem,omitempty"`
	// ProblemReason names Problem for clients that explain it in their own words.
	ProblemReason string `json:"problem_reason,omitempty"`
}

func answerDomain(d *domain.Domain, routing []domain.Record) domainAnswer {
	a := domainAnswer{
		Routing: routing, ID: d.ID, WorkspaceID: d.WorkspaceID, Hostname: d.Hostname, Verified: d.Verified(),
		VerifiedAt: d.VerifiedAt, CreatedAt: d.CreatedAt,
		Verification: verificationAnswer{Type: "TXT", Name: domain.RecordName(d.Hostname), Value: d.Token,
			CheckedAt: d.CheckedAt},
	}
	if d.RootURL != "" {
		a.RootURL = &d.RootURL
	}
	if !a.Verified {
		a.Verification.Problem, a.Verification.ProblemReason = d.CheckError, domain.ProblemReason(d.CheckError)
	}
	return a
}

type domainRequest struct {
	Hostname string `json:"hostname"`
}

type domainPatch struct {
	RootURL link.Opt[*string] `json:"root_url"`
}

func (s *Server) createDomain(c *gin.Context) {
	var in domainRequest
	if !s.bind(c, &in) {
		return
	}
	d, err := s.domains.Add(c.Request.Context(), workspaceID(c), in.Hostname)
	if err == nil {
		s.auditedHere(c, audit.DomainAdded, audit.Target("domain", d.ID), map[string]any{"hostname": d.Hostname})
	}
	s.replyDomain(c, http.StatusCreated, d, err)
}

func (s *Server) listDomains(c *gin.Context) {
	ds, err := s.domains.List(c.Request.Context(), workspaceID(c))
	if err != nil {
		s.fail(c, err)
		return
	}
	out := make([]domainAnswer, len(ds))
	for i, d := range ds {
		out[i] = answerDomain(d, s.domains.Records(d.Hostname))
	}
	c.JSON(http.StatusOK, gin.H{"domains": out})
}

func (s *Server) getDomain(c *gin.Context) {
	if id, ok := s.pathID(c, "id", "domain"); ok {
		d, err := s.domains.Get(c.Request.Context(), workspaceID(c), id)
		s.replyDomain(c, http.StatusOK, d, err)
	}
}

func (s *Server) verifyDomain(c *gin.Context) {
	if id, ok := s.pathID(c, "id", "domain"); ok {
		d, err := s.domains.Verify(c.Request.Context(), workspaceID(c), id)
		if err == nil && d.VerifiedAt != nil {
			s.auditedHere(c, audit.DomainVerified, audit.Target("domain", d.ID), map[string]any{"hostname": d.Hostname})
		}
		s.replyDomain(c, http.StatusOK, d, err)
	}
}

func (s *Server) updateDomain(c *gin.Context) {
	var in domainPatch
	id, ok := s.pathIDAndBody(c, "id", "domain", &in)
	if !ok {
		return
	}
	ctx := c.Request.Context()
	var d *domain.Domain
	var err error
	if !in.RootURL.Set {
		d, err = s.domains.Get(ctx, workspaceID(c), id)
	} else {
		root := ""
		if in.RootURL.Value != nil {
			root = *in.RootURL.Value
			if strings.TrimSpace(root) == "" {
				s.fail(c, apperr.Errorf(apperr.Invalid, "root_url must be a URL, or null for none").For("url_required", "root_url"))
				return
			}
		}
		d, err = s.domains.SetRootURL(ctx, workspaceID(c), id, root)
	}
	s.replyDomain(c, http.StatusOK, d, err)
}

func (s *Server) deleteDomain(c *gin.Context) {
	if id, ok := s.pathID(c, "id", "domain"); ok {
		err := s.domains.Remove(c.Request.Context(), workspaceID(c), id)
		if err == nil {
			s.auditedHere(c, audit.DomainRemoved, audit.Target("domain", id), nil)
		}
		s.noContent(c, err)
	}
}

// replyDomain answers d with status, or err when there is one.
func (s *Server) replyDomain(c *gin.Context, status int, d *domain.Domain, err error) {
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(status, answerDomain(d, s.domains.Records(d.Hostname)))
}

// TLSAsk answers Caddy's on_demand_tls ask: GET /tls/ask?domain=<host> is 200 when allowed
// says a certificate may be obtained for host, else 404. It sits outside /api/v1: the proxy
// asks it before any TLS handshake completes.
func TLSAsk(allowed func(host string) bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		// One trailing dot is a host name's absolute form; a name that still ends in a dot
		// after it (an empty label) is no host name.
		host := strings.ToLower(strings.TrimSuffix(r.URL.Query().Get("domain"), "."))
		if host == "" || strings.HasSuffix(host, ".") || len(host) > domain.MaxHostnameLength || !allowed(host) {
			http.Error(w, "not a domain of this service", http.StatusNotFound)
			return
		}
		_, _ = w.Write([]byte("ok\n"))
	})
}
