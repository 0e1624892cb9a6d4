package auth

import (
	"crypto/sha256"
	"regexp"
	"strings"
	"testing"
)

func TestNewAPIKey(t *testing.T) {
	shape := regexp.MustCompile(`^sl_[0-9A-Za-z]{40}$`)
	seen := map[string]bool{}
	counts := map[byte]int{}
	for range 500 {
		key, prefix, hash, err := NewAPIKey()
		if err != nil {
			t.Fatal(err)
		}
		if !shape.MatchString(key) || !IsAPIKey(key) {
			t.Fatalf("key %q is not sl_ and 40 base62 characters", key)
		}
		if prefix != key[:10] {
			t.Errorf("prefix %q is not the key's first 10 characters", prefix)
		}
		if sum := sha256.Sum256([]byte(key)); string(hash) != string(sum[:]) || string(HashAPIKey(key)) != string(sum[:]) {
			t.Errorf("hash is not the SHA-256 of the whole key")
		}
		if seen[key] {
			t.Fatalf("key %q issued twice", key)
		}
		seen[key] = true
		for i := 3; i < len(key); i++ {
			counts[key[i]]++
		}
	}
	// 20,000 characters over 62 symbols: every symbol appears, none wildly often.
	if len(counts) != 62 {
		t.Errorf("only %d of 62 symbols appear", len(counts))
	}
	for c, n := range counts {
		if n < 200 || n > 480 {
			t.Errorf("symbol %q appears %d times, expected about 322", c, n)
		}
	}
}

func TestIsAPIKey(t *testing.T) {
	key, _, _, _ := NewAPIKey()
	tests := map[string]bool{
		key:                          true,
		"":                           false,
		"sl_":                        false,
		key[:len(key)-1]:             false,
		key + "a":                    false,
		"SL_" + key[3:]:              false,
		key[:20] + "-" + key[21:]:    false,
		"eyJhbGciOiJIUzI1NiJ9.e30.x": false,
		strings.Repeat("a", 43):      false,
	}
	for in, want := range tests {
		if got := IsAPIKey(in); got != want {
			t.Errorf("IsAPIKey(%q) = %v, want %v", in, got, want)
		}
	}
}
