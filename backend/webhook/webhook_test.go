package webhook_test

import (
	"strings"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/webhook"
)

// TestSign checks the signature against the example of the Standard Webhooks specification.
func TestSign(t *testing.T) {
	got, err := webhook.Sign("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, []byte(`{"test": 2432232314}`))
	if err != nil || got != "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=" {
		t.Errorf("Sign = %q, %v", got, err)
	}
	if _, err := webhook.Sign("whsec_not base64!", "msg", 1, nil); err == nil {
		t.Error("a secret that is not base64 signed")
	}
}

func TestNewSecret(t *testing.T) {
	a, b := webhook.NewSecret(), webhook.NewSecret()
	if !strings.HasPrefix(a, "whsec_") || a == b || len(a) != len("whsec_")+44 {
		t.Errorf("secrets %q %q", a, b)
	}
	if _, err := webhook.Sign(a, "msg", 1, []byte("{}")); err != nil {
		t.Errorf("sign with a new secret: %v", err)
	}
}

func TestNextAttempt(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	delays := []time.Duration{5 * time.Second, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 5 * time.Hour, 10 * time.Hour}
	for attempt, want := range map[int]time.Duration{1: 5 * time.Second, 2: 5 * time.Minute, 6: 10 * time.Hour} {
		if at, ok := webhook.NextAttempt(now, attempt, delays); !ok || at.Sub(now) != want {
			t.Errorf("after attempt %d: %v %v, want +%v", attempt, at, ok, want)
		}
	}
	if _, ok := webhook.NextAttempt(now, 7, delays); ok {
		t.Error("a seventh retry")
	}
	if _, ok := webhook.NextAttempt(now, 1, nil); ok {
		t.Error("a retry without delays")
	}
}

func TestShouldDisable(t *testing.T) {
	if webhook.ShouldDisable(49, 50) || !webhook.ShouldDisable(50, 50) || !webhook.ShouldDisable(51, 50) {
		t.Error("the 50th failure in a row disables, not before")
	}
}

func TestValidateURL(t *testing.T) {
	for raw, reason := range map[string]string{
		"":                                     "webhook_url_invalid",
		"hooks.example.com/x":                  "webhook_url_invalid",
		"ftp://hooks.example.com":              "webhook_url_invalid",
		"https://u:p@example.com":              "webhook_url_invalid",
		"http://hooks.example.com":             "webhook_url_insecure",
		"https://" + strings.Repeat("a", 2050): "webhook_url_invalid",
	} {
		_, err := webhook.ValidateURL(raw, false)
		if apperr.ReasonOf(err) != reason {
			t.Errorf("%.40q: %v, want %s", raw, err, reason)
		}
	}
	if _, err := webhook.ValidateURL("https://hooks.example.com/in?x=1", false); err != nil {
		t.Error(err)
	}
	if _, err := webhook.ValidateURL("http://127.0.0.1:8080/in", true); err != nil {
		t.Error(err)
	}
}

func TestValidateEvents(t *testing.T) {
	got, err := webhook.ValidateEvents([]string{"link.clicked", "link.created", "link.clicked"})
	if err != nil || strings.Join(got, ",") != "link.created,link.clicked" {
		t.Errorf("%v %v", got, err)
	}
	if _, err := webhook.ValidateEvents(nil); apperr.ReasonOf(err) != "webhook_events_empty" {
		t.Errorf("empty: %v", err)
	}
	if _, err := webhook.ValidateEvents([]string{"link.exploded"}); apperr.ReasonOf(err) != "webhook_event_unknown" {
		t.Errorf("unknown: %v", err)
	}
	if _, err := webhook.ValidateEvents([]string{webhook.Test}); err == nil {
		t.Error("subscribed to the test event")
	}
}
