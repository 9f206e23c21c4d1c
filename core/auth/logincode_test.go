package auth_test

import (
	"context"
	"regexp"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/auth"
)

var codeInSubject = regexp.MustCompile(`código de acesso ao VetClube: (\d{6})$`)

// mailedCode requests a code for email and returns the code and link token mailed.
func (f *fixture) mailedCode(t *testing.T, email string) (string, string) {
	t.Helper()
	if err := f.svc.RequestLoginCode(context.Background(), email, "10.0.0.1"); err != nil {
		t.Fatal(err)
	}
	f.drain(t)
	msgs, err := f.box.List(context.Background(), email, 1)
	if err != nil || len(msgs) == 0 {
		t.Fatalf("no code mailed to %s (%v)", email, err)
	}
	m := codeInSubject.FindStringSubmatch(msgs[0].Subject)
	if m == nil {
		t.Fatalf("subject %q", msgs[0].Subject)
	}
	return m[1], f.lastToken(t, email, "/login/codigo")
}

func TestLoginCodeWorksOnceAndExpires(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	f.signupConfirmed(t, "codigo@example.com", goodPass)
	code, _ := f.mailedCode(t, "codigo@example.com")
	in := auth.LoginCodeInput{Email: "Codigo@Example.com ", Code: code, ClientIP: "10.0.0.1"}
	res, err := f.svc.LoginWithCode(ctx, in)
	if err != nil || res.Tokens.Access == "" || res.User.Email != "codigo@example.com" {
		t.Fatalf("%+v %v", res, err)
	}
	f.clock.Advance(11 * time.Second)
	wantErr(t, errOf(f.svc.LoginWithCode(ctx, in)), core.EUNAUTHORIZED, auth.MsgLoginCodeInvalid)

	// A new code, 10 minutes later, no longer works.
	f.clock.Advance(11 * time.Second)
	code, _ = f.mailedCode(t, "codigo@example.com")
	f.clock.Advance(auth.LoginCodeTTL + time.Second)
	wantErr(t, errOf(f.svc.LoginWithCode(ctx, auth.LoginCodeInput{Email: "codigo@example.com", Code: code})), core.EUNAUTHORIZED, auth.MsgLoginCodeInvalid)

	// The newest request replaces the previous code.
	f.clock.Advance(11 * time.Second)
	old, _ := f.mailedCode(t, "codigo@example.com")
	f.clock.Advance(11 * time.Second)
	fresh, _ := f.mailedCode(t, "codigo@example.com")
	if old != fresh {
		f.clock.Advance(11 * time.Second)
		wantErr(t, errOf(f.svc.LoginWithCode(ctx, auth.LoginCodeInput{Email: "codigo@example.com", Code: old})), core.EUNAUTHORIZED, auth.MsgLoginCodeInvalid)
	}
	f.clock.Advance(11 * time.Second)
	if _, err := f.svc.LoginWithCode(ctx, auth.LoginCodeInput{Email: "codigo@example.com", Code: fresh}); err != nil {
		t.Fatal(err)
	}
}

func TestLoginCodeLinkSignsInOnce(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	f.signupConfirmed(t, "link@example.com", goodPass)
	code, token := f.mailedCode(t, "link@example.com")
	if _, err := f.svc.LoginWithCode(ctx, auth.LoginCodeInput{Token: token}); err != nil {
		t.Fatal(err)
	}
	wantErr(t, errOf(f.svc.LoginWithCode(ctx, auth.LoginCodeInput{Token: token})), core.EUNAUTHORIZED, auth.MsgLoginLinkInvalid)
	// The link spent the code too.
	f.clock.Advance(11 * time.Second)
	wantErr(t, errOf(f.svc.LoginWithCode(ctx, auth.LoginCodeInput{Email: "link@example.com", Code: code})), core.EUNAUTHORIZED, auth.MsgLoginCodeInvalid)
}

func TestLoginCodeFiveWrongTriesLockAndKillTheCode(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	f.signupConfirmed(t, "tenta@example.com", goodPass)
	code, _ := f.mailedCode(t, "tenta@example.com")
	wrong := "000000"
	if code == wrong {
		wrong = "111111"
	}
	for i := 1; i < auth.MaxLoginCodeFailures; i++ {
		f.clock.Advance(4 * time.Second)
		wantErr(t, errOf(f.svc.LoginWithCode(ctx, auth.LoginCodeInput{Email: "tenta@example.com", Code: wrong})), core.EUNAUTHORIZED, auth.MsgLoginCodeInvalid)
	}
	codes := func() (n int) {
		t.Helper()
		if err := f.pool.QueryRow(ctx, `SELECT count(*) FROM login_codes c JOIN users u ON u.id = c.user_id WHERE u.email = 'tenta@example.com'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if codes() != 1 {
		t.Fatal("the code died before its 5th wrong try")
	}
	f.clock.Advance(4 * time.Second)
	if err := errOf(f.svc.LoginWithCode(ctx, auth.LoginCodeInput{Email: "tenta@example.com", Code: wrong})); core.ErrorCode(err) != core.ELOCKED {
		t.Fatalf("5th wrong code: %v", err)
	}
	if codes() != 0 {
		t.Fatal("the code survived its 5th wrong try")
	}
	// After the lockout the old code is gone: a new one is needed.
	f.clock.Advance(auth.LockoutDuration)
	wantErr(t, errOf(f.svc.LoginWithCode(ctx, auth.LoginCodeInput{Email: "tenta@example.com", Code: code})), core.EUNAUTHORIZED, auth.MsgLoginCodeInvalid)
	f.clock.Advance(11 * time.Second)
	code, _ = f.mailedCode(t, "tenta@example.com")
	f.clock.Advance(11 * time.Second)
	if _, err := f.svc.LoginWithCode(ctx, auth.LoginCodeInput{Email: "tenta@example.com", Code: code}); err != nil {
		t.Fatal(err)
	}
}

func TestLoginCodeAnswersAlikeForUnknownEmails(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	f.signupConfirmed(t, "existe@example.com", goodPass)
	for _, email := range []string{"existe@example.com", "ninguem@example.com"} {
		if err := f.svc.RequestLoginCode(ctx, email, "10.0.0.1"); err != nil {
			t.Fatalf("%s: %v", email, err)
		}
	}
	if n := f.mailCount(t, "ninguem@example.com"); n != 0 {
		t.Fatalf("%d e-mails to an unknown address", n)
	}
	// Wrong codes: the same answers, the same lockout after 5.
	for i := 1; i <= auth.MaxFailedLogins; i++ {
		f.clock.Advance(4 * time.Second)
		var got [2]string
		for j, email := range []string{"existe@example.com", "ninguem@example.com"} {
			err := errOf(f.svc.LoginWithCode(ctx, auth.LoginCodeInput{Email: email, Code: "999999", ClientIP: "10.0.0.2"}))
			got[j] = core.ErrorCode(err) + " " + core.ErrorMessage(err)
		}
		if got[0] != got[1] {
			t.Fatalf("try %d: known %q, unknown %q", i, got[0], got[1])
		}
	}
	// An unconfirmed account gets no code either.
	if err := f.svc.Signup(ctx, auth.SignupInput{FirstName: "N", LastName: "C", Email: "nova@example.com", Password: goodPass}, "10.0.0.3"); err != nil {
		t.Fatal(err)
	}
	before := f.mailCount(t, "nova@example.com")
	f.clock.Advance(11 * time.Second)
	if err := f.svc.RequestLoginCode(ctx, "nova@example.com", "10.0.0.3"); err != nil {
		t.Fatal(err)
	}
	if after := f.mailCount(t, "nova@example.com"); after != before {
		t.Fatalf("unconfirmed account got a code (%d → %d)", before, after)
	}
}

func TestLoginCodeIsRateLimitedWithPasswords(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	f.signupConfirmed(t, "limite@example.com", goodPass)
	var err error
	for range 4 {
		err = f.svc.RequestLoginCode(ctx, "limite@example.com", "10.0.0.1")
	}
	wantErr(t, err, core.ERATELIMITED, auth.MsgLoginLimited)
	// The same budget as the password.
	_, err = f.svc.Login(ctx, "limite@example.com", goodPass, "10.0.0.1", "ua")
	wantErr(t, err, core.ERATELIMITED, auth.MsgLoginLimited)
}

func TestLoginCodeLeadsToTheSecondStep(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	secret, _ := f.enrolled(t, "ambos@example.com")
	f.clock.Advance(11 * time.Second)
	code, _ := f.mailedCode(t, "ambos@example.com")
	res, err := f.svc.LoginWithCode(ctx, auth.LoginCodeInput{Email: "ambos@example.com", Code: code})
	if err != nil || res.Challenge == "" || res.Tokens.Access != "" {
		t.Fatalf("an e-mailed code skipped two-step verification: %+v %v", res, err)
	}
	if _, err := f.svc.VerifyTwoStep(ctx, auth.TwoStepInput{Challenge: res.Challenge, Code: f.code(t, secret, 0)}); err != nil {
		t.Fatal(err)
	}
}
