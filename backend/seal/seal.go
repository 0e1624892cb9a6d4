// Package seal encrypts small secrets kept at rest (TOTP secrets, identity providers' client
// secrets) with AES-256-GCM under a key derived from the service's secret.
package seal

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
)

// Box seals and opens secrets under one derived key.
type Box struct {
	aead cipher.AEAD
	what string
}

// New derives a key (HKDF-SHA256) from secret for purpose, a label of its own per use: a box
// of one purpose does not open another's secrets, and a new secret makes every sealed one
// unreadable.
func New(secret []byte, purpose string) *Box {
	key, err := hkdf.Key(sha256.New, secret, nil, purpose, 32)
	if err != nil {
		panic("derive the key of " + purpose + ": " + err.Error()) // only for lengths past 255 hashes
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		panic("cipher of " + purpose + ": " + err.Error()) // only for a key that is not 16, 24 or 32 bytes
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		panic("cipher of " + purpose + ": " + err.Error()) // only for a block size that is not 16
	}
	return &Box{aead: aead, what: purpose}
}

// Seal encrypts plain with a fresh nonce, binding ad (such as the owner's ID) to it: a sealed
// secret copied to another row, whose ad differs, does not open.
func (b *Box) Seal(plain, ad []byte) []byte {
	nonce := make([]byte, b.aead.NonceSize())
	_, _ = rand.Read(nonce)
	return b.aead.Seal(nonce, nonce, plain, ad)
}

// Open decrypts what Seal made with the same ad.
func (b *Box) Open(sealed, ad []byte) ([]byte, error) {
	n := b.aead.NonceSize()
	if len(sealed) < n {
		return nil, errors.New("open sealed secret: too short")
	}
	plain, err := b.aead.Open(nil, sealed[:n], sealed[n:], ad)
	if err != nil {
		return nil, fmt.Errorf("open sealed secret (%s): %w", b.what, err)
	}
	return plain, nil
}
