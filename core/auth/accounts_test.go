package auth_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/auth"
	"github.com/vetclube/vetclube/core/auth/password"
	"github.com/vetclube/vetclube/core/ratelimit"
)

const goodPass = "Boa#Senha2026"

func TestSignupRefusesEachPasswordReason(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	cases := map[string]string{
		"Ab1#":           password.ReasonTooShort,
		"semmaiuscula1#": password.ReasonNoUpper,
		"SEMMINUSCULA1#": password.ReasonNoLower,
		"SemNumero#":     password.ReasonNoDigit,
		"SemSimbolo1":    password.ReasonNoSymbol,
		"Xmarianax#1":    password.ReasonHasEmailLocal,
	}
	for pass, reason := range cases {
		err := f.svc.Signup(ctx, auth.SignupInput{FirstName: "M", LastName: "S", Email: "mariana@example.com", Password: pass}, "ip")
		wantErr(t, err, core.EINVALID, "Senha inválida: "+reason)
		var e *core.Error
		if errors.As(err, &e) && e.Fields["password"] != "Senha inválida: "+reason {
			t.Errorf("fields %v", e.Fields)
		}
	}
	var n int
	_ = f.pool.QueryRow(ctx, "SELECT count(*) FROM users").Scan(&n)
	if n != 0 {
		t.Errorf("%d accounts created by refused sign-ups", n)
	}
}

func TestSignupStoresNormalisedEmailMetadataAndReferral(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	err := f.svc.Signup(ctx, auth.SignupInput{FirstName: " Ana ", LastName: "Souza", Email: "  Ana.Souza@Example.COM ",
		Password: goodPass, ReferralCode: " VET123 "}, "ip")
	if err != nil {
		t.Fatal(err)
	}
	var email, ref, first, last string
	var hash string
	var confirmed *time.Time
	err = f.pool.QueryRow(ctx, `SELECT email, referral_code, metadata->>'first_name', metadata->>'last_name', password_hash, email_confirmed_at FROM users`).
		Scan(&email, &ref, &first, &last, &hash, &confirmed)
	if err != nil {
		t.Fatal(err)
	}
	if email != "ana.souza@example.com" || ref != "VET123" || first != "Ana" || last != "Souza" || confirmed != nil {
		t.Errorf("stored %q %q %q %q confirmed=%v", email, ref, first, last, confirmed)
	}
	if ok, _ := password.Verify(goodPass, hash); !ok || contains(hash, goodPass) {
		t.Error("password not stored as a verifiable argon2id hash")
	}
	if f.mailCount(t, "ana.souza@example.com") != 1 {
		t.Error("no confirmation email")
	}
	// Other fields are checked after the password, each with a pt-BR reason.
	err = f.svc.Signup(ctx, auth.SignupInput{Email: "not-an-email", Password: goodPass}, "ip")
	var e *core.Error
	if !errors.As(err, &e) || e.Fields["email"] == "" || e.Fields["first_name"] == "" || e.Fields["last_name"] == "" {
		t.Errorf("invalid fields not reported: %v", err)
	}
}

func TestSignupSameEmailRaceCreatesOneAccount(t *testing.T) {
	f := newFixture(t, func(o *auth.Options) {
		o.SignupPerEmail = ratelimit.Rule{Max: 100, Window: time.Minute}
		o.SignupPerIP = ratelimit.Rule{Max: 100, Window: time.Minute}
	})
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make([]error, 12)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			email := []string{"dup@example.com", " DUP@example.com", "Dup@Example.com  "}[i%3]
			errs[i] = f.svc.Signup(ctx, auth.SignupInput{FirstName: "D", LastName: "U", Email: email, Password: goodPass}, "ip")
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Errorf("sign-up answered %v, want the same success for every attempt", err)
		}
	}
	var n int
	_ = f.pool.QueryRow(ctx, "SELECT count(*) FROM users").Scan(&n)
	if n != 1 {
		t.Errorf("%d accounts for one email", n)
	}
	f.drain(t)
	msgs, err := f.box.List(ctx, "dup@example.com", 100)
	if err != nil {
		t.Fatal(err)
	}
	confirmations := 0
	for _, m := range msgs {
		if m.Subject == "Confirme seu email no VetClube" {
			confirmations++
		}
	}
	// The others are told the address already has an account.
	if confirmations != 1 || len(msgs) != 12 {
		t.Errorf("%d confirmation emails of %d, want 1 of 12", confirmations, len(msgs))
	}
}

func TestSignupRateLimitPerEmailAndWindow(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	in := auth.SignupInput{FirstName: "R", LastName: "L", Email: "rl@example.com", Password: goodPass}
	for i := 1; i <= 2; i++ {
		if err := f.svc.Signup(ctx, in, "ip"); err != nil {
			t.Fatalf("attempt %d: %v", i, err)
		}
	}
	wantErr(t, f.svc.Signup(ctx, in, "ip"), core.ERATELIMITED, auth.MsgSignupLimited)
	// Another email is not affected; the next 60 000 ms window is free again.
	if err := f.svc.Signup(ctx, auth.SignupInput{FirstName: "R", LastName: "L", Email: "other@example.com", Password: goodPass}, "ip"); err != nil {
		t.Fatal(err)
	}
	f.clock.Advance(60 * time.Second)
	if err := f.svc.Signup(ctx, in, "ip"); err != nil {
		t.Fatalf("next window: %v", err)
	}
}

func TestSignupRateLimitPerIP(t *testing.T) {
	f := newFixture(t, func(o *auth.Options) { o.SignupPerIP = ratelimit.Rule{Max: 3, Window: time.Minute} })
	ctx := context.Background()
	for i := range 3 {
		if err := f.svc.Signup(ctx, auth.SignupInput{FirstName: "I", LastName: "P", Email: fmt.Sprintf("ip%d@example.com", i), Password: goodPass}, "192.0.2.7"); err != nil {
			t.Fatal(err)
		}
	}
	wantErr(t, f.svc.Signup(ctx, auth.SignupInput{FirstName: "I", LastName: "P", Email: "ip9@example.com", Password: goodPass}, "192.0.2.7"),
		core.ERATELIMITED, auth.MsgSignupLimited)
	if err := f.svc.Signup(ctx, auth.SignupInput{FirstName: "I", LastName: "P", Email: "ip9@example.com", Password: goodPass}, "192.0.2.8"); err != nil {
		t.Errorf("another IP limited: %v", err)
	}
}

func TestConfirmationSingleUseAndExpiry(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	var confirmedHooks []string
	f.svc.AddEmailConfirmedHook(func(_ context.Context, id string) error {
		confirmedHooks = append(confirmedHooks, id)
		return nil
	})
	if err := f.svc.Signup(ctx, auth.SignupInput{FirstName: "C", LastName: "F", Email: "conf@example.com", Password: goodPass}, "ip"); err != nil {
		t.Fatal(err)
	}
	_, err := f.svc.Login(ctx, "conf@example.com", goodPass, "ip", "ua")
	wantErr(t, err, core.EFORBIDDEN, auth.MsgNotConfirmed)

	token := f.lastToken(t, "conf@example.com", "/confirmar-email")
	if err := f.svc.Confirm(ctx, token); err != nil {
		t.Fatal(err)
	}
	wantErr(t, f.svc.Confirm(ctx, token), core.EINVALID, auth.MsgConfirmInvalid)
	if len(confirmedHooks) != 1 {
		t.Errorf("email-confirmed hook ran %d times, want 1", len(confirmedHooks))
	}
	f.clock.Advance(11 * time.Second) // past the sign-in rate-limit window
	if _, err := f.svc.Login(ctx, "conf@example.com", goodPass, "ip", "ua"); err != nil {
		t.Fatalf("login after confirming: %v", err)
	}

	// A link older than 24 h is refused.
	if err := f.svc.Signup(ctx, auth.SignupInput{FirstName: "C", LastName: "F", Email: "late@example.com", Password: goodPass}, "ip"); err != nil {
		t.Fatal(err)
	}
	late := f.lastToken(t, "late@example.com", "/confirmar-email")
	f.clock.Advance(24*time.Hour + time.Second)
	wantErr(t, f.svc.Confirm(ctx, late), core.EINVALID, auth.MsgConfirmInvalid)
	// Resending gives a fresh link that works.
	if err := f.svc.ResendConfirmation(ctx, " LATE@example.com"); err != nil {
		t.Fatal(err)
	}
	fresh := f.lastToken(t, "late@example.com", "/confirmar-email")
	if fresh == late {
		t.Fatal("resend reused the expired token")
	}
	if err := f.svc.Confirm(ctx, fresh); err != nil {
		t.Fatalf("fresh link: %v", err)
	}
	// Resend to an unknown or confirmed address sends nothing and does not fail.
	if err := f.svc.ResendConfirmation(ctx, "nobody@example.com"); err != nil {
		t.Fatal(err)
	}
	if f.mailCount(t, "nobody@example.com") != 0 {
		t.Error("mail sent to an unknown address")
	}
}

func TestLoginLockoutOrderAndReset(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	f.signupConfirmed(t, "lock@example.com", goodPass)
	window := 10 * time.Second

	// Four failures (two windows, as the rate limit allows 3 per 10 s).
	for i := 1; i <= 4; i++ {
		if i == 4 {
			f.clock.Advance(window)
		}
		_, err := f.svc.Login(ctx, "lock@example.com", "Errada#123", "ip", "ua")
		wantErr(t, err, core.EUNAUTHORIZED, auth.MsgBadCredentials)
	}
	// A success resets the count: four more failures do not lock.
	f.clock.Advance(window)
	if _, err := f.svc.Login(ctx, "lock@example.com", goodPass, "ip", "ua"); err != nil {
		t.Fatalf("correct password: %v", err)
	}
	var count int
	_ = f.pool.QueryRow(ctx, "SELECT failed_login_count FROM users").Scan(&count)
	if count != 0 {
		t.Fatalf("failed count %d after success", count)
	}
	fail := func(n int) error {
		var err error
		for i := 0; i < n; i++ {
			f.clock.Advance(window)
			_, err = f.svc.Login(ctx, "lock@example.com", "Errada#123", "ip", "ua")
		}
		return err
	}
	wantErr(t, fail(4), core.EUNAUTHORIZED, auth.MsgBadCredentials)
	// The fifth consecutive failure locks the account for 30 minutes; the
	// time is shown as HH:mm in São Paulo (UTC-3).
	now := f.clock.Now()
	wantLocked := fmt.Sprintf(auth.MsgLockedFmt, now.Add(30*time.Minute).In(time.FixedZone("BRT", -3*3600)).Format("15:04"))
	wantErr(t, fail(1), core.ELOCKED, wantLocked)
	if wantLocked != "Conta bloqueada devido a muitas tentativas de login falhadas. Tente novamente após 09:31." {
		t.Errorf("lockout message %q", wantLocked)
	}
	// Lockout is checked before the rate limit and the password: even the
	// right password, many times in one window, gets the lockout (not 429).
	for range 5 {
		_, err := f.svc.Login(ctx, "lock@example.com", goodPass, "ip", "ua")
		wantErr(t, err, core.ELOCKED, wantLocked)
	}
	f.clock.Advance(29 * time.Minute)
	_, err := f.svc.Login(ctx, "lock@example.com", goodPass, "ip", "ua")
	wantErr(t, err, core.ELOCKED, wantLocked)
	f.clock.Advance(time.Minute)
	if _, err := f.svc.Login(ctx, "lock@example.com", goodPass, "ip", "ua"); err != nil {
		t.Fatalf("after 30 minutes: %v", err)
	}
	var locked *time.Time
	_ = f.pool.QueryRow(ctx, "SELECT failed_login_count, locked_until FROM users").Scan(&count, &locked)
	if count != 0 || locked != nil {
		t.Errorf("after success: count %d locked_until %v", count, locked)
	}
}

func TestLoginRateLimitBeforePassword(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	f.signupConfirmed(t, "rate@example.com", goodPass)
	for i := 1; i <= 3; i++ {
		if _, err := f.svc.Login(ctx, "RATE@example.com ", goodPass, "ip", "ua"); err != nil {
			t.Fatalf("attempt %d: %v", i, err)
		}
	}
	// The 4th attempt in 10 000 ms is refused before the password is checked.
	_, err := f.svc.Login(ctx, "rate@example.com", goodPass, "ip", "ua")
	wantErr(t, err, core.ERATELIMITED, auth.MsgLoginLimited)
	// Rate-limited attempts are not failures: no lockout progress.
	var count int
	_ = f.pool.QueryRow(ctx, "SELECT failed_login_count FROM users").Scan(&count)
	if count != 0 {
		t.Errorf("failed count %d", count)
	}
	// Unknown emails are limited the same way (no enumeration by the limit).
	for range 3 {
		_, err := f.svc.Login(ctx, "ghost@example.com", goodPass, "ip", "ua")
		wantErr(t, err, core.EUNAUTHORIZED, auth.MsgBadCredentials)
	}
	_, err = f.svc.Login(ctx, "ghost@example.com", goodPass, "ip", "ua")
	wantErr(t, err, core.ERATELIMITED, auth.MsgLoginLimited)
	f.clock.Advance(10 * time.Second)
	if _, err := f.svc.Login(ctx, "rate@example.com", goodPass, "ip", "ua"); err != nil {
		t.Fatalf("next window: %v", err)
	}
}

func TestLoginRateLimitPerIP(t *testing.T) {
	f := newFixture(t, func(o *auth.Options) { o.LoginPerIP = ratelimit.Rule{Max: 4, Window: time.Minute} })
	ctx := context.Background()
	for i := range 4 {
		_, err := f.svc.Login(ctx, fmt.Sprintf("u%d@example.com", i), goodPass, "198.51.100.1", "ua")
		wantErr(t, err, core.EUNAUTHORIZED, auth.MsgBadCredentials)
	}
	_, err := f.svc.Login(ctx, "u9@example.com", goodPass, "198.51.100.1", "ua")
	wantErr(t, err, core.ERATELIMITED, auth.MsgLoginLimited)
}

func TestRefreshRotationAndReuseDetection(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	f.signupConfirmed(t, "rot@example.com", goodPass)
	res, err := f.svc.Login(ctx, "rot@example.com", goodPass, "ip", "ua")
	if err != nil {
		t.Fatal(err)
	}
	first := res.Tokens
	f.clock.Advance(time.Minute)
	u, second, err := f.svc.Refresh(ctx, first.Refresh)
	if err != nil {
		t.Fatal(err)
	}
	if u.Email != "rot@example.com" || second.Refresh == first.Refresh || second.Access == first.Access || second.SessionID != first.SessionID {
		t.Fatalf("rotation gave %+v", second)
	}
	// The old access token died with the rotation; the new one works.
	if _, ok, _ := f.svc.PrincipalForAccessToken(ctx, first.Access); ok {
		t.Error("old access token still valid")
	}
	if p, ok, _ := f.svc.PrincipalForAccessToken(ctx, second.Access); !ok || p.UserID != u.ID || p.SessionID != first.SessionID {
		t.Error("new access token not valid")
	}
	// Tokens are stored hashed, never in plain text.
	var plain int
	_ = f.pool.QueryRow(ctx, `SELECT count(*) FROM session_tokens WHERE token_hash = convert_to($1, 'UTF8') OR encode(token_hash, 'escape') LIKE '%' || $1 || '%'`, second.Refresh).Scan(&plain)
	if plain != 0 {
		t.Error("a token is stored in plain text")
	}
	// Presenting the spent token again, after the grace period, revokes the
	// whole family: the newest refresh and access tokens stop working too.
	f.clock.Advance(11 * time.Second)
	if _, _, err := f.svc.Refresh(ctx, first.Refresh); core.ErrorCode(err) != core.EUNAUTHORIZED {
		t.Fatalf("reuse answered %v", err)
	}
	if _, _, err := f.svc.Refresh(ctx, second.Refresh); core.ErrorCode(err) != core.EUNAUTHORIZED {
		t.Errorf("family member still refreshes after reuse: %v", err)
	}
	if _, ok, _ := f.svc.PrincipalForAccessToken(ctx, second.Access); ok {
		t.Error("access token of the revoked family still valid")
	}
	// Other sessions of the user are untouched.
	f.clock.Advance(11 * time.Second)
	other, err := f.svc.Login(ctx, "rot@example.com", goodPass, "ip", "ua")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.svc.Refresh(ctx, other.Tokens.Refresh); err != nil {
		t.Errorf("another session: %v", err)
	}
}

func TestRefreshGraceDoesNotRevoke(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	f.signupConfirmed(t, "tabs@example.com", goodPass)
	res, err := f.svc.Login(ctx, "tabs@example.com", goodPass, "ip", "ua")
	if err != nil {
		t.Fatal(err)
	}
	_, next, err := f.svc.Refresh(ctx, res.Tokens.Refresh)
	if err != nil {
		t.Fatal(err)
	}
	// A second tab refreshing with the same token at the same moment gets
	// no new tokens, and the session survives.
	f.clock.Advance(2 * time.Second)
	_, none, err := f.svc.Refresh(ctx, res.Tokens.Refresh)
	if err == nil || none.Refresh != "" {
		t.Fatalf("second refresh in the grace period rotated again: %v", err)
	}
	if _, ok, _ := f.svc.PrincipalForAccessToken(ctx, next.Access); !ok {
		t.Error("the session was revoked within the grace period")
	}
}

func TestAccessTokenExpiresIntoVisitor(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	f.signupConfirmed(t, "exp@example.com", goodPass)
	res, err := f.svc.Login(ctx, "exp@example.com", goodPass, "ip", "ua")
	if err != nil {
		t.Fatal(err)
	}
	f.clock.Advance(14 * time.Minute)
	if _, ok, _ := f.svc.PrincipalForAccessToken(ctx, res.Tokens.Access); !ok {
		t.Fatal("access token expired early")
	}
	f.clock.Advance(time.Minute + time.Second)
	p, ok, err := f.svc.PrincipalForAccessToken(ctx, res.Tokens.Access)
	if ok || err != nil || p.Authenticated() {
		t.Errorf("expired token: %+v %v %v", p, ok, err)
	}
	// The refresh token still works (30 days).
	if _, _, err := f.svc.Refresh(ctx, res.Tokens.Refresh); err != nil {
		t.Errorf("refresh after access expiry: %v", err)
	}
}

func TestRoleSources(t *testing.T) {
	f := newFixture(t, func(o *auth.Options) {
		o.RoleSources = []auth.RoleSource{func(_ context.Context, userID string) ([]string, time.Time, error) {
			return []string{core.RoleTrial}, time.Time{}, nil
		}}
	})
	ctx := context.Background()
	id, created, err := f.svc.CreateConfirmedUser(ctx, auth.NewUser{Email: "roles@example.com", Password: goodPass, Roles: []string{core.RoleEditor}})
	if err != nil || !created {
		t.Fatal(err)
	}
	f.svc.AddRoleSource(func(_ context.Context, userID string) ([]string, time.Time, error) {
		if userID != id {
			return nil, time.Time{}, errors.New("wrong user")
		}
		return []string{core.RolePremium, core.RoleTrial}, time.Time{}, nil
	})
	tok, err := f.svc.StartSession(ctx, id, "ua")
	if err != nil {
		t.Fatal(err)
	}
	p, ok, err := f.svc.PrincipalForAccessToken(ctx, tok.Access)
	if !ok || err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Roles, []string{"user", "editor", "premium", "trial"}) {
		t.Errorf("roles %v", p.Roles)
	}
	// A failing source costs only its own roles.
	f.svc.AddRoleSource(func(context.Context, string) ([]string, time.Time, error) {
		return nil, time.Time{}, errors.New("subscriptions down")
	})
	p, ok, err = f.svc.PrincipalForAccessToken(ctx, tok.Access)
	if !ok || err != nil || !slices.Equal(p.Roles, []string{"user", "editor", "premium", "trial"}) {
		t.Errorf("with a failing source: %v %v %v", p.Roles, ok, err)
	}
	// Repeating CreateConfirmedUser returns the same account.
	again, created, err := f.svc.CreateConfirmedUser(ctx, auth.NewUser{Email: " ROLES@example.com", Password: goodPass})
	if err != nil || created || again != id {
		t.Errorf("repeat: %s %v %v", again, created, err)
	}
}

func TestPasswordResetSingleUseExpiryAndRevocation(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	f.signupConfirmed(t, "reset@example.com", goodPass)
	a, err := f.svc.Login(ctx, "reset@example.com", goodPass, "ip", "phone")
	if err != nil {
		t.Fatal(err)
	}
	b, err := f.svc.Login(ctx, "reset@example.com", goodPass, "ip", "laptop")
	if err != nil {
		t.Fatal(err)
	}
	// Unknown addresses get no email and no error.
	if err := f.svc.ForgotPassword(ctx, "nobody@example.com"); err != nil {
		t.Fatal(err)
	}
	if f.mailCount(t, "nobody@example.com") != 0 {
		t.Error("mail to an unknown address")
	}
	if err := f.svc.ForgotPassword(ctx, " Reset@Example.com"); err != nil {
		t.Fatal(err)
	}
	token := f.lastToken(t, "reset@example.com", "/redefinir-senha")
	// The validator applies; a refused password does not spend the link.
	err = f.svc.ResetPassword(ctx, token, "fraca")
	if core.ErrorCode(err) != core.EINVALID || !contains(core.ErrorMessage(err), "Senha inválida: ") {
		t.Fatalf("weak password: %v", err)
	}
	err = f.svc.ResetPassword(ctx, token, "Xreset#2026")
	wantErr(t, err, core.EINVALID, "Senha inválida: "+password.ReasonHasEmailLocal)
	const newPass = "Nova#Senha2026"
	if err := f.svc.ResetPassword(ctx, token, newPass); err != nil {
		t.Fatal(err)
	}
	wantErr(t, f.svc.ResetPassword(ctx, token, "Outra#Senha2026"), core.EINVALID, auth.MsgResetInvalid)
	// Every session was revoked.
	for _, tok := range []auth.Tokens{a.Tokens, b.Tokens} {
		if _, ok, _ := f.svc.PrincipalForAccessToken(ctx, tok.Access); ok {
			t.Error("a session survived the reset")
		}
		if _, _, err := f.svc.Refresh(ctx, tok.Refresh); err == nil {
			t.Error("a refresh token survived the reset")
		}
	}
	f.clock.Advance(10 * time.Second)
	_, err = f.svc.Login(ctx, "reset@example.com", goodPass, "ip", "ua")
	wantErr(t, err, core.EUNAUTHORIZED, auth.MsgBadCredentials)
	if _, err := f.svc.Login(ctx, "reset@example.com", newPass, "ip", "ua"); err != nil {
		t.Fatalf("new password: %v", err)
	}
	// A link older than an hour is refused.
	f.clock.Advance(time.Minute)
	if err := f.svc.ForgotPassword(ctx, "reset@example.com"); err != nil {
		t.Fatal(err)
	}
	late := f.lastToken(t, "reset@example.com", "/redefinir-senha")
	f.clock.Advance(time.Hour + time.Second)
	wantErr(t, f.svc.ResetPassword(ctx, late, "Mais#Uma2026"), core.EINVALID, auth.MsgResetInvalid)
}

func TestResetClearsLockout(t *testing.T) {
	f := newFixture(t, func(o *auth.Options) { o.LoginPerEmail = ratelimit.Rule{Max: 100, Window: time.Minute} })
	ctx := context.Background()
	f.signupConfirmed(t, "locked@example.com", goodPass)
	for range auth.MaxFailedLogins {
		_, _ = f.svc.Login(ctx, "locked@example.com", "Errada#1", "ip", "ua")
	}
	_, err := f.svc.Login(ctx, "locked@example.com", goodPass, "ip", "ua")
	if core.ErrorCode(err) != core.ELOCKED {
		t.Fatalf("not locked: %v", err)
	}
	if err := f.svc.ForgotPassword(ctx, "locked@example.com"); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.ResetPassword(ctx, f.lastToken(t, "locked@example.com", "/redefinir-senha"), "Nova#Senha2026"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Login(ctx, "locked@example.com", "Nova#Senha2026", "ip", "ua"); err != nil {
		t.Errorf("after reset: %v", err)
	}
}

// Email answers an account's address, and ENOTFOUND for an unknown id.
func TestEmailOfAccount(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	if err := f.svc.Signup(ctx, auth.SignupInput{FirstName: "Ana", LastName: "Lima", Email: "Ana.Email@Example.com", Password: goodPass}, "ip"); err != nil {
		t.Fatal(err)
	}
	var id string
	if err := f.pool.QueryRow(ctx, `SELECT id FROM users`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	if got, err := f.svc.Email(ctx, id); err != nil || got != "ana.email@example.com" {
		t.Fatalf("email %q %v", got, err)
	}
	if _, err := f.svc.Email(ctx, "00000000-0000-0000-0000-000000000000"); core.ErrorCode(err) != core.ENOTFOUND {
		t.Fatalf("unknown id: %v", err)
	}
}

// TestConfirmationEmailAnnouncesTheTrial: the email that starts an account
// says what confirming it gives, in whole days, and says nothing of a trial
// when there is none.
func TestConfirmationEmailAnnouncesTheTrial(t *testing.T) {
	for _, tc := range []struct {
		days int
		want string
	}{
		{7, "Ao confirmar, você ganha 7 dias de teste grátis do Premium"},
		{1, "Ao confirmar, você ganha 1 dia de teste grátis do Premium"},
		{0, ""},
	} {
		f := newFixture(t, func(o *auth.Options) { o.TrialDays = tc.days })
		ctx := context.Background()
		email := fmt.Sprintf("trial%d@example.com", tc.days)
		if err := f.svc.Signup(ctx, auth.SignupInput{FirstName: "Ana", LastName: "Lima", Email: email, Password: goodPass}, "ip"); err != nil {
			t.Fatal(err)
		}
		f.drain(t)
		msgs, err := f.box.List(ctx, email, 10)
		if err != nil || len(msgs) != 1 {
			t.Fatalf("%d days: %d messages, %v", tc.days, len(msgs), err)
		}
		if tc.want == "" && strings.Contains(msgs[0].Text, "Premium") || tc.want != "" && !strings.Contains(msgs[0].Text, tc.want) {
			t.Errorf("%d days: confirmation text %q, want %q", tc.days, msgs[0].Text, tc.want)
		}
	}
}
