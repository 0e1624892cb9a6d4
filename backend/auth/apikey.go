package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"strings"
)

// APIKeyPrefix starts every API key, so keys are told apart from JWTs (and found by secret
// scanners).
const APIKeyPrefix = "sl_"

// APIKeyDisplayLen is how much of a key is kept in clear to tell keys apart in listings.
const APIKeyDisplayLen = 10

const (
	keyAlphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	keyChars    = 40 // 40 base62 characters: about 238 bits
)

// NewAPIKey returns a new secret key ("sl_" and 40 base62 characters), the part of it that
// may be shown again, and the hash to store.
func NewAPIKey() (key, prefix string, hash []byte, err error) {
	var sb strings.Builder
	sb.WriteString(APIKeyPrefix)
	buf := make([]byte, 64)
	for sb.Len() < len(APIKeyPrefix)+keyChars {
		if _, err := rand.Read(buf); err != nil {
			return "", "", nil, fmt.Errorf("api key: %w", err)
		}
		for _, c := range buf {
			// 248 = 4·62: dropping bytes above it keeps every character equally likely.
			if c < 248 && sb.Len() < len(APIKeyPrefix)+keyChars {
				sb.WriteByte(keyAlphabet[c%62])
			}
		}
	}
	key = sb.String()
	return key, key[:APIKeyDisplayLen], HashAPIKey(key), nil
}

// HashAPIKey is how keys are stored and looked up. Keys are random, so a plain SHA-256 is as
// strong as a slow hash, and checking one costs a request microseconds.
func HashAPIKey(key string) []byte {
	sum := sha256.Sum256([]byte(key))
	return sum[:]
}

// IsAPIKey reports whether a bearer token is shaped like an API key rather than a JWT.
func IsAPIKey(token string) bool {
	if len(token) != len(APIKeyPrefix)+keyChars || !strings.HasPrefix(token, APIKeyPrefix) {
		return false
	}
	for i := len(APIKeyPrefix); i < len(token); i++ {
		if strings.IndexByte(keyAlphabet, token[i]) < 0 {
			return false
		}
	}
	return true
}
