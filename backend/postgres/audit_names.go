package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/shortlink/shortlink/backend/audit"
)

// auditNamedPage reads a page of a workspace's events with what their actors and targets are
// called, in one statement (docs/api.md#names-in-the-log). Every name is looked up in
// the event's own workspace: a person while a member of it, a key, link, domain, webhook,
// template, token or invitation of it, the workspace itself. A removed domain, a revoked key
// and a deleted workspace keep their rows, named but no longer there; a target whose row is
// gone is named by the details of the workspace's latest event that recorded one of
// audit.RecordedKeys.
const auditNamedPage = `
	WITH e AS (
		SELECT ` + auditColumns + `, split_part(target, ':', 1) AS kind,
			CASE WHEN target ~ '^[a-z_]+:[0-9]{1,18}$' THEN split_part(target, ':', 2)::bigint END AS tid
		FROM audit_events WHERE workspace_id = $1 AND id < $2 ORDER BY id DESC LIMIT $3)
	SELECT e.id, e.workspace_id, e.at, e.actor_type, e.actor_id, e.actor_email, e.action, e.target, e.details, e.address_hash,
		coalesce(au.email, ''), coalesce(au.name, ''), coalesce(k.name, ''),
		t.label IS NOT NULL, coalesce(t.live, false), coalesce(t.label, ''), coalesce(t.detail, ''), coalesce(t.domain_id, 0),
		CASE WHEN t.label IS NULL AND e.tid IS NOT NULL THEN (
			SELECT r.details FROM audit_events r
			WHERE r.workspace_id = e.workspace_id AND r.target = e.target AND r.details ?| $4
			ORDER BY r.id DESC LIMIT 1) END
	FROM e
	LEFT JOIN LATERAL (
		SELECT u.email, ` + scimName + ` AS name
		FROM members m JOIN users u ON u.id = m.user_id
		LEFT JOIN scim_users su ON su.workspace_id = m.workspace_id AND su.user_id = m.user_id
		WHERE e.actor_type = 'user' AND m.workspace_id = e.workspace_id AND m.user_id = e.actor_id) au ON true
	LEFT JOIN api_keys k ON e.actor_type = 'api_key' AND k.workspace_id = e.workspace_id AND k.id = e.actor_id
	LEFT JOIN LATERAL (
		SELECT l.key AS label, l.url AS detail, l.domain_id, true AS live FROM links l
			WHERE e.kind = 'link' AND l.workspace_id = e.workspace_id AND l.id = e.tid
		UNION ALL SELECT u.email, ` + scimName + `, 0, true
			FROM members m JOIN users u ON u.id = m.user_id
			LEFT JOIN scim_users su ON su.workspace_id = m.workspace_id AND su.user_id = m.user_id
			WHERE e.kind IN ('user', 'member') AND m.workspace_id = e.workspace_id AND m.user_id = e.tid
		UNION ALL SELECT i.email, '', 0, true FROM invitations i
			WHERE e.kind = 'invitation' AND i.workspace_id = e.workspace_id AND i.id = e.tid
		UNION ALL SELECT w.name, '', 0, w.deleted_at IS NULL FROM workspaces w
			WHERE e.kind = 'workspace' AND w.id = e.workspace_id AND w.id = e.tid
		UNION ALL SELECT d.hostname, '', 0, d.removed_at IS NULL FROM domains d
			WHERE e.kind = 'domain' AND d.workspace_id = e.workspace_id AND d.id = e.tid
		UNION ALL SELECT ak.name, '', 0, ak.revoked_at IS NULL FROM api_keys ak
			WHERE e.kind = 'api_key' AND ak.workspace_id = e.workspace_id AND ak.id = e.tid
		UNION ALL SELECT h.url, '', 0, true FROM webhooks h
			WHERE e.kind = 'webhook' AND h.workspace_id = e.workspace_id AND h.id = e.tid
		UNION ALL SELECT ut.name, '', 0, true FROM utm_templates ut
			WHERE e.kind = 'utm_template' AND ut.workspace_id = e.workspace_id AND ut.id = e.tid
		UNION ALL SELECT st.name, '', 0, true FROM scim_tokens st
			WHERE e.kind = 'scim_token' AND st.workspace_id = e.workspace_id AND st.id = e.tid
		LIMIT 1) t ON true
	ORDER BY e.id DESC`

// scimName is the name a workspace's identity provider gives a member (su), "" if none.
const scimName = `coalesce(nullif(su.display_name, ''), nullif(su.formatted, ''),
	nullif(btrim(coalesce(su.given_name, '') || ' ' || coalesce(su.family_name, '')), ''), '')`

func scanNamedAuditEvent(row pgx.CollectableRow) (audit.Event, error) {
	var e audit.Event
	var actorType, action string
	var actorID *int64
	var recorded map[string]any
	err := row.Scan(&e.ID, &e.WorkspaceID, &e.At, &actorType, &actorID, &e.Actor.Email, &action, &e.Target, &e.Details, &e.AddressHash,
		&e.Names.ActorEmail, &e.Names.ActorName, &e.Names.KeyName,
		&e.Found.Found, &e.Found.Exists, &e.Found.Label, &e.Found.Detail, &e.Found.DomainID, &recorded)
	e.At = e.At.UTC()
	e.Actor.Type, e.Action = audit.ActorType(actorType), audit.Action(action)
	if actorID != nil {
		e.Actor.ID = *actorID
	}
	e.Found.Kind, e.Found.ID = audit.SplitTarget(e.Target)
	e.Found.Recorded = recorded
	return e, err
}

// namedEvents implements audit.Store's Events.
func (s *AuditStore) namedEvents(ctx context.Context, workspaceID, before int64, limit int) ([]audit.Event, error) {
	if before <= 0 {
		before = 1<<63 - 1
	}
	es, err := queryAll(ctx, s.db.Pool, scanNamedAuditEvent, auditNamedPage, workspaceID, before, limit, audit.RecordedKeys)
	if err != nil {
		return nil, fmt.Errorf("list audit events: %w", err)
	}
	return es, nil
}
