package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
)

// randomToken returns 256 random bits, URL-safe.
func randomToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go ≥ 1.24)
	return base64.RawURLEncoding.EncodeToString(b)
}

// hashToken is how every token is stored: a high-entropy random token needs
// no salt or slow hash, only not being kept in plain text.
func hashToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}
