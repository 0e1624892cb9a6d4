package webhook

import (
	"context"
	"log/slog"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/netguard"
)

// MaxPerWorkspace bounds a workspace's webhooks.
const MaxPerWorkspace = 25

// Service manages a workspace's webhooks and writes the events that happen outside a
// store's transaction into the outbox.
type Service struct {
	store      Store
	guard      *netguard.Dialer
	allowHTTP  bool
	dispatcher *Dispatcher
	log        *slog.Logger
}

// NewService returns the Service; allowLoopback (tests only) lets webhook URLs on loopback
// addresses and plain http through.
func NewService(store Store, dispatcher *Dispatcher, allowLoopback bool, log *slog.Logger) *Service {
	return &Service{store: store, guard: &netguard.Dialer{AllowLoopback: allowLoopback, Timeout: 5 * time.Second},
		allowHTTP: allowLoopback, dispatcher: dispatcher, log: log}
}

// checkTarget refuses a URL whose host is, or resolves to, an address the guard refuses.
// The guard checks again at every send: a name may change its addresses later.
func (s *Service) checkTarget(ctx context.Context, raw string) (string, error) {
	u, err := ValidateURL(raw, s.allowHTTP)
	if err != nil {
		return "", err
	}
	if _, err := s.guard.Resolve(ctx, u.Hostname()); err != nil {
		if netguard.IsRefused(err) {
			return "", apperr.Errorf(apperr.Invalid, "url: webhooks are sent only to public addresses (%v)", err).For("webhook_url_refused", "url")
		}
		return "", apperr.Errorf(apperr.Invalid, "url: host %q cannot be resolved", u.Hostname()).For("webhook_url_unresolvable", "url")
	}
	return u.String(), nil
}

// Create subscribes url to events in the workspace; the answer carries the secret, the only
// time it is shown.
func (s *Service) Create(ctx context.Context, workspaceID int64, rawURL string, events []string) (*Webhook, error) {
	evs, err := ValidateEvents(events)
	if err != nil {
		return nil, err
	}
	u, err := s.checkTarget(ctx, rawURL)
	if err != nil {
		return nil, err
	}
	existing, err := s.store.List(ctx, workspaceID)
	if err != nil {
		return nil, err
	}
	if len(existing) >= MaxPerWorkspace {
		return nil, apperr.Errorf(apperr.Conflict, "a workspace has at most %d webhooks", MaxPerWorkspace).For("webhook_limit", "")
	}
	w := &Webhook{WorkspaceID: workspaceID, URL: u, Events: evs, Secret: NewSecret(), Enabled: true}
	if err := s.store.Create(ctx, w); err != nil {
		return nil, err
	}
	return w, nil
}

// List answers the workspace's webhooks, oldest first.
func (s *Service) List(ctx context.Context, workspaceID int64) ([]Webhook, error) {
	return s.store.List(ctx, workspaceID)
}

// Get answers one webhook of the workspace.
func (s *Service) Get(ctx context.Context, workspaceID, id int64) (*Webhook, error) {
	return s.store.Get(ctx, workspaceID, id)
}

// Update edits a webhook; enabling it again clears its count of failures.
func (s *Service) Update(ctx context.Context, workspaceID, id int64, p Patch) (*Webhook, error) {
	if p.URL != nil {
		u, err := s.checkTarget(ctx, *p.URL)
		if err != nil {
			return nil, err
		}
		p.URL = &u
	}
	if p.Events != nil {
		evs, err := ValidateEvents(p.Events)
		if err != nil {
			return nil, err
		}
		p.Events = evs
	}
	return s.store.Update(ctx, workspaceID, id, p)
}

// Delete removes a webhook and its deliveries.
func (s *Service) Delete(ctx context.Context, workspaceID, id int64) error {
	return s.store.Delete(ctx, workspaceID, id)
}

// Deliveries answers a webhook's latest deliveries, newest first.
func (s *Service) Deliveries(ctx context.Context, workspaceID, id int64, limit int) ([]Delivery, error) {
	return s.store.Deliveries(ctx, workspaceID, id, limit)
}

// Delivery answers one delivery of a webhook, with what its last attempt sent and got back.
func (s *Service) Delivery(ctx context.Context, workspaceID, id, deliveryID int64) (*Delivery, error) {
	return s.store.Delivery(ctx, workspaceID, id, deliveryID)
}

// testRecordTimeout bounds the recording of a test delivery once its send is over.
const testRecordTimeout = 5 * time.Second

// Test sends a webhook.test delivery to the webhook now, once, and answers it as recorded
// (delivered or failed, with the response code). It goes through the outbox and the guard as
// every delivery does, and counts toward no disabling. Once in the outbox the delivery no
// longer depends on ctx: the receiver has Timeout to answer, as every delivery does, and the
// attempt is recorded even when the caller stopped waiting (docs/api.md, "Webhooks"); its
// lease in the outbox (2*Timeout) outlasts both, so no dispatcher sends it meanwhile.
func (s *Service) Test(ctx context.Context, workspaceID, id int64) (*Delivery, error) {
	d, w, err := s.store.EnqueueTest(ctx, workspaceID, id,
		map[string]any{"webhook_id": id, "message": "a test from Shortlink"}, time.Now().Add(2*Timeout))
	if err != nil {
		return nil, err
	}
	return s.sendNow(ctx, d, w), nil
}

// sendNow makes the one attempt of a delivery sent while its caller waits (a test, a resend)
// and answers it as recorded: through the guard, signed and bounded by Timeout as every
// delivery, tried once and counting toward no disabling. Once in the outbox the delivery no
// longer depends on ctx: the attempt is recorded even when the caller stopped waiting.
func (s *Service) sendNow(ctx context.Context, d *Delivery, w *Webhook) *Delivery {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), Timeout+testRecordTimeout)
	defer cancel()
	out := s.dispatcher.Deliver(ctx, Claimed{Delivery: *d, URL: w.URL, Secret: w.Secret}, false)
	return &out
}

// Enqueue writes event into the outbox of every subscribed webhook of the workspace, for the
// events that happen outside a link store's transaction (bans, domains, imports). A failure
// is logged: the change it reports is done. A workspace whose plan lacks webhooks gets
// nothing written: the event is dropped.
func (s *Service) Enqueue(ctx context.Context, workspaceID int64, event string, data any) {
	if ok, err := s.dispatcher.planAllows(ctx, workspaceID); err == nil && !ok {
		return
	}
	if err := s.store.Enqueue(context.WithoutCancel(ctx), workspaceID, event, data); err != nil {
		s.log.Error("webhooks: write an event into the outbox", "event", event, "workspace", workspaceID, "err", err)
		return
	}
	s.dispatcher.Wake()
}

// Clicked adds visits to the link.clicked batches, leaving out the workspaces whose plan
// lacks webhooks (their clicks are dropped, not queued).
func (s *Service) Clicked(ctx context.Context, clicks []Click) error {
	allowed := map[int64]bool{}
	kept := clicks[:0:0]
	for _, c := range clicks {
		ok, seen := allowed[c.WorkspaceID]
		if !seen {
			send, err := s.dispatcher.planAllows(ctx, c.WorkspaceID)
			ok = send || err != nil // not known: queued, and the dispatcher decides
			allowed[c.WorkspaceID] = ok
		}
		if ok {
			kept = append(kept, c)
		}
	}
	return s.store.Clicked(ctx, kept)
}

// Purge removes the deliveries past Retention from the log; pending ones stay.
func (s *Service) Purge(ctx context.Context) (int64, error) {
	return s.store.PurgeBefore(ctx, time.Now().Add(-Retention))
}
