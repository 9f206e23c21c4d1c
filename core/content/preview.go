package content

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/vetclube/vetclube/core"
)

// PreviewTTL is how long a preview link works.
const PreviewTTL = 15 * time.Minute

// Messages about preview links.
const (
	MsgPreviewExpired = "Este link de pré-visualização expirou. Gere um novo no painel."
	MsgPreviewInvalid = "Link de pré-visualização inválido."
)

// Previews signs and checks preview links: a token names an item and an
// expiry, signed with HMAC-SHA256 under a server secret, so a link cannot be
// forged or extended and needs no table.
type Previews struct {
	secret []byte
	now    func() time.Time
}

// NewPreviews returns a signer with secret (at least 32 bytes); now is the
// clock (time.Now when nil).
func NewPreviews(secret []byte, now func() time.Time) (*Previews, error) {
	if len(secret) < 32 {
		return nil, errors.New("content: the preview secret must have at least 32 bytes")
	}
	if now == nil {
		now = time.Now
	}
	return &Previews{secret: secret, now: now}, nil
}

type previewClaims struct {
	Item    string `json:"i"`
	Expires int64  `json:"e"`
}

func (p *Previews) mac(payload string) string {
	m := hmac.New(sha256.New, p.secret)
	m.Write([]byte("content-preview:" + payload))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// Sign returns a token previewing item id for PreviewTTL, and its expiry.
func (p *Previews) Sign(itemID string) (token string, expires time.Time) {
	expires = p.now().Add(PreviewTTL)
	b, _ := json.Marshal(previewClaims{Item: itemID, Expires: expires.Unix()})
	payload := base64.RawURLEncoding.EncodeToString(b)
	return payload + "." + p.mac(payload), expires
}

// Verify returns the item a token previews, or a 403 with the reason.
func (p *Previews) Verify(token string) (string, error) {
	payload, sig, ok := strings.Cut(token, ".")
	if !ok || !hmac.Equal([]byte(sig), []byte(p.mac(payload))) {
		return "", core.Errorf(core.EFORBIDDEN, MsgPreviewInvalid)
	}
	raw, err := base64.RawURLEncoding.DecodeString(payload)
	var c previewClaims
	if err != nil || json.Unmarshal(raw, &c) != nil || uuid.Validate(c.Item) != nil {
		return "", core.Errorf(core.EFORBIDDEN, MsgPreviewInvalid)
	}
	if !p.now().Before(time.Unix(c.Expires, 0)) {
		return "", core.Errorf(core.EFORBIDDEN, MsgPreviewExpired)
	}
	return c.Item, nil
}

// Preview returns the working copy (the draft) a valid token points to.
func (s *Store) Preview(ctx context.Context, p *Previews, token string) (Item, error) {
	id, err := p.Verify(token)
	if err != nil {
		return Item{}, err
	}
	return s.Get(ctx, id)
}
