package app

import (
	"context"
	"log/slog"

	"github.com/shortlink/shortlink/backend/domain"
	"github.com/shortlink/shortlink/backend/imports"
	"github.com/shortlink/shortlink/backend/link"
	"github.com/shortlink/shortlink/backend/visit"
	"github.com/shortlink/shortlink/backend/webhook"
)

// The events written into the webhook outbox right after their change, outside the
// transaction that made it: link creates, edits and deletes are written by the link store in
// the statement of the change itself.

// webhookClicks feeds the visits the ingest stored into the link.clicked batches.
type webhookClicks struct {
	hooks *webhook.Service
	log   *slog.Logger
}

// Clicked implements visit.ClickSink. Visits of crawlers are not clicks.
func (w webhookClicks) Clicked(ctx context.Context, batches []visit.Batch) {
	var clicks []webhook.Click
	for _, b := range batches {
		for _, e := range b {
			if e.Crawler {
				continue
			}
			clicks = append(clicks, webhook.Click{WorkspaceID: e.WorkspaceID, LinkID: e.LinkID, At: e.At.UTC(),
				Country: e.Country, Device: e.Device, OS: e.OS, Browser: e.Browser, Referrer: e.Referrer})
		}
	}
	if err := w.hooks.Clicked(ctx, clicks); err != nil {
		w.log.Warn("webhooks: batch clicks", "visits", len(clicks), "err", err)
	}
}

// webhookLinkBanned writes link.banned for a link a moderator's decision banned.
func (a *App) webhookLinkBanned(ctx context.Context, l *link.Link) {
	if l.Status != link.StatusBanned {
		return
	}
	a.hooks.Enqueue(ctx, l.WorkspaceID, webhook.LinkBanned, map[string]any{"link": map[string]any{
		"id": l.ID, "workspace_id": l.WorkspaceID, "domain_id": l.DomainID, "code": l.Key, "url": l.URL,
		"status": l.Status, "short_url": a.links.ShortURL(l.DomainID, l.Key)}})
}

// webhookDomainVerified writes domain.verified.
func (a *App) webhookDomainVerified(ctx context.Context, d *domain.Domain) {
	a.hooks.Enqueue(ctx, d.WorkspaceID, webhook.DomainVerified, map[string]any{"domain": map[string]any{
		"id": d.ID, "hostname": d.Hostname, "verified_at": d.VerifiedAt}})
}

// webhookImportFinished writes import.finished for a job that is done or failed.
func (a *App) webhookImportFinished(ctx context.Context, im *imports.Import, state, why string) {
	a.hooks.Enqueue(ctx, im.WorkspaceID, webhook.ImportFinished, map[string]any{"import": map[string]any{
		"id": im.ID, "state": state, "filename": im.Filename, "rows": im.Rows, "done": im.Done,
		"failed": im.Failed, "error": why}})
}
