package httpapi

import (
	"context"
	"encoding/json"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/audit"
	"github.com/shortlink/shortlink/backend/plan"
)

// auditEventAnswer is one event as the API shows it, with what its actor and target are
// called now (docs/api.md#names-in-the-log). The address is the keyed hash: equal
// hashes are the same address, and without the service's secret no address can be found
// from one.
type auditEventAnswer struct {
	At          time.Time        `json:"at"`
	Actor       auditActorAnswer `json:"actor"`
	Action      audit.Action     `json:"action"`
	Target      string           `json:"target"`
	TargetName  audit.TargetName `json:"target_name"`
	Details     map[string]any   `json:"details"`
	AddressHash string           `json:"address_hash"`
}

// auditActorAnswer is the actor with its name: a member's from the workspace's identity
// provider, an API key's own.
type auditActorAnswer struct {
	audit.Actor
	Name string `json:"name,omitempty"`
}

func answerAuditEvent(e audit.Event) auditEventAnswer {
	d := e.Details
	if d == nil {
		d = map[string]any{}
	}
	actor := auditActorAnswer{Actor: e.Actor, Name: e.Names.ActorName}
	if actor.Email == "" {
		actor.Email = e.Names.ActorEmail
	}
	if e.Actor.Type == audit.ActorAPIKey {
		actor.Name = e.Names.KeyName
	}
	return auditEventAnswer{At: e.At, Actor: actor, Action: e.Action, Target: e.Target, TargetName: e.Names.Target,
		Details: d, AddressHash: e.AddressHash}
}

// listAudit answers a page of the workspace's audit log, newest first (owners and admins, on
// plans with audit_log).
func (s *Server) listAudit(c *gin.Context) {
	ctx, ws := c.Request.Context(), workspaceID(c)
	before, limit, ok := s.pageOf(c, 50)
	if !ok {
		return
	}
	if err := s.plans.Require(ctx, ws, plan.AuditLog); err != nil {
		s.fail(c, err)
		return
	}
	es, next, err := s.audit.Page(ctx, ws, before, limit)
	out := make([]auditEventAnswer, len(es))
	for i, e := range es {
		out[i] = answerAuditEvent(e)
	}
	s.replyNoStore(c, gin.H{"events": out, "next_cursor": cursor(next)}, err)
}

// exportAudit answers the whole audit log as CSV, newest first.
func (s *Server) exportAudit(c *gin.Context) {
	ctx, ws := c.Request.Context(), workspaceID(c)
	if err := s.plans.Require(ctx, ws, plan.AuditLog); err != nil {
		s.fail(c, err)
		return
	}
	header := []string{"at", "actor_type", "actor_id", "actor_email", "action", "target", "details", "address_hash"}
	streamCSV(s, c, "audit.csv", header, s.audit.All(ctx, ws), func(e audit.Event, r []string) {
		r[0] = e.At.Format(time.RFC3339)
		r[1] = string(e.Actor.Type)
		if e.Actor.Type != audit.ActorSystem {
			r[2] = strconv.FormatInt(e.Actor.ID, 10)
		}
		r[3] = csvCell(e.Actor.Email)
		r[4] = string(e.Action)
		r[5] = csvCell(e.Target)
		d, _ := json.Marshal(e.Details)
		r[6] = csvCell(string(d))
		r[7] = e.AddressHash
	})
}

// audited appends an event to a workspace's log after the change it describes was made: the
// actor is the caller (a user with their email, or an API key), the address the client's,
// hashed by the log. A failure to record is logged; the change stands.
func (s *Server) audited(c *gin.Context, workspaceID int64, action audit.Action, target string, details map[string]any) {
	if s.audit == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.Request.Context()), 2*time.Second)
	defer cancel()
	who := callerOf(c)
	var actor audit.Actor
	if who.Key != nil {
		actor = audit.APIKey(who.Key.ID)
	} else {
		actor = audit.User(who.UserID, "")
		if u, err := s.accounts.User(ctx, who.UserID); err == nil {
			actor.Email = u.Email
		}
	}
	s.auditedBy(c, actor, workspaceID, action, target, details)
}

// auditedBy is audited for an actor known without a session (a sign-up's new user).
func (s *Server) auditedBy(c *gin.Context, actor audit.Actor, workspaceID int64, action audit.Action, target string, details map[string]any) {
	if s.audit == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.Request.Context()), 2*time.Second)
	defer cancel()
	_ = s.audit.Record(ctx, audit.Event{WorkspaceID: workspaceID, Actor: actor, Action: action, Target: target, Details: details},
		s.clientIP(c))
}

// auditedHere is audited in the workspace of the request's path.
func (s *Server) auditedHere(c *gin.Context, action audit.Action, target string, details map[string]any) {
	s.audited(c, workspaceID(c), action, target, details)
}
