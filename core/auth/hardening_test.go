package auth_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/auth"
	"github.com/vetclube/vetclube/core/auth/password"
	"github.com/vetclube/vetclube/core/mail"
	"github.com/vetclube/vetclube/core/ratelimit"
)

const msgEmailInvalid = "Informe um email válido."

// A 3 kB address used to reach the rate limiter, whose key then outgrew its
// index: a 500. Every endpoint taking an email refuses it first.
func TestOverlongEmailRefusedBeforeTheLimiter(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	long := strings.Repeat("a", 3000) + "@example.com"
	for _, email := range []string{long, strings.Repeat("a", 250) + "@x.com", "ana\x00@example.com", "ana@exa\u202emple.com"} {
		_, err := f.svc.Login(ctx, email, goodPass, "ip", "ua")
		wantErr(t, err, core.EINVALID, msgEmailInvalid)
		wantErr(t, f.svc.Signup(ctx, auth.SignupInput{FirstName: "A", LastName: "B", Email: email, Password: goodPass}, "ip"), core.EINVALID, msgInvalidData)
		wantErr(t, f.svc.ForgotPassword(ctx, email), core.EINVALID, msgEmailInvalid)
		wantErr(t, f.svc.ResendConfirmation(ctx, email), core.EINVALID, msgEmailInvalid)
	}
	var n int
	if err := f.pool.QueryRow(ctx, `SELECT count(*) FROM rate_limit_counters WHERE key LIKE '%aaaa%'`).Scan(&n); err != nil || n != 0 {
		t.Errorf("%d rate-limit counters for refused addresses (%v)", n, err)
	}

	srv := apptest.Start(t, nil)
	res := srv.Client(t).Do("POST", "/api/auth/login", map[string]string{"email": long, "password": goodPass})
	if res.Status != http.StatusUnprocessableEntity || res.ErrorMessage() != msgEmailInvalid {
		t.Errorf("HTTP login with a 3 kB email: %d %s", res.Status, res.Body)
	}
}

const msgInvalidData = "Dados inválidos."

// A User-Agent that is not UTF-8 (or holds NUL) failed a correct sign-in
// with a 500 when the session row was written.
func TestSignInWithHostileUserAgent(t *testing.T) {
	f := newFixture(t, nil)
	f.signupConfirmed(t, "ua@example.com", goodPass)
	ctx := context.Background()
	ua := "Mozilla/5.0 \xff\xfe\x00(X11)\x01\u202e" + strings.Repeat("é", 2000)
	res, err := f.svc.Login(ctx, "ua@example.com", goodPass, "ip", ua)
	if err != nil {
		t.Fatalf("sign-in with a hostile User-Agent: %v", err)
	}
	list, err := f.svc.Sessions(ctx, res.User.ID, "")
	if err != nil || len(list) != 1 {
		t.Fatalf("sessions %v %v", list, err)
	}
	got := list[0].UserAgent
	if !utf8.ValidString(got) || len(got) > auth.MaxUserAgentBytes || !strings.HasPrefix(got, "Mozilla/5.0 (X11)éé") {
		t.Errorf("stored User-Agent %q (%d bytes)", got[:min(len(got), 40)], len(got))
	}
}

func TestCleanUserAgent(t *testing.T) {
	for in, want := range map[string]string{
		"Mozilla/5.0 (X11; Linux x86_64)": "Mozilla/5.0 (X11; Linux x86_64)",
		"a\x00b\r\nc\td":                  "abcd",
		"\xc3\x28ok":                      "(ok",
		"\u200bzero":                      "zero",
		"":                                "",
	} {
		if got := auth.CleanUserAgent(in); got != want {
			t.Errorf("CleanUserAgent(%q) = %q, want %q", in, got, want)
		}
	}
	long := auth.CleanUserAgent(strings.Repeat("ã", 1000))
	if len(long) > auth.MaxUserAgentBytes || !utf8.ValidString(long) {
		t.Errorf("long User-Agent kept %d bytes", len(long))
	}
}

// 900 kB passwords were accepted and a 1 MB sign-in cost a full hash of it.
func TestPasswordOverMaxLengthRefusedBeforeHashing(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	tooLong := "Aa1#" + strings.Repeat("x", password.MaxLength-3)
	wantMsg := "Senha inválida: deve ter no máximo 128 caracteres"
	wantErr(t, f.svc.Signup(ctx, auth.SignupInput{FirstName: "L", LastName: "P", Email: "long@example.com", Password: tooLong}, "ip"), core.EINVALID, wantMsg)
	// Exactly the maximum is fine.
	f.signupConfirmed(t, "max@example.com", tooLong[:password.MaxLength])
	if _, err := f.svc.Login(ctx, "max@example.com", tooLong[:password.MaxLength], "ip", "ua"); err != nil {
		t.Fatalf("128-character password: %v", err)
	}

	huge := strings.Repeat("A#1a", 1<<18) // 1 MiB
	_, err := f.svc.Login(ctx, "max@example.com", huge, "ip", "ua")
	wantErr(t, err, core.EINVALID, wantMsg)
	// Refused before the password check: not counted as a failed sign-in.
	var failed int
	if err := f.pool.QueryRow(ctx, `SELECT failed_login_count FROM users WHERE email = 'max@example.com'`).Scan(&failed); err != nil || failed != 0 {
		t.Errorf("failed_login_count %d (%v)", failed, err)
	}

	if err := f.svc.ForgotPassword(ctx, "max@example.com"); err != nil {
		t.Fatal(err)
	}
	token := f.lastToken(t, "max@example.com", "/redefinir-senha")
	wantErr(t, f.svc.ResetPassword(ctx, token, huge), core.EINVALID, wantMsg)
	if err := f.svc.ResetPassword(ctx, token, "Outra#Senha9"); err != nil {
		t.Errorf("the refused reset spent the link: %v", err)
	}
}

// The lockout answer (423) used to appear only for registered addresses.
func TestLockoutAnswersAlikeForUnknownEmails(t *testing.T) {
	f := newFixture(t, func(o *auth.Options) {
		o.LoginPerEmail = ratelimit.Rule{Max: 100, Window: time.Minute}
	})
	f.signupConfirmed(t, "real@example.com", goodPass)
	ctx := context.Background()
	answers := func(email string) []string {
		var out []string
		for range auth.MaxFailedLogins + 2 {
			_, err := f.svc.Login(ctx, email, "Errada#2026", "ip", "ua")
			out = append(out, core.ErrorCode(err)+" "+core.ErrorMessage(err))
		}
		return out
	}
	real, unknown := answers("real@example.com"), answers("nobody@example.com")
	if !slices.Equal(real, unknown) {
		t.Fatalf("answers differ:\nregistered %q\nunknown    %q", real, unknown)
	}
	if !strings.HasPrefix(real[auth.MaxFailedLogins-1], core.ELOCKED+" ") {
		t.Fatalf("no lockout after %d failures: %q", auth.MaxFailedLogins, real)
	}
	// Both unlock after the lockout, and the unknown one still cannot sign in.
	f.clock.Advance(auth.LockoutDuration + time.Second)
	_, err := f.svc.Login(ctx, "nobody@example.com", goodPass, "ip", "ua")
	wantErr(t, err, core.EUNAUTHORIZED, auth.MsgBadCredentials)
	if _, err := f.svc.Login(ctx, "real@example.com", goodPass, "ip", "ua"); err != nil {
		t.Fatalf("registered account after the lockout: %v", err)
	}
}

// blockingSMTP accepts connections and never answers, like a stalled relay.
func blockingSMTP(t *testing.T) (addr string, accepted <-chan struct{}) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ch := make(chan struct{}, 16)
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns = append(conns, c)
			ch <- struct{}{}
		}
	}()
	t.Cleanup(func() {
		_ = ln.Close()
		<-done
		for _, c := range conns {
			_ = c.Close()
		}
	})
	return ln.Addr().String(), ch
}

// Forgot-password and resend-confirmation answered later for registered
// addresses, because they sent email inside the request. Now requests only
// queue it: the answer is the same for any address and comes back while the
// SMTP relay is stalled.
func TestEmailRequestsAnswerAlikeAndNeverWaitOnSMTP(t *testing.T) {
	pool := newFixture(t, nil).pool
	queue := mail.NewQueue(pool)
	clk := &clock{t: time.Now()}
	svc, err := auth.New(pool, queue, auth.Options{PublicURL: "http://127.0.0.1:8080", Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, _, err := svc.CreateConfirmedUser(ctx, auth.NewUser{Email: "known@example.com", Password: goodPass}); err != nil {
		t.Fatal(err)
	}
	if err := svc.Signup(ctx, auth.SignupInput{FirstName: "U", LastName: "C", Email: "unconfirmed@example.com", Password: goodPass}, "ip"); err != nil {
		t.Fatal(err)
	}

	addr, accepted := blockingSMTP(t)
	smtp, err := mail.NewSMTP("smtp://"+addr, "VetClube <nao-responda@vetclube.example>")
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.ProcessMailRequests(ctx); err != nil {
		t.Fatal(err)
	}
	stop := queue.StartWorker(ctx, smtp, nil, mail.WorkerOptions{Poll: 10 * time.Millisecond})
	defer func() { _ = stop() }()
	// The worker is now stuck on the sign-up's confirmation email.
	select {
	case <-accepted:
	case <-time.After(30 * time.Second):
		t.Fatal("the worker never reached the SMTP relay")
	}

	post := func(h http.Handler, email string) (int, string) {
		req := httptest.NewRequest("POST", "/", strings.NewReader(`{"email":"`+email+`"}`))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code, rec.Body.String()
	}
	for name, h := range map[string]http.Handler{
		"forgot": auth.HandleForgotPassword(slog.New(slog.DiscardHandler), svc),
		"resend": auth.HandleResendConfirmation(slog.New(slog.DiscardHandler), svc),
	} {
		var answers []string
		for _, email := range []string{"known@example.com", "unconfirmed@example.com", "nobody@example.com"} {
			code, body := post(h, email)
			answers = append(answers, body)
			if code != http.StatusOK {
				t.Errorf("%s %s: %d %s", name, email, code, body)
			}
		}
		if answers[0] != answers[1] || answers[1] != answers[2] {
			t.Errorf("%s answers differ: %q", name, answers)
		}
	}
	// Every request, for any address, queued one request row and nothing else.
	var requests int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM account_mail_requests`).Scan(&requests); err != nil || requests != 6 {
		t.Errorf("%d queued requests (%v), want 6", requests, err)
	}
	// Resolved in the background: forgot ×2 (known, unconfirmed) and resend
	// ×1 (unconfirmed) become emails, plus the sign-up's confirmation the
	// worker is holding.
	if err := svc.ProcessMailRequests(ctx); err != nil {
		t.Fatal(err)
	}
	var queued int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM mail_outbox WHERE sent_at IS NULL`).Scan(&queued); err != nil || queued != 4 {
		t.Errorf("%d queued emails (%v), want 4", queued, err)
	}
}

// Sessions used to slide forever with each refresh.
func TestRefreshEndsAtMaxSessionAge(t *testing.T) {
	f := newFixture(t, nil)
	f.signupConfirmed(t, "long@example.com", goodPass)
	ctx := context.Background()
	res, err := f.svc.Login(ctx, "long@example.com", goodPass, "ip", "ua")
	if err != nil {
		t.Fatal(err)
	}
	signIn := f.clock.Now()
	refresh := res.Tokens.Refresh
	for day := 25; day <= 75; day += 25 {
		f.clock.Advance(25 * 24 * time.Hour)
		_, tok, err := f.svc.Refresh(ctx, refresh)
		if err != nil {
			t.Fatalf("refresh on day %d: %v", day, err)
		}
		refresh = tok.Refresh
	}
	f.clock.Advance(14 * 24 * time.Hour) // day 89
	_, tok, err := f.svc.Refresh(ctx, refresh)
	if err != nil {
		t.Fatalf("refresh on day 89: %v", err)
	}
	if end := signIn.Add(auth.DefaultMaxSessionAge); tok.RefreshExpires.After(end) {
		t.Errorf("refresh token outlives the session: %v > %v", tok.RefreshExpires, end)
	}
	f.clock.Advance(2 * 24 * time.Hour) // day 91
	_, _, err = f.svc.Refresh(ctx, tok.Refresh)
	wantErr(t, err, core.EUNAUTHORIZED, "Usuário não autenticado")

	// A session whose sign-in lies 91 days back is over, whatever its tokens say.
	res, err = f.svc.Login(ctx, "long@example.com", goodPass, "ip", "ua")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.pool.Exec(ctx, `UPDATE sessions SET created_at = $2 WHERE id = $1`, res.Tokens.SessionID,
		f.clock.Now().Add(-91*24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	_, _, err = f.svc.Refresh(ctx, res.Tokens.Refresh)
	wantErr(t, err, core.EUNAUTHORIZED, "Usuário não autenticado")
	if _, ok, err := f.svc.PrincipalForAccessToken(ctx, res.Tokens.Access); ok || err != nil {
		t.Errorf("access token of an over-age session still works (%v)", err)
	}
}

// Names made only of invisible or bidirectional-override characters passed
// as "not empty".
func TestSignupNamesNeedALetter(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	for _, bad := range []string{"\u200b", "\u202e\u202d", "\u2066\u2069\ufeff", " \u200b "} {
		err := f.svc.Signup(ctx, auth.SignupInput{FirstName: bad, LastName: bad, Email: "x@example.com", Password: goodPass}, "ip")
		if core.ErrorCode(err) != core.EINVALID || fieldsOf(err)["first_name"] != "Informe seu nome." || fieldsOf(err)["last_name"] != "Informe seu sobrenome." {
			t.Errorf("name %q: %v %v", bad, err, fieldsOf(err))
		}
	}
	if err := f.svc.Signup(ctx, auth.SignupInput{FirstName: "\u202eAna\u200b", LastName: "Sou\u200bza", Email: "bidi@example.com", Password: goodPass}, "ip"); err != nil {
		t.Fatal(err)
	}
	var first, last string
	if err := f.pool.QueryRow(ctx, `SELECT metadata->>'first_name', metadata->>'last_name' FROM users WHERE email = 'bidi@example.com'`).Scan(&first, &last); err != nil {
		t.Fatal(err)
	}
	if first != "Ana" || last != "Souza" {
		t.Errorf("stored %q %q", first, last)
	}
}

// Signing up with a registered address answers like a new sign-up and now
// tells the address's owner, with links to sign in and to reset the password.
func TestSignupWithRegisteredEmailNotifiesOwner(t *testing.T) {
	f := newFixture(t, nil)
	f.signupConfirmed(t, "owner@example.com", goodPass)
	ctx := context.Background()
	before := f.mailCount(t, "owner@example.com")
	if err := f.svc.Signup(ctx, auth.SignupInput{FirstName: "Outra", LastName: "Pessoa", Email: "Owner@Example.com", Password: "Outra#Senha9"}, "ip2"); err != nil {
		t.Fatalf("sign-up of a registered address: %v", err)
	}
	f.drain(t)
	msgs, err := f.box.List(ctx, "owner@example.com", 10)
	if err != nil || len(msgs) != before+1 {
		t.Fatalf("%d emails, want %d (%v)", len(msgs), before+1, err)
	}
	m := msgs[0]
	if m.Subject != "Tentativa de cadastro no VetClube com o seu email" || !strings.Contains(m.Text, "Olá, Ana!") ||
		!strings.Contains(m.Text, "Alguém tentou criar uma conta no VetClube com este email") {
		t.Errorf("notice %q\n%s", m.Subject, m.Text)
	}
	if !slices.Equal(m.Links, []string{"http://127.0.0.1:8080/login", "http://127.0.0.1:8080/forgot-password"}) {
		t.Errorf("links %v", m.Links)
	}
	// Nothing about the account changed.
	if _, err := f.svc.Login(ctx, "owner@example.com", goodPass, "ip", "ua"); err != nil {
		t.Errorf("owner's password no longer works: %v", err)
	}
}

func fieldsOf(err error) map[string]string {
	var e *core.Error
	if errors.As(err, &e) {
		return e.Fields
	}
	return nil
}

// Names carry no links, addresses or markup (they land in e-mails and
// pages others read), and an unconfirmed account is not greeted by name:
// whatever was typed with someone's address never reaches its owner.
func TestSignupNamesWithoutLinksAndNoGreetingBeforeConfirmation(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	for i, name := range []string{"Ganhe dinheiro em https://golpe.example", "www.golpe.com", "visite golpe.com.br", "<b>Ana</b>",
		"ana@golpe.com", "Clique [aqui]", "golpe.xyz/premio"} {
		err := f.svc.Signup(ctx, auth.SignupInput{FirstName: name, LastName: "Souza", Email: fmt.Sprintf("n%d@example.com", i), Password: goodPass}, "ip")
		var e *core.Error
		if !errors.As(err, &e) || e.Code != core.EINVALID || e.Fields["first_name"] != auth.MsgNameNoLinks {
			t.Errorf("first name %q: %v", name, err)
		}
		err = f.svc.Signup(ctx, auth.SignupInput{FirstName: "Ana", LastName: name, Email: fmt.Sprintf("s%d@example.com", i), Password: goodPass}, "ip")
		if !errors.As(err, &e) || e.Fields["last_name"] != auth.MsgNameNoLinks {
			t.Errorf("last name %q: %v", name, err)
		}
	}
	for i, name := range []string{"J. R. R.", "Maria-José", "D'Ávila", "Ana Paula"} {
		if err := f.svc.Signup(ctx, auth.SignupInput{FirstName: name, LastName: "Souza Jr.", Email: fmt.Sprintf("ok%d@example.com", i),
			Password: goodPass}, "ip"); err != nil && core.ErrorCode(err) == core.EINVALID {
			t.Errorf("real name %q refused: %v", name, err)
		}
	}
	if err := f.svc.Signup(ctx, auth.SignupInput{FirstName: "Renata", LastName: "Lima", Email: "vitima@example.com", Password: goodPass}, "ip"); err != nil {
		t.Fatal(err)
	}
	f.drain(t)
	msgs, err := f.box.List(ctx, "vitima@example.com", 10)
	if err != nil || len(msgs) != 1 {
		t.Fatalf("confirmation mail: %d %v", len(msgs), err)
	}
	if strings.Contains(msgs[0].Text, "Renata") || strings.Contains(msgs[0].HTML, "Renata") || !strings.Contains(msgs[0].Text, "Olá!") {
		t.Errorf("the unconfirmed account was greeted by name:\n%s", msgs[0].Text)
	}
}
