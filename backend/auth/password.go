// Package auth holds the secrets of signing in: password hashes, JWT access tokens, rotating
// refresh tokens, API-key secrets and the login rate limit.
package auth

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/crypto/argon2"
)

// argon2id parameters: OWASP's 19 MiB, 2 passes, 1 lane, about 20 ms a hash (DefaultCost).
// Stored hashes carry their own parameters, so raising these later only affects new hashes.
// Every hash holds its memory while it runs: Hasher bounds how many run at once.
const (
	argonTime    = 2
	argonMemory  = 19 * 1024 // KiB
	argonThreads = 1
	argonKeyLen  = 32
	argonSaltLen = 16
)

// Cost is the work of one argon2id hash: its memory in KiB and its passes.
type Cost struct {
	MemoryKiB uint32
	Passes    uint32
}

// DefaultCost is the cost of every hash a deployment makes: OWASP's parameters above.
var DefaultCost = Cost{MemoryKiB: argonMemory, Passes: argonTime}

// LightCost is argon2id at 64 KiB and one pass, a six-hundredth of DefaultCost's work. Only
// tests' servers use it, set in code (config.Config.PasswordHashLight), so that their thousands
// of sign-ups and sign-ins do not spend a third of the suite's CPU in hashing; nothing in the
// environment can choose it.
var LightCost = Cost{MemoryKiB: 64, Passes: 1}

// Bounds on the parameters a stored hash may ask for, so a corrupt row cannot make a login
// allocate gigabytes.
const (
	maxArgonMemory = 256 * 1024
	maxArgonTime   = 16
)

var b64 = base64.RawStdEncoding

// keyFunc derives an argon2id key: argon2.IDKey, or a stand-in in tests of the bound.
type keyFunc func(password, salt []byte, time, memory uint32, threads uint8, keyLen uint32) []byte

// hashWith returns a PHC-style argon2id hash of password with a random salt:
// $argon2id$v=19$m=19456,t=2,p=1$<salt>$<key>.
func hashWith(derive keyFunc, cost Cost, password string) (string, error) {
	salt := make([]byte, argonSaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("hash password: %w", err)
	}
	key := derive([]byte(password), salt, cost.Passes, cost.MemoryKiB, argonThreads, argonKeyLen)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, cost.MemoryKiB, cost.Passes,
		argonThreads, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// verifyWith reports whether password matches a hash made by hashWith, comparing the derived
// keys in constant time. A malformed hash matches nothing, and costs nothing.
func verifyWith(derive keyFunc, hash, password string) bool {
	p, ok := parseHash(hash)
	if !ok {
		return false
	}
	got := derive([]byte(password), p.salt, p.time, p.memory, p.threads, uint32(len(p.key)))
	return subtle.ConstantTimeCompare(got, p.key) == 1
}

type argonHash struct {
	memory, time uint32
	threads      uint8
	salt, key    []byte
}

func parseHash(hash string) (argonHash, bool) {
	var h argonHash
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" || parts[2] != "v="+strconv.Itoa(argon2.Version) {
		return h, false
	}
	for _, kv := range strings.Split(parts[3], ",") {
		k, v, _ := strings.Cut(kv, "=")
		n, err := strconv.ParseUint(v, 10, 32)
		if err != nil {
			return h, false
		}
		switch k {
		case "m":
			h.memory = uint32(n)
		case "t":
			h.time = uint32(n)
		case "p":
			if n > 255 {
				return h, false
			}
			h.threads = uint8(n)
		default:
			return h, false
		}
	}
	if h.memory < 8 || h.memory > maxArgonMemory || h.time < 1 || h.time > maxArgonTime || h.threads < 1 {
		return h, false
	}
	var err error
	if h.salt, err = b64.DecodeString(parts[4]); err != nil || len(h.salt) < 8 {
		return h, false
	}
	if h.key, err = b64.DecodeString(parts[5]); err != nil || len(h.key) < 16 {
		return h, false
	}
	return h, true
}

// dummyHash is a hash of a random password, with DefaultCost, checked when a login names no
// user so that both failures take the same time.
const dummyHash = "$argon2id$v=19$m=19456,t=2,p=1$KxVFb/28jV7SBFasAViA9w$aan4jHmGzoDOTzrgTg4wSiHVM1BRcYpECLC9NXezIyI"
