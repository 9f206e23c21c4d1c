package auth_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fxamacker/cbor/v2"
	"github.com/google/uuid"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/auth"
)

// softKey is a software authenticator holding one discoverable ES256
// credential: it builds real CBOR attestation objects with a COSE public key
// and signs assertions with its private key, as a platform authenticator
// does, so the service's checks run on genuine cryptography.
type softKey struct {
	priv       *ecdsa.PrivateKey
	credID     []byte
	userHandle []byte
	counter    uint32
	origin     string
	rpID       string
	// noUV leaves the user-verified flag out (an authenticator without PIN or biometrics).
	noUV bool
}

const (
	flagUP = 0x01
	flagUV = 0x04
	flagAT = 0x40
)

var b64 = base64.RawURLEncoding

func newSoftKey(t *testing.T) *softKey {
	t.Helper()
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	id := make([]byte, 32)
	_, _ = rand.Read(id)
	return &softKey{priv: priv, credID: id, origin: "http://localhost:8080", rpID: "localhost"}
}

func (k *softKey) flags() byte {
	f := byte(flagUP)
	if !k.noUV {
		f |= flagUV
	}
	return f
}

// authData is rpIdHash | flags | counter, plus the attested credential when given.
func (k *softKey) authData(flags byte, attested []byte) []byte {
	h := sha256.Sum256([]byte(k.rpID))
	out := append([]byte{}, h[:]...)
	out = append(out, flags)
	out = binary.BigEndian.AppendUint32(out, k.counter)
	return append(out, attested...)
}

func (k *softKey) clientData(typ, challenge string) []byte {
	b, _ := json.Marshal(map[string]any{"type": typ, "challenge": challenge, "origin": k.origin, "crossOrigin": false})
	return b
}

// publicKey options → challenge (base64url), as a browser reads them.
func challengeOf(t *testing.T, c auth.PasskeyCeremony) (string, map[string]any) {
	t.Helper()
	raw, err := json.Marshal(c.Options)
	if err != nil {
		t.Fatal(err)
	}
	var opts struct {
		PublicKey map[string]any `json:"publicKey"`
	}
	if err := json.Unmarshal(raw, &opts); err != nil {
		t.Fatal(err)
	}
	ch, _ := opts.PublicKey["challenge"].(string)
	if ch == "" {
		t.Fatalf("no challenge in %s", raw)
	}
	return ch, opts.PublicKey
}

// create answers a registration ceremony (navigator.credentials.create).
func (k *softKey) create(t *testing.T, c auth.PasskeyCeremony) []byte {
	t.Helper()
	ch, pk := challengeOf(t, c)
	// A sign-in's options name no user: the answer is built all the same.
	if user, ok := pk["user"].(map[string]any); ok {
		handle, err := b64.DecodeString(user["id"].(string))
		if err != nil {
			t.Fatalf("user id %v: %v", user["id"], err)
		}
		k.userHandle = handle
	}
	cose, err := cbor.Marshal(map[int]any{1: 2, 3: -7, -1: 1, -2: k.priv.X.FillBytes(make([]byte, 32)), -3: k.priv.Y.FillBytes(make([]byte, 32))})
	if err != nil {
		t.Fatal(err)
	}
	attested := make([]byte, 16) // AAGUID: zeros
	attested = binary.BigEndian.AppendUint16(attested, uint16(len(k.credID)))
	attested = append(attested, k.credID...)
	attested = append(attested, cose...)
	att, err := cbor.Marshal(map[string]any{"fmt": "none", "attStmt": map[string]any{}, "authData": k.authData(k.flags()|flagAT, attested)})
	if err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(map[string]any{
		"id": b64.EncodeToString(k.credID), "rawId": b64.EncodeToString(k.credID), "type": "public-key",
		"authenticatorAttachment": "platform", "clientExtensionResults": map[string]any{},
		"response": map[string]any{
			"clientDataJSON":    b64.EncodeToString(k.clientData("webauthn.create", ch)),
			"attestationObject": b64.EncodeToString(att),
			"transports":        []string{"internal"},
		},
	})
	return body
}

// get answers a sign-in ceremony (navigator.credentials.get), counting up.
func (k *softKey) get(t *testing.T, c auth.PasskeyCeremony) []byte {
	t.Helper()
	ch, _ := challengeOf(t, c)
	k.counter++
	ad := k.authData(k.flags(), nil)
	cd := k.clientData("webauthn.get", ch)
	h := sha256.Sum256(cd)
	digest := sha256.Sum256(append(append([]byte{}, ad...), h[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, k.priv, digest[:])
	if err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(map[string]any{
		"id": b64.EncodeToString(k.credID), "rawId": b64.EncodeToString(k.credID), "type": "public-key",
		"authenticatorAttachment": "platform", "clientExtensionResults": map[string]any{},
		"response": map[string]any{
			"clientDataJSON":    b64.EncodeToString(cd),
			"authenticatorData": b64.EncodeToString(ad),
			"signature":         b64.EncodeToString(sig),
			"userHandle":        b64.EncodeToString(k.userHandle),
		},
	})
	return body
}

// passkeyFixture serves passkeys as a development server on 127.0.0.1
// does (relying party "localhost").
func passkeyFixture(t *testing.T) *fixture {
	return newFixture(t, func(o *auth.Options) { o.PublicURL = "http://127.0.0.1:8080" })
}

// addPasskey registers k for userID under name.
func (f *fixture) addPasskey(t *testing.T, userID string, k *softKey, name string) auth.Passkey {
	t.Helper()
	ctx := context.Background()
	c, err := f.svc.BeginPasskeyRegistration(ctx, userID)
	if err != nil {
		t.Fatal(err)
	}
	p, err := f.svc.FinishPasskeyRegistration(ctx, userID, c.Ceremony, name, k.create(t, c))
	if err != nil {
		t.Fatalf("finish registration: %v", err)
	}
	return p
}

func (f *fixture) passkeyLogin(t *testing.T, k *softKey) (auth.LoginResult, error) {
	t.Helper()
	ctx := context.Background()
	c, err := f.svc.BeginPasskeyLogin(ctx, "10.0.0.9")
	if err != nil {
		t.Fatal(err)
	}
	return f.svc.LoginWithPasskey(ctx, auth.PasskeyLoginInput{Ceremony: c.Ceremony, Response: k.get(t, c), ClientIP: "10.0.0.9", UserAgent: "Passkey Browser"})
}

func TestPasskeyRegistrationAndSignInWithASoftwareAuthenticator(t *testing.T) {
	f := passkeyFixture(t)
	ctx := context.Background()
	id, _, err := f.svc.CreateConfirmedUser(ctx, auth.NewUser{Email: "chefe@example.com", Password: goodPass, FirstName: "Clara", LastName: "S", Roles: []string{core.RoleSuperAdmin}})
	if err != nil {
		t.Fatal(err)
	}
	k := newSoftKey(t)
	c, err := f.svc.BeginPasskeyRegistration(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	_, pk := challengeOf(t, c)
	sel, _ := pk["authenticatorSelection"].(map[string]any)
	if sel["residentKey"] != "required" || sel["userVerification"] != "required" || pk["rp"].(map[string]any)["id"] != "localhost" {
		t.Fatalf("creation options %v", pk)
	}
	if _, err := f.svc.FinishPasskeyRegistration(ctx, id, c.Ceremony, "Celular", k.create(t, c)); err != nil {
		t.Fatal(err)
	}
	// The ceremony is spent: the same answer again is refused.
	wantErr(t, errOf(f.svc.FinishPasskeyRegistration(ctx, id, c.Ceremony, "De novo", k.create(t, c))), core.ECONFLICT, auth.MsgPasskeyExpired)
	k2 := newSoftKey(t)
	f.clock.Advance(11 * time.Second)
	f.addPasskey(t, id, k2, "Notebook")
	list, err := f.svc.Passkeys(ctx, id)
	if err != nil || len(list) != 2 || list[0].Name != "Celular" || list[1].Name != "Notebook" || list[0].LastUsedAt != nil {
		t.Fatalf("list %+v %v", list, err)
	}
	if n := f.mailCountSubject(t, "chefe@example.com", "Passkey adicionada à sua conta"); n != 2 {
		t.Fatalf("%d passkey notices", n)
	}

	// Signing in with it: no password, and the staff role is not held back.
	res, err := f.passkeyLogin(t, k)
	if err != nil {
		t.Fatal(err)
	}
	if res.User.ID != id || res.User.TwoStepPending || !slices.Contains(res.User.Roles, core.RoleSuperAdmin) {
		t.Fatalf("passkey sign-in user %+v", res.User)
	}
	p, _, err := f.svc.PrincipalForAccessToken(ctx, res.Tokens.Access)
	if err != nil || !p.HasRole(core.RoleSuperAdmin) || p.TwoStepPending {
		t.Fatalf("principal %+v %v", p, err)
	}
	if res, err := f.passkeyLogin(t, k2); err != nil || res.User.ID != id {
		t.Fatalf("second passkey: %+v %v", res.User, err)
	}
	list, _ = f.svc.Passkeys(ctx, id)
	if list[0].LastUsedAt == nil {
		t.Fatalf("last use not kept: %+v", list[0])
	}
}

func TestPasskeyCeremonyIsSingleUseAndExpires(t *testing.T) {
	f := passkeyFixture(t)
	ctx := context.Background()
	f.signupConfirmed(t, "ana@example.com", goodPass)
	id := f.userID(t, "ana@example.com")
	k := newSoftKey(t)
	f.addPasskey(t, id, k, "Celular")

	c, err := f.svc.BeginPasskeyLogin(ctx, "10.0.0.9")
	if err != nil {
		t.Fatal(err)
	}
	answer := k.get(t, c)
	if _, err := f.svc.LoginWithPasskey(ctx, auth.PasskeyLoginInput{Ceremony: c.Ceremony, Response: answer}); err != nil {
		t.Fatal(err)
	}
	// A replayed answer finds no challenge.
	wantErr(t, errOf(f.svc.LoginWithPasskey(ctx, auth.PasskeyLoginInput{Ceremony: c.Ceremony, Response: answer})), core.ECONFLICT, auth.MsgPasskeyExpired)

	// A challenge answered after CeremonyTTL is refused (and spent).
	c, err = f.svc.BeginPasskeyLogin(ctx, "10.0.0.9")
	if err != nil {
		t.Fatal(err)
	}
	f.clock.Advance(auth.CeremonyTTL + time.Second)
	wantErr(t, errOf(f.svc.LoginWithPasskey(ctx, auth.PasskeyLoginInput{Ceremony: c.Ceremony, Response: k.get(t, c)})), core.ECONFLICT, auth.MsgPasskeyExpired)
	// A registration ceremony cannot be answered by another member.
	f.signupConfirmed(t, "bia@example.com", goodPass)
	other := f.userID(t, "bia@example.com")
	reg, err := f.svc.BeginPasskeyRegistration(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	wantErr(t, errOf(f.svc.FinishPasskeyRegistration(ctx, other, reg.Ceremony, "Minha", newSoftKey(t).create(t, reg))), core.ECONFLICT, auth.MsgPasskeyExpired)
	// Nor a sign-in's token used as a registration's.
	c, _ = f.svc.BeginPasskeyLogin(ctx, "10.0.0.9")
	wantErr(t, errOf(f.svc.FinishPasskeyRegistration(ctx, id, c.Ceremony, "Minha", newSoftKey(t).create(t, c))), core.ECONFLICT, auth.MsgPasskeyExpired)
}

func TestPasskeyRefusesClonesForgeriesAndUnverifiedUsers(t *testing.T) {
	f := passkeyFixture(t)
	ctx := context.Background()
	f.signupConfirmed(t, "ana@example.com", goodPass)
	id := f.userID(t, "ana@example.com")
	k := newSoftKey(t)
	f.addPasskey(t, id, k, "Celular")
	k.counter = 10
	if _, err := f.passkeyLogin(t, k); err != nil { // counter 11
		t.Fatal(err)
	}
	// A copy of the key whose counter is behind the stored one.
	k.counter = 4
	wantErr(t, errOf(f.passkeyLogin(t, k)), core.EUNAUTHORIZED, auth.MsgPasskeyCloned)
	k.counter = 10 // 11 again: equal is refused too
	wantErr(t, errOf(f.passkeyLogin(t, k)), core.EUNAUTHORIZED, auth.MsgPasskeyCloned)
	k.counter = 20
	if _, err := f.passkeyLogin(t, k); err != nil {
		t.Fatalf("counter moving on: %v", err)
	}

	// Another key claiming this credential id: the signature does not verify.
	forger := newSoftKey(t)
	forger.credID, forger.userHandle, forger.counter = k.credID, k.userHandle, 100
	wantErr(t, errOf(f.passkeyLogin(t, forger)), core.EUNAUTHORIZED, auth.MsgPasskeyInvalid)
	// Another site's page (origin) cannot use the answer.
	evil := *k
	evil.origin = "http://evil.example"
	wantErr(t, errOf(f.passkeyLogin(t, &evil)), core.EUNAUTHORIZED, auth.MsgPasskeyInvalid)
	// An authenticator that did not verify the member is refused.
	nouv := *k
	nouv.noUV = true
	nouv.counter = 50
	wantErr(t, errOf(f.passkeyLogin(t, &nouv)), core.EUNAUTHORIZED, auth.MsgPasskeyInvalid)
	// A user handle naming another account.
	f.signupConfirmed(t, "bia@example.com", goodPass)
	other := uuid.MustParse(f.userID(t, "bia@example.com"))
	swapped := *k
	swapped.userHandle = other[:]
	swapped.counter = 60
	wantErr(t, errOf(f.passkeyLogin(t, &swapped)), core.EUNAUTHORIZED, auth.MsgPasskeyUnknown)
	// Garbage in place of a credential.
	c, _ := f.svc.BeginPasskeyLogin(ctx, "10.0.0.9")
	wantErr(t, errOf(f.svc.LoginWithPasskey(ctx, auth.PasskeyLoginInput{Ceremony: c.Ceremony, Response: []byte(`{"id":"<script>","type":"public-key"}`)})), core.EINVALID, auth.MsgPasskeyInvalid)
	wantErr(t, errOf(f.svc.LoginWithPasskey(ctx, auth.PasskeyLoginInput{Ceremony: "", Response: []byte(`{}`)})), core.ECONFLICT, auth.MsgPasskeyExpired)
	// Registering the same authenticator twice.
	reg, _ := f.svc.BeginPasskeyRegistration(ctx, id)
	var opts struct {
		PublicKey struct {
			ExcludeCredentials []map[string]any `json:"excludeCredentials"`
		} `json:"publicKey"`
	}
	raw, _ := json.Marshal(reg.Options)
	_ = json.Unmarshal(raw, &opts)
	if len(opts.PublicKey.ExcludeCredentials) != 1 {
		t.Fatalf("exclusions %s", raw)
	}
	wantErr(t, errOf(f.svc.FinishPasskeyRegistration(ctx, id, reg.Ceremony, "Cópia", k.create(t, reg))), core.ECONFLICT, auth.MsgPasskeyDuplicate)
}

func TestPasskeyRenameAndRemoveAreTheOwnersOnly(t *testing.T) {
	f := passkeyFixture(t)
	ctx := context.Background()
	f.signupConfirmed(t, "ana@example.com", goodPass)
	f.signupConfirmed(t, "bia@example.com", goodPass)
	ana, bia := f.userID(t, "ana@example.com"), f.userID(t, "bia@example.com")
	k := newSoftKey(t)
	p := f.addPasskey(t, ana, k, "Celular")
	wantErr(t, f.svc.RenamePasskey(ctx, bia, p.ID, "Meu"), core.ENOTFOUND, auth.MsgPasskeyNotFound)
	wantErr(t, f.svc.RemovePasskey(ctx, bia, p.ID), core.ENOTFOUND, auth.MsgPasskeyNotFound)
	wantErr(t, f.svc.RemovePasskey(ctx, ana, "'; DROP TABLE passkeys; --"), core.ENOTFOUND, auth.MsgPasskeyNotFound)
	wantErr(t, f.svc.RenamePasskey(ctx, ana, p.ID, "   "), core.EINVALID, auth.MsgPasskeyBadName)
	wantErr(t, f.svc.RenamePasskey(ctx, ana, p.ID, strings.Repeat("a", 61)), core.EINVALID, auth.MsgPasskeyBadName)
	wantErr(t, f.svc.RenamePasskey(ctx, ana, p.ID, "a\x00b"), core.EINVALID, auth.MsgPasskeyBadName)
	if err := f.svc.RenamePasskey(ctx, ana, p.ID, "  iPhone da Ana  "); err != nil {
		t.Fatal(err)
	}
	if list, _ := f.svc.Passkeys(ctx, ana); len(list) != 1 || list[0].Name != "iPhone da Ana" {
		t.Fatalf("after rename %+v", list)
	}
	if list, _ := f.svc.Passkeys(ctx, bia); len(list) != 0 {
		t.Fatalf("bia sees %+v", list)
	}
	if err := f.svc.RemovePasskey(ctx, ana, p.ID); err != nil {
		t.Fatal(err)
	}
	if n := f.mailCountSubject(t, "ana@example.com", "Passkey removida da sua conta"); n != 1 {
		t.Fatalf("%d removal notices", n)
	}
	// A removed passkey no longer signs in.
	wantErr(t, errOf(f.passkeyLogin(t, k)), core.EUNAUTHORIZED, auth.MsgPasskeyUnknown)
}
