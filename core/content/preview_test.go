package content_test

import (
	"strings"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/content"
)

func TestPreviewLinkShowsTheDraftFor15Minutes(t *testing.T) {
	f := newFixture(t)
	secret := []byte(strings.Repeat("s", 32))
	previews, err := content.NewPreviews(secret, f.now)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := content.NewPreviews([]byte("short"), f.now); err == nil {
		t.Fatal("a short secret was accepted")
	}
	it := f.publish(t, f.create(t, newsInput("Publicada")))
	if it, err = f.store.Update(f.ctx, f.editor(), it.ID, it.Version, newsInput("Rascunho novo")); err != nil {
		t.Fatal(err)
	}
	token, expires := previews.Sign(it.ID)
	if !expires.Equal(f.now().Add(15 * time.Minute)) {
		t.Fatalf("expires %v", expires)
	}
	f.advance(14*time.Minute + 59*time.Second)
	got, err := f.store.Preview(f.ctx, previews, token)
	if err != nil || got.Title != "Rascunho novo" {
		t.Fatalf("preview: %+v %v", got, err)
	}
	f.advance(time.Second)
	if _, err := f.store.Preview(f.ctx, previews, token); core.ErrorCode(err) != core.EFORBIDDEN || core.ErrorMessage(err) != content.MsgPreviewExpired {
		t.Fatalf("expired preview: %v", err)
	}

	fresh, _ := previews.Sign(it.ID)
	payload, sig, _ := strings.Cut(fresh, ".")
	other, _ := content.NewPreviews([]byte(strings.Repeat("x", 32)), f.now)
	otherToken, _ := other.Sign(it.ID)
	for name, bad := range map[string]string{
		"no signature":       payload,
		"other secret":       otherToken,
		"tampered payload":   strings.ToUpper(payload[:4]) + payload[4:] + "." + sig,
		"tampered signature": payload + "." + strings.ToUpper(sig),
		"garbage":            "abc.def",
	} {
		if _, err := previews.Verify(bad); core.ErrorCode(err) != core.EFORBIDDEN || core.ErrorMessage(err) != content.MsgPreviewInvalid {
			t.Fatalf("%s: %v", name, err)
		}
	}
}
