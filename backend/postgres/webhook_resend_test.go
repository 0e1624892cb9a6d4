package postgres_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/testenv"
	"github.com/shortlink/shortlink/backend/webhook"
)

// Migration 00055 goes down and up again: the columns of a delivery's request and answer.
func TestWebhookExchangeMigrationDownAndUp(t *testing.T) {
	ctx := context.Background()
	db, provider := migratedDB(t)
	columns := func() int {
		t.Helper()
		var n int
		if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM information_schema.columns WHERE table_name = 'webhook_deliveries'
			AND column_name IN ('request_headers', 'response_body', 'response_truncated', 'response_content_type', 'resent_from')`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := columns(); n != 5 {
		t.Fatalf("migrated with %d of the 5 columns", n)
	}
	if _, err := provider.DownTo(ctx, 54); err != nil {
		t.Fatal(err)
	}
	if n := columns(); n != 0 {
		t.Fatalf("down kept %d columns", n)
	}
	if _, err := provider.Up(ctx); err != nil {
		t.Fatal(err)
	}
	if n := columns(); n != 5 {
		t.Fatalf("up again with %d of the 5 columns", n)
	}
}

// TestWebhookStoreExchangeAndResend: an attempt's request and answer are kept with the
// delivery and read back only in its workspace; a resend copies the message (event, data,
// message id) into a new delivery naming the original, unless allow refuses; the answer's
// bound holds in the database too; the purge takes the answers with their deliveries.
func TestWebhookStoreExchangeAndResend(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testenv.DB(t)
	store := postgres.NewWebhookStore(db)
	ws, other := newWorkspace(t, db), newWorkspace(t, db)
	w := &webhook.Webhook{WorkspaceID: ws, URL: "https://93.184.216.34/hook", Events: []string{webhook.LinkCreated}, Secret: webhook.NewSecret()}
	if err := store.Create(ctx, w); err != nil {
		t.Fatal(err)
	}
	d, _, err := store.EnqueueTest(ctx, ws, w.ID, map[string]any{"n": 1}, time.Now().Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	code := 500
	ex := webhook.Exchange{RequestHeaders: map[string]string{"webhook-id": d.MessageID, "webhook-signature": "v1,…"},
		Answer: "boom", AnswerTruncated: true, AnswerContentType: "text/plain"}
	if _, err := store.Finish(ctx, webhook.Result{ID: d.ID, WebhookID: w.ID, Status: webhook.Failed, Attempt: 1, ResponseCode: &code,
		Error: "status 500", Exchange: ex}, 50); err != nil {
		t.Fatal(err)
	}
	got, err := store.Delivery(ctx, ws, w.ID, d.ID)
	if err != nil || got.Answer != "boom" || !got.AnswerTruncated || got.AnswerContentType != "text/plain" ||
		got.RequestHeaders["webhook-id"] != d.MessageID || got.ResentFrom != nil {
		t.Fatalf("delivery %+v %v", got, err)
	}
	if _, err := store.Delivery(ctx, other, w.ID, d.ID); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("another workspace read the delivery: %v", err)
	}

	refused := errors.New("refused")
	if _, _, err := store.Resend(ctx, ws, w.ID, d.ID, time.Now().Add(time.Minute), func(webhook.Webhook, webhook.Delivery) error { return refused }); !errors.Is(err, refused) {
		t.Errorf("a refused resend: %v", err)
	}
	if _, _, err := store.Resend(ctx, other, w.ID, d.ID, time.Now().Add(time.Minute), webhook.Resendable); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("another workspace resent the delivery: %v", err)
	}
	again, hook, err := store.Resend(ctx, ws, w.ID, d.ID, time.Now().Add(time.Minute), webhook.Resendable)
	if err != nil || again.ID == d.ID || again.MessageID != d.MessageID || again.Event != d.Event || string(again.Data) != string(got.Data) ||
		!again.CreatedAt.Equal(got.CreatedAt) || again.ResentFrom == nil || *again.ResentFrom != d.ID ||
		again.Status != webhook.Pending || again.Attempt != 0 || again.Answer != "" || hook.Secret != w.Secret {
		t.Fatalf("resent %+v %v", again, err)
	}
	if ds, err := store.Deliveries(ctx, ws, w.ID, 10); err != nil || len(ds) != 2 {
		t.Errorf("deliveries after one refused and one made resend: %d %v", len(ds), err)
	}

	// The database refuses an answer longer than 4 KiB, whatever writes it.
	if _, err := db.Pool.Exec(ctx, `UPDATE webhook_deliveries SET response_body = $2 WHERE id = $1`, d.ID, strings.Repeat("x", webhook.MaxAnswerBody+1)); err == nil {
		t.Error("an answer of 4 KiB and one byte was kept")
	}
	// Past the retention, the purge removes the delivered and failed deliveries, answers and all.
	if n, err := store.PurgeBefore(ctx, time.Now().Add(time.Hour)); err != nil || n != 1 {
		t.Errorf("purged %d: %v", n, err)
	}
}
