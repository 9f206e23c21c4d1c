package content_test

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
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

// Instances starting together on one database agree on one stored secret,
// and it signs links the others verify.
func TestPreviewSecretIsSharedByEveryInstance(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	const instances = 8
	secrets := make([][]byte, instances)
	errs := make([]error, instances)
	var wg sync.WaitGroup
	for i := range instances {
		wg.Go(func() { secrets[i], errs[i] = content.PreviewSecret(ctx, pool) })
	}
	wg.Wait()
	for i := range instances {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if len(secrets[i]) < 32 || !bytes.Equal(secrets[i], secrets[0]) {
			t.Fatalf("instance %d got a %d-byte secret different from the first", i, len(secrets[i]))
		}
	}
	again, err := content.PreviewSecret(ctx, pool)
	if err != nil || !bytes.Equal(again, secrets[0]) {
		t.Fatalf("a later start got another secret (%v)", err)
	}
	signer, err := content.NewPreviews(secrets[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	verifier, err := content.NewPreviews(again, nil)
	if err != nil {
		t.Fatal(err)
	}
	id := uuid.NewString()
	token, _ := signer.Sign(id)
	if got, err := verifier.Verify(token); err != nil || got != id {
		t.Fatalf("verify on another instance: %q %v", got, err)
	}
}
