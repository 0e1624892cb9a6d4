package httpapi

import (
	"fmt"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/shortlink/shortlink/backend/audit"
	"github.com/shortlink/shortlink/backend/bulkjob"
	"github.com/shortlink/shortlink/backend/link"
)

// bulkJobRequest is POST …/links/bulk-jobs: the links list's filter, and either the change of a
// bulk edit or a deletion (docs/api.md#bulk-jobs).
type bulkJobRequest struct {
	Filter bulkjob.Filter `json:"filter"`
	Set    *link.BulkSet  `json:"set"`
	Delete bool           `json:"delete"`
}

// bulkJobAnswer is a bulk job as the API shows it.
type bulkJobAnswer struct {
	ID     int64          `json:"id"`
	State  string         `json:"state"`
	Filter bulkjob.Filter `json:"filter"`
	Delete bool           `json:"delete"`
	Set    map[string]any `json:"set"`
	// Total counts the links the filter matched when the job started (0 until then); Done
	// those handled so far, Failed those of them left as they were, Changed the others.
	Total           int64      `json:"total"`
	Done            int64      `json:"done"`
	Failed          int64      `json:"failed"`
	Changed         int64      `json:"changed"`
	Error           string     `json:"error,omitempty"`
	CancelRequested bool       `json:"cancel_requested"`
	CreatedAt       time.Time  `json:"created_at"`
	StartedAt       *time.Time `json:"started_at"`
	FinishedAt      *time.Time `json:"finished_at"`
}

func answerBulkJob(j *bulkjob.Job) bulkJobAnswer {
	a := bulkJobAnswer{ID: j.ID, State: j.State, Filter: j.Filter, Delete: j.Delete, Total: j.Total, Done: j.Done,
		Failed: j.Failed, Changed: j.Done - j.Failed, Error: j.Error, CancelRequested: j.Cancel,
		CreatedAt: j.CreatedAt, StartedAt: j.StartedAt, FinishedAt: j.FinishedAt}
	if a.Filter.Tags == nil {
		a.Filter.Tags = []string{}
	}
	if !j.Delete {
		a.Set = map[string]any{}
		if j.Set.Status.Set {
			a.Set["status"] = j.Set.Status.Value
		}
		if j.Set.ExpiresAt.Set {
			a.Set["expires_at"] = j.Set.ExpiresAt.Value
		}
		if j.Set.Archived.Set {
			a.Set["archived"] = j.Set.Archived.Value
		}
		if len(j.Set.TagsAdd) > 0 {
			a.Set["tags_add"] = j.Set.TagsAdd
		}
		if len(j.Set.TagsRemove) > 0 {
			a.Set["tags_remove"] = j.Set.TagsRemove
		}
	}
	return a
}

// bulkJobCost is what a submission costs of the workspace's rate limit: a job may touch
// millions of links, but it runs in the background at a bounded pace, and a workspace has at
// most bulkjob.DefaultMaxActive unfinished at once.
const bulkJobCost = 10

// createBulkJob stores a job over the links the filter matches and answers 202 with it.
func (s *Server) createBulkJob(c *gin.Context) {
	var req bulkJobRequest
	if !s.bind(c, &req) {
		return
	}
	if !s.charge(c, bulkJobCost) {
		return
	}
	ws := workspaceID(c)
	j, err := s.bulkJobs.Submit(c.Request.Context(), ws, s.actorOf(c), req.Filter, req.Set, req.Delete)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.Header("Location", fmt.Sprintf("/api/v1/workspaces/%d/links/bulk-jobs/%d", ws, j.ID))
	c.JSON(http.StatusAccepted, answerBulkJob(j))
}

func (s *Server) getBulkJob(c *gin.Context) {
	id, ok := s.pathID(c, "id", "bulk job")
	if !ok {
		return
	}
	j, err := s.bulkJobs.Get(c.Request.Context(), workspaceID(c), id)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusOK, answerBulkJob(j))
}

func (s *Server) listBulkJobs(c *gin.Context) {
	before, limit, ok := s.pageOf(c, 20)
	if !ok {
		return
	}
	list, next, err := s.bulkJobs.List(c.Request.Context(), workspaceID(c), before, limit)
	if err != nil {
		s.fail(c, err)
		return
	}
	out := make([]bulkJobAnswer, len(list))
	for i, j := range list {
		out[i] = answerBulkJob(j)
	}
	s.replyNoStore(c, gin.H{"jobs": out, "next_cursor": cursor(next)}, nil)
}

func (s *Server) cancelBulkJob(c *gin.Context) {
	id, ok := s.pathID(c, "id", "bulk job")
	if !ok {
		return
	}
	j, err := s.bulkJobs.Cancel(c.Request.Context(), workspaceID(c), id)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, answerBulkJob(j))
}

// actorOf is the caller as the audit log names them: a user with their email, or an API key.
func (s *Server) actorOf(c *gin.Context) audit.Actor {
	who := callerOf(c)
	if who.Key != nil {
		return audit.APIKey(who.Key.ID)
	}
	actor := audit.User(who.UserID, "")
	if u, err := s.accounts.User(c.Request.Context(), who.UserID); err == nil {
		actor.Email = u.Email
	}
	return actor
}
