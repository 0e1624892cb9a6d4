package webhook

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
)

// secretPrefix marks a secret as a Standard Webhooks one.
const secretPrefix = "whsec_"

// NewSecret returns a new signing secret: "whsec_" and the base64 of 32 random bytes, as
// Standard Webhooks writes them.
func NewSecret() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return secretPrefix + base64.StdEncoding.EncodeToString(b)
}

// secretKey is the HMAC key of a secret: the bytes the base64 after "whsec_" carries.
func secretKey(secret string) ([]byte, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, secretPrefix))
	if err != nil || len(key) == 0 {
		return nil, errors.New("webhook secret is not whsec_ and base64")
	}
	return key, nil
}

// Sign is the webhook-signature header of a message: "v1," and the base64 of the
// HMAC-SHA256, under the secret's key, of "<msgID>.<timestamp>.<body>".
func Sign(secret, msgID string, timestamp int64, body []byte) (string, error) {
	key, err := secretKey(secret)
	if err != nil {
		return "", err
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(msgID + "." + strconv.FormatInt(timestamp, 10) + "."))
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil)), nil
}
