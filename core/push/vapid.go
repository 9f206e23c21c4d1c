package push

import (
	"bytes"
	"crypto/ecdh"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/SherClockHolmes/webpush-go"
)

// Keys is a VAPID key pair (RFC 8292) in the unpadded base64url form the
// browser's applicationServerKey and webpush-go expect: the public key is
// the 65-byte uncompressed P-256 point, the private key the 32-byte scalar.
type Keys struct {
	Public  string `json:"public_key"`
	Private string `json:"private_key"`
}

// decodeB64URL accepts base64url with or without padding (browsers and key
// generators differ).
func decodeB64URL(s string) ([]byte, error) {
	return base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
}

// ParseKeys validates a configured pair: both must decode, have the right
// lengths, and the public key must be the private key's.
func ParseKeys(public, private string) (Keys, error) {
	pub, err := decodeB64URL(strings.TrimSpace(public))
	if err != nil || len(pub) != 65 || pub[0] != 4 {
		return Keys{}, errors.New("VAPID_PUBLIC_KEY must be an uncompressed P-256 point (65 bytes) in base64url")
	}
	priv, err := decodeB64URL(strings.TrimSpace(private))
	if err != nil || len(priv) != 32 {
		return Keys{}, errors.New("VAPID_PRIVATE_KEY must be a P-256 private key (32 bytes) in base64url")
	}
	key, err := ecdh.P256().NewPrivateKey(priv)
	if err != nil {
		return Keys{}, fmt.Errorf("VAPID_PRIVATE_KEY: %w", err)
	}
	if !bytes.Equal(key.PublicKey().Bytes(), pub) {
		return Keys{}, errors.New("VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY")
	}
	return Keys{Public: base64.RawURLEncoding.EncodeToString(pub), Private: base64.RawURLEncoding.EncodeToString(priv)}, nil
}

// GenerateKeys makes a new pair.
func GenerateKeys() (Keys, error) {
	priv, pub, err := webpush.GenerateVAPIDKeys()
	if err != nil {
		return Keys{}, fmt.Errorf("generate VAPID keys: %w", err)
	}
	return ParseKeys(pub, priv)
}

// LoadOrCreateKeys reads the development pair kept at path, creating it on
// first use. Browsers bind their subscriptions to the public key, so the pair
// must survive restarts: a new pair would silently orphan every device. The
// file is created exclusively, so two instances starting together on one
// DATA_DIR agree on one pair.
func LoadOrCreateKeys(path string) (Keys, bool, error) {
	if k, err := readKeys(path); err == nil {
		return k, false, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return Keys{}, false, err
	}
	k, err := GenerateKeys()
	if err != nil {
		return Keys{}, false, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return Keys{}, false, fmt.Errorf("VAPID key directory: %w", err)
	}
	raw, _ := json.MarshalIndent(k, "", "  ")
	// Written whole to a temporary file, then linked into place: link fails
	// when the name exists, so a concurrent starter never reads half a file.
	tmp, err := os.CreateTemp(filepath.Dir(path), ".vapid-*")
	if err != nil {
		return Keys{}, false, fmt.Errorf("create VAPID key file: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(raw, '\n')); err != nil {
		tmp.Close()
		return Keys{}, false, fmt.Errorf("write VAPID key file: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return Keys{}, false, fmt.Errorf("write VAPID key file: %w", err)
	}
	if err := os.Link(tmp.Name(), path); errors.Is(err, fs.ErrExist) {
		k, err := readKeys(path)
		return k, false, err
	} else if err != nil {
		return Keys{}, false, fmt.Errorf("create VAPID key file: %w", err)
	}
	return k, true, nil
}

func readKeys(path string) (Keys, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return Keys{}, err
	}
	var k Keys
	if err := json.Unmarshal(raw, &k); err != nil {
		return Keys{}, fmt.Errorf("VAPID key file %s: %w", path, err)
	}
	k, err = ParseKeys(k.Public, k.Private)
	if err != nil {
		return Keys{}, fmt.Errorf("VAPID key file %s: %w", path, err)
	}
	return k, nil
}
