package app

import (
	"context"

	"github.com/shortlink/shortlink/backend/audit"
	"github.com/shortlink/shortlink/backend/domain"
	"github.com/shortlink/shortlink/backend/sso"
)

// auditDomainVerified records in the workspace's audit log a domain the background checks
// verified.
func (a *App) auditDomainVerified(ctx context.Context, d *domain.Domain) {
	_ = a.audit.Record(ctx, audit.Event{WorkspaceID: d.WorkspaceID, Actor: audit.System(), Action: audit.DomainVerified,
		Target: audit.Target("domain", d.ID), Details: map[string]any{"hostname": d.Hostname}}, "")
}

// auditSSOVerified records in the workspace's audit log an email domain of single sign-on the
// background checks proved.
func (a *App) auditSSOVerified(ctx context.Context, st *sso.Settings) {
	_ = a.audit.Record(ctx, audit.Event{WorkspaceID: st.WorkspaceID, Actor: audit.System(), Action: audit.SSOChanged,
		Target: "sso", Details: map[string]any{"email_domain": st.EmailDomain, "verified": true}}, "")
}
