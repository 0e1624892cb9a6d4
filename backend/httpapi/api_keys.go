package httpapi

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/audit"
)

type apiKeyRequest struct {
	Name   string   `json:"name"`
	Scopes []string `json:"scopes"`
}

// newAPIKeyResponse is the only answer that ever holds a key's secret.
type newAPIKeyResponse struct {
	ID        int64     `json:"id"`
	Key       string    `json:"key"`
	Name      string    `json:"name"`
	Prefix    string    `json:"prefix"`
	Scopes    []string  `json:"scopes"`
	CreatedBy *int64    `json:"created_by"`
	CreatedAt time.Time `json:"created_at"`
}

func (s *Server) createAPIKey(c *gin.Context) {
	var in apiKeyRequest
	if !s.bind(c, &in) {
		return
	}
	k, secret, err := s.accounts.CreateAPIKey(c.Request.Context(), workspaceID(c), userID(c), in.Name, in.Scopes)
	if err != nil {
		s.fail(c, err)
		return
	}
	s.auditedHere(c, audit.APIKeyCreated, audit.Target("api_key", k.ID), map[string]any{"name": k.Name, "prefix": k.Prefix, "scopes": k.Scopes})
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusCreated, newAPIKeyResponse{ID: k.ID, Key: secret, Name: k.Name, Prefix: k.Prefix,
		Scopes: k.Scopes, CreatedBy: k.CreatedBy, CreatedAt: k.CreatedAt})
}

// listAPIKeys lists the live keys, or with ?revoked=true every key, revoked ones saying why.
func (s *Server) listAPIKeys(c *gin.Context) {
	list := s.accounts.APIKeys
	switch c.Query("revoked") {
	case "", "false":
	case "true":
		list = s.accounts.APIKeysWithRevoked
	default:
		s.fail(c, apperr.Errorf(apperr.Invalid, "revoked must be true or false").For("value_invalid", "revoked"))
		return
	}
	keys, err := list(c.Request.Context(), workspaceID(c))
	s.reply(c, http.StatusOK, gin.H{"api_keys": keys}, err)
}

func (s *Server) revokeAPIKey(c *gin.Context) {
	if id, ok := s.pathID(c, "id", "API key"); ok {
		err := s.accounts.RevokeAPIKey(c.Request.Context(), workspaceID(c), id)
		if err == nil {
			s.auditedHere(c, audit.APIKeyRevoked, audit.Target("api_key", id), nil)
		}
		s.noContent(c, err)
	}
}
