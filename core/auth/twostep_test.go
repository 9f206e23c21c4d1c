package auth_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/auth"
)

// enrolled signs up email, turns TOTP on from a fresh session and returns
// the secret and the recovery codes.
func (f *fixture) enrolled(t *testing.T, email string) (string, []string) {
	t.Helper()
	ctx := context.Background()
	f.signupConfirmed(t, email, goodPass)
	res, err := f.svc.Login(ctx, email, goodPass, "10.0.0.1", "ua")
	if err != nil || res.Challenge != "" {
		t.Fatalf("login before enrolment: %+v %v", res, err)
	}
	e, err := f.svc.BeginTOTP(ctx, res.User.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(e.QRCode, "data:image/png;base64,") || !strings.Contains(e.OTPAuthURL, "issuer=VetClube") {
		t.Fatalf("enrolment %q %q", e.QRCode[:30], e.OTPAuthURL)
	}
	wantErr(t, errOf(f.svc.ConfirmTOTP(ctx, res.User.ID, res.Tokens.SessionID, "000000")), core.EINVALID, auth.MsgTwoStepBadCode)
	codes, err := f.svc.ConfirmTOTP(ctx, res.User.ID, res.Tokens.SessionID, f.code(t, e.Secret, 0))
	if err != nil {
		t.Fatal(err)
	}
	if len(codes) != auth.RecoveryCodeCount {
		t.Fatalf("%d recovery codes", len(codes))
	}
	// Stored hashed: no row holds a code in plain text.
	var plain int
	if err := f.pool.QueryRow(ctx, `SELECT count(*) FROM recovery_codes WHERE position($1::bytea in code_hash) > 0`, []byte(strings.ReplaceAll(codes[0], "-", ""))).Scan(&plain); err != nil || plain != 0 {
		t.Fatalf("recovery codes in plain text: %d %v", plain, err)
	}
	// The confirming code's step is spent: move to the next one.
	f.clock.Advance(30 * time.Second)
	return e.Secret, codes
}

func errOf[T any](_ T, err error) error { return err }

// code is secret's TOTP at the fixture's time plus skew.
func (f *fixture) code(t *testing.T, secret string, skew time.Duration) string {
	t.Helper()
	c, err := auth.TOTPCode(secret, f.clock.Now().Add(skew))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func (f *fixture) challenge(t *testing.T, email string) string {
	t.Helper()
	res, err := f.svc.Login(context.Background(), email, goodPass, "10.0.0.1", "ua")
	if err != nil {
		t.Fatal(err)
	}
	if res.Challenge == "" || res.Tokens.Access != "" {
		t.Fatalf("a password alone opened a session for a two-step account: %+v", res)
	}
	return res.Challenge
}

func TestTwoStepSignInAsksForTheCodeAndRefusesItsReplay(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	secret, _ := f.enrolled(t, "dois@example.com")

	ch := f.challenge(t, "dois@example.com")
	code := f.code(t, secret, 0)
	res, err := f.svc.VerifyTwoStep(ctx, auth.TwoStepInput{Challenge: ch, Code: code, ClientIP: "10.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	p, ok, err := f.svc.PrincipalForAccessToken(ctx, res.Tokens.Access)
	if err != nil || !ok || !p.TwoStep {
		t.Fatalf("principal %+v %v %v", p, ok, err)
	}
	// The challenge gives one session only.
	wantErr(t, errOf(f.svc.VerifyTwoStep(ctx, auth.TwoStepInput{Challenge: ch, Code: f.code(t, secret, 30*time.Second)})), core.EUNAUTHORIZED, auth.MsgTwoStepExpired)

	// The same code (same 30-second step) is refused on a new challenge...
	f.clock.Advance(11 * time.Second) // past the per-account rate limit window
	ch2 := f.challenge(t, "dois@example.com")
	wantErr(t, errOf(f.svc.VerifyTwoStep(ctx, auth.TwoStepInput{Challenge: ch2, Code: code})), core.EUNAUTHORIZED, auth.MsgTwoStepBadCode)
	// ...and the next step's code works.
	f.clock.Advance(30 * time.Second)
	if _, err := f.svc.VerifyTwoStep(ctx, auth.TwoStepInput{Challenge: ch2, Code: f.code(t, secret, 0)}); err != nil {
		t.Fatalf("next step's code: %v", err)
	}
	// A code sent along with the password passes the same step.
	f.clock.Advance(30 * time.Second)
	res, err = f.svc.LoginWith(ctx, auth.LoginInput{Email: "dois@example.com", Password: goodPass, Code: f.code(t, secret, 0), ClientIP: "10.0.0.1"})
	if err != nil || res.Tokens.Access == "" {
		t.Fatalf("login with code: %+v %v", res, err)
	}
}

func TestTwoStepToleratesOneStepOfClockSkewOnly(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	secret, _ := f.enrolled(t, "skew@example.com")
	for _, c := range []struct {
		skew time.Duration
		ok   bool
	}{{-90 * time.Second, false}, {+90 * time.Second, false}, {-30 * time.Second, true}, {+30 * time.Second, true}} {
		f.clock.Advance(2 * time.Minute) // a fresh step each round, and past the rate limit
		ch := f.challenge(t, "skew@example.com")
		_, err := f.svc.VerifyTwoStep(ctx, auth.TwoStepInput{Challenge: ch, Code: f.code(t, secret, c.skew)})
		if (err == nil) != c.ok {
			t.Errorf("skew %v: err %v, want ok=%v", c.skew, err, c.ok)
		}
	}
}

func TestTwoStepWrongCodesLockTheAccountLikePasswords(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	secret, _ := f.enrolled(t, "forca@example.com")
	ch := f.challenge(t, "forca@example.com")
	for i := 1; i < auth.MaxFailedLogins; i++ {
		f.clock.Advance(4 * time.Second)
		wantErr(t, errOf(f.svc.VerifyTwoStep(ctx, auth.TwoStepInput{Challenge: ch, Code: "123456"})), core.EUNAUTHORIZED, auth.MsgTwoStepBadCode)
	}
	f.clock.Advance(4 * time.Second)
	err := errOf(f.svc.VerifyTwoStep(ctx, auth.TwoStepInput{Challenge: ch, Code: "654321"}))
	if core.ErrorCode(err) != core.ELOCKED {
		t.Fatalf("5th wrong code: %v", err)
	}
	// Locked: neither the password nor a good code gets in.
	f.clock.Advance(30 * time.Second)
	if _, err := f.svc.Login(ctx, "forca@example.com", goodPass, "10.0.0.1", "ua"); core.ErrorCode(err) != core.ELOCKED {
		t.Fatalf("password while locked: %v", err)
	}
	// The challenge itself died with its fifth failure.
	wantErr(t, errOf(f.svc.VerifyTwoStep(ctx, auth.TwoStepInput{Challenge: ch, Code: f.code(t, secret, 0)})), core.EUNAUTHORIZED, auth.MsgTwoStepExpired)
	// After the lockout, it works again.
	f.clock.Advance(auth.LockoutDuration)
	ch = f.challenge(t, "forca@example.com")
	if _, err := f.svc.VerifyTwoStep(ctx, auth.TwoStepInput{Challenge: ch, Code: f.code(t, secret, 0)}); err != nil {
		t.Fatal(err)
	}
}

func TestTwoStepRateLimitsCodes(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	f.enrolled(t, "rapido@example.com")
	ch := f.challenge(t, "rapido@example.com")
	var last error
	for range 4 {
		last = errOf(f.svc.VerifyTwoStep(ctx, auth.TwoStepInput{Challenge: ch, Code: "111111"}))
	}
	wantErr(t, last, core.ERATELIMITED, auth.MsgTwoStepLimited)
}

func TestTwoStepChallengeExpires(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	secret, _ := f.enrolled(t, "tarde@example.com")
	ch := f.challenge(t, "tarde@example.com")
	f.clock.Advance(auth.ChallengeTTL + time.Second)
	wantErr(t, errOf(f.svc.VerifyTwoStep(ctx, auth.TwoStepInput{Challenge: ch, Code: f.code(t, secret, 0)})), core.EUNAUTHORIZED, auth.MsgTwoStepExpired)
	wantErr(t, errOf(f.svc.VerifyTwoStep(ctx, auth.TwoStepInput{Challenge: "", Code: "123456"})), core.EUNAUTHORIZED, auth.MsgTwoStepExpired)
}

func TestRecoveryCodesWorkOnceEach(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	_, codes := f.enrolled(t, "recupera@example.com")
	ch := f.challenge(t, "recupera@example.com")
	if _, err := f.svc.VerifyTwoStep(ctx, auth.TwoStepInput{Challenge: ch, Code: strings.ToUpper(codes[3])}); err != nil {
		t.Fatalf("recovery code: %v", err)
	}
	f.clock.Advance(11 * time.Second)
	ch = f.challenge(t, "recupera@example.com")
	wantErr(t, errOf(f.svc.VerifyTwoStep(ctx, auth.TwoStepInput{Challenge: ch, Code: codes[3]})), core.EUNAUTHORIZED, auth.MsgTwoStepBadCode)
	if _, err := f.svc.VerifyTwoStep(ctx, auth.TwoStepInput{Challenge: ch, Code: codes[4]}); err != nil {
		t.Fatalf("another recovery code: %v", err)
	}
	var id string
	if err := f.pool.QueryRow(ctx, `SELECT id FROM users WHERE email = 'recupera@example.com'`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	st, err := f.svc.TwoStepStatusOf(ctx, id)
	if err != nil || !st.Enabled || st.RecoveryCodesLeft != auth.RecoveryCodeCount-2 {
		t.Fatalf("status %+v %v", st, err)
	}
}

func TestRememberedDeviceSkipsTheCodeFor30Days(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	secret, _ := f.enrolled(t, "lembra@example.com")
	ch := f.challenge(t, "lembra@example.com")
	res, err := f.svc.VerifyTwoStep(ctx, auth.TwoStepInput{Challenge: ch, Code: f.code(t, secret, 0), Remember: true})
	if err != nil || res.TrustedDevice == "" {
		t.Fatalf("%+v %v", res, err)
	}
	in := auth.LoginInput{Email: "lembra@example.com", Password: goodPass, TrustedDevice: res.TrustedDevice, ClientIP: "10.0.0.1"}
	f.clock.Advance(24 * time.Hour)
	again, err := f.svc.LoginWith(ctx, in)
	if err != nil || again.Challenge != "" || again.Tokens.Access == "" {
		t.Fatalf("remembered device: %+v %v", again, err)
	}
	// Another account cannot use it.
	other, _ := f.enrolled(t, "outra@example.com")
	_ = other
	in2 := in
	in2.Email = "outra@example.com"
	if r, err := f.svc.LoginWith(ctx, in2); err != nil || r.Challenge == "" {
		t.Fatalf("another account's device token skipped the code: %+v %v", r, err)
	}
	f.clock.Advance(auth.TrustedDeviceTTL)
	if r, err := f.svc.LoginWith(ctx, in); err != nil || r.Challenge == "" {
		t.Fatalf("device remembered past 30 days: %+v %v", r, err)
	}
}

func TestDisableTwoStepNeedsPasswordAndCode(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	secret, _ := f.enrolled(t, "desliga@example.com")
	var id string
	if err := f.pool.QueryRow(ctx, `SELECT id FROM users WHERE email = 'desliga@example.com'`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	wantErr(t, f.svc.DisableTOTP(ctx, id, "Errada#Senha1", f.code(t, secret, 0)), core.EUNAUTHORIZED, auth.MsgTwoStepBadPass)
	f.clock.Advance(11 * time.Second)
	wantErr(t, f.svc.DisableTOTP(ctx, id, goodPass, "000000"), core.EUNAUTHORIZED, auth.MsgTwoStepBadCode)
	f.clock.Advance(30 * time.Second)
	if err := f.svc.DisableTOTP(ctx, id, goodPass, f.code(t, secret, 0)); err != nil {
		t.Fatal(err)
	}
	res, err := f.svc.Login(ctx, "desliga@example.com", goodPass, "10.0.0.1", "ua")
	if err != nil || res.Challenge != "" {
		t.Fatalf("after disabling: %+v %v", res, err)
	}
	var rows int
	if err := f.pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM user_totp WHERE user_id = $1) + (SELECT count(*) FROM recovery_codes WHERE user_id = $1)`, id).Scan(&rows); err != nil || rows != 0 {
		t.Fatalf("left %d rows (%v)", rows, err)
	}
	wantErr(t, f.svc.DisableTOTP(ctx, id, goodPass, "123456"), core.ECONFLICT, auth.MsgTwoStepNotActive)
	msgs, err := f.box.List(ctx, "desliga@example.com", 100)
	if err != nil {
		t.Fatal(err)
	}
	var subjects []string
	for _, m := range msgs {
		subjects = append(subjects, m.Subject)
	}
	if !slices.Contains(subjects, "Verificação em duas etapas ativada") || !slices.Contains(subjects, "Verificação em duas etapas desativada") {
		t.Fatalf("factor-change notices missing: %q", subjects)
	}
}

func TestStaffRolesWaitForTheSecondStep(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	id, _, err := f.svc.CreateConfirmedUser(ctx, auth.NewUser{Email: "chefe@example.com", Password: goodPass, FirstName: "C", LastName: "S", Roles: []string{core.RoleSuperAdmin, core.RoleEditor}})
	if err != nil {
		t.Fatal(err)
	}
	// Not enrolled: the password opens a session, but without super_admin.
	res, err := f.svc.Login(ctx, "chefe@example.com", goodPass, "10.0.0.1", "ua")
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(res.User.Roles, core.RoleSuperAdmin) || !res.User.TwoStepPending || !slices.Contains(res.User.Roles, core.RoleEditor) {
		t.Fatalf("login user %+v", res.User)
	}
	p, _, err := f.svc.PrincipalForAccessToken(ctx, res.Tokens.Access)
	if err != nil || p.HasRole(core.RoleSuperAdmin) || !p.TwoStepPending {
		t.Fatalf("unverified principal %+v %v", p, err)
	}
	st, err := f.svc.TwoStepStatusOf(ctx, id)
	if err != nil || !st.Required || st.Enabled {
		t.Fatalf("status %+v %v", st, err)
	}
	// Enrolling from that session verifies it: the role is back at once.
	e, err := f.svc.BeginTOTP(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.ConfirmTOTP(ctx, id, res.Tokens.SessionID, f.code(t, e.Secret, 0)); err != nil {
		t.Fatal(err)
	}
	p, _, err = f.svc.PrincipalForAccessToken(ctx, res.Tokens.Access)
	if err != nil || !p.HasRole(core.RoleSuperAdmin) || p.TwoStepPending {
		t.Fatalf("verified principal %+v %v", p, err)
	}
	// A second enrolment is refused while one is on.
	wantErr(t, errOf(f.svc.BeginTOTP(ctx, id)), core.ECONFLICT, auth.MsgTwoStepActive)
}
