package auth

import (
	"context"
	"strings"
	"testing"
	"time"
)

// testHasher hashes with the real argon2id, one at a time.
var testHasher = NewHasher(1, time.Minute)

func hashPassword(t *testing.T, password string) string {
	t.Helper()
	h, err := testHasher.Hash(context.Background(), password)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func verifyPassword(t *testing.T, hash, password string) bool {
	t.Helper()
	ok, err := testHasher.Verify(context.Background(), hash, password)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

func TestPassword(t *testing.T) {
	hash := hashPassword(t, "correct horse battery")
	if !strings.HasPrefix(hash, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Errorf("hash %q is not a PHC argon2id string with today's parameters", hash)
	}
	other := hashPassword(t, "correct horse battery")
	if other == hash {
		t.Error("two hashes of one password are equal: the salt is not random")
	}
	tests := []struct {
		password string
		ok       bool
	}{
		{"correct horse battery", true},
		{"correct horse batter", false},
		{"correct horse battery ", false},
		{"Correct horse battery", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := verifyPassword(t, hash, tt.password); got != tt.ok {
			t.Errorf("VerifyPassword(%q) = %v, want %v", tt.password, got, tt.ok)
		}
	}
	unicode := hashPassword(t, "пароль-密码-🔑")
	if !verifyPassword(t, unicode, "пароль-密码-🔑") || verifyPassword(t, unicode, "пароль-密码-") {
		t.Error("non-ASCII password does not round-trip")
	}
}

func TestVerifyPasswordMalformed(t *testing.T) {
	good := hashPassword(t, "secret password")
	parts := strings.Split(good, "$")
	with := func(i int, v string) string {
		p := append([]string(nil), parts...)
		p[i] = v
		return strings.Join(p, "$")
	}
	tests := map[string]string{
		"empty":          "",
		"plain text":     "secret password",
		"bcrypt":         "$2a$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy",
		"argon2i":        with(1, "argon2i"),
		"old version":    with(2, "v=16"),
		"no params":      with(3, ""),
		"unknown param":  with(3, "m=19456,t=2,p=1,x=3"),
		"huge memory":    with(3, "m=4194304,t=2,p=1"),
		"many passes":    with(3, "m=19456,t=1000,p=1"),
		"zero threads":   with(3, "m=19456,t=2,p=0"),
		"bad salt":       with(4, "!!!"),
		"short key":      with(5, "AAAA"),
		"missing part":   strings.Join(parts[:5], "$"),
		"trailing parts": good + "$x",
	}
	for name, h := range tests {
		if verifyPassword(t, h, "secret password") {
			t.Errorf("%s: VerifyPassword accepted %q", name, h)
		}
	}
}

// TestDummyHash checks that logins of unknown users pay for the same work as real ones.
func TestDummyHash(t *testing.T) {
	d, ok := parseHash(dummyHash)
	if !ok {
		t.Fatal("dummyHash does not parse")
	}
	if d.memory != argonMemory || d.time != argonTime || d.threads != argonThreads || len(d.key) != argonKeyLen {
		t.Errorf("dummyHash parameters %+v differ from today's", d)
	}
}
