package moderation

import (
	"errors"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
)

func TestDomainCursor(t *testing.T) {
	at := time.UnixMicro(1_780_000_000_123_456)
	c := DomainCursor{At: at, Domain: "alice.github.io"}
	got, err := ParseDomainCursor(c.String())
	if err != nil || !got.At.Equal(at) || got.Domain != "alice.github.io" {
		t.Fatalf("round trip: %+v %v", got, err)
	}
	if got, err := ParseDomainCursor(""); err != nil || !got.At.IsZero() {
		t.Errorf("the first page: %+v %v", got, err)
	}
	for _, bad := range []string{"zz", ".example.com", "0.example.com", "-1.example.com", "!!.example.com", "abc."} {
		var ae *apperr.Error
		if _, err := ParseDomainCursor(bad); !errors.As(err, &ae) || ae.Code != apperr.Invalid {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
