package postgres_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/testenv"
	"github.com/shortlink/shortlink/backend/webhook"
)

// TestWebhookTestOutlivesItsCaller: a test delivery whose caller stops waiting while the
// receiver answers (a client that disconnects) is still sent to its end and recorded, once.
func TestWebhookTestOutlivesItsCaller(t *testing.T) {
	t.Parallel()
	db := testenv.DB(t)
	accounts, store := postgres.NewAccountStore(db), postgres.NewWebhookStore(db)
	_, w := newUser(t, accounts, "hooks@example.com")
	log := slog.New(slog.DiscardHandler)
	svc := webhook.NewService(store, webhook.NewDispatcher(webhook.DispatcherOptions{Store: store,
		Sender: webhook.NewSender(true), DisableAfter: 50, Log: log}), true, log)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	receiver := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, _ *http.Request) {
		cancel() // the caller leaves while the receiver holds the delivery
		rw.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(receiver.Close)
	h, err := svc.Create(context.Background(), w.ID, receiver.URL+"/hook", []string{"link.created"})
	if err != nil {
		t.Fatal(err)
	}
	d, err := svc.Test(ctx, w.ID, h.ID)
	if err != nil {
		t.Fatal(err)
	}
	if ctx.Err() == nil {
		t.Fatal("the receiver was not reached")
	}
	if d.Status != webhook.Delivered || d.ResponseCode == nil || *d.ResponseCode != http.StatusNoContent {
		t.Fatalf("the answer of the test: %+v", d)
	}
	ds, err := svc.Deliveries(context.Background(), w.ID, h.ID, 10)
	if err != nil || len(ds) != 1 || ds[0].Status != webhook.Delivered || ds[0].Attempt != 1 {
		t.Fatalf("the recorded delivery: %+v %v", ds, err)
	}
}
