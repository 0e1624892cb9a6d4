package seal

import (
	"bytes"
	"testing"
)

func TestSealOpen(t *testing.T) {
	secret := []byte("test-secret-test-secret-test-secret-0123")
	b := New(secret, "one purpose")
	sealed := b.Seal([]byte("hello"), []byte("user:1"))
	if bytes.Contains(sealed, []byte("hello")) {
		t.Fatal("the plain text shows in the sealed bytes")
	}
	if got, err := b.Open(sealed, []byte("user:1")); err != nil || string(got) != "hello" {
		t.Fatalf("open: %q %v", got, err)
	}
	if _, err := b.Open(sealed, []byte("user:2")); err == nil {
		t.Fatal("opened with another owner's data")
	}
	if _, err := New(secret, "another purpose").Open(sealed, []byte("user:1")); err == nil {
		t.Fatal("opened under another purpose's key")
	}
	if _, err := New([]byte("another-secret-another-secret-0123456"), "one purpose").Open(sealed, []byte("user:1")); err == nil {
		t.Fatal("opened under another secret")
	}
	if _, err := b.Open([]byte("short"), nil); err == nil {
		t.Fatal("opened a too short value")
	}
	if bytes.Equal(sealed, b.Seal([]byte("hello"), []byte("user:1"))) {
		t.Fatal("two seals of one secret are the same")
	}
}
