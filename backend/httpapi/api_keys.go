package httpapi

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
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
	CreatedAt time.Time `json:"created_at"`
}

func (s *Server) createAPIKey(c *gin.Context) {
	var in apiKeyRequest
	if err := s.decode(c, &in); err != nil {
		s.fail(c, err)
		return
	}
	k, secret, err := s.accounts.CreateAPIKey(c.Request.Context(), workspaceID(c), userID(c), in.Name, in.Scopes)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusCreated, newAPIKeyResponse{ID: k.ID, Key: secret, Name: k.Name, Prefix: k.Prefix,
		Scopes: k.Scopes, CreatedAt: k.CreatedAt})
}

func (s *Server) listAPIKeys(c *gin.Context) {
	keys, err := s.accounts.APIKeys(c.Request.Context(), workspaceID(c))
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"api_keys": keys})
}

func (s *Server) revokeAPIKey(c *gin.Context) {
	id, err := int64Param(c, "id", "API key")
	if err != nil {
		s.fail(c, err)
		return
	}
	if err := s.accounts.RevokeAPIKey(c.Request.Context(), workspaceID(c), id); err != nil {
		s.fail(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}
