package auth_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/auth"
)

func TestEmailChangeTakesEffectOnConfirmAndIsUndoneFromTheOldAddress(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	f.signupConfirmed(t, "velho@example.com", goodPass)
	id := f.userID(t, "velho@example.com")
	res, err := f.svc.Login(ctx, "velho@example.com", goodPass, "10.0.0.1", "ua")
	if err != nil {
		t.Fatal(err)
	}
	if err := f.svc.RequestEmailChange(ctx, id, "  Novo@Example.com ", goodPass); err != nil {
		t.Fatal(err)
	}
	// Nothing changes before the link is opened.
	st, err := f.svc.EmailSettingsOf(ctx, id)
	if err != nil || st.Email != "velho@example.com" || st.Pending == nil || st.Pending.NewEmail != "novo@example.com" || !st.HasPassword || st.Google {
		t.Fatalf("settings %+v %v", st, err)
	}
	if _, err := f.svc.Login(ctx, "novo@example.com", goodPass, "10.0.0.1", "ua"); err == nil {
		t.Fatal("the new address signed in before confirmation")
	}
	token := f.lastToken(t, "novo@example.com", "/email/confirmar")
	f.clock.Advance(time.Hour)
	email, err := f.svc.ConfirmEmailChange(ctx, token)
	if err != nil || email != "novo@example.com" {
		t.Fatalf("confirm: %q %v", email, err)
	}
	// The link works once.
	wantErr(t, errOf(f.svc.ConfirmEmailChange(ctx, token)), core.EINVALID, auth.MsgEmailChangeInvalid)
	f.clock.Advance(11 * time.Second)
	if _, err := f.svc.Login(ctx, "novo@example.com", goodPass, "10.0.0.1", "ua"); err != nil {
		t.Fatalf("sign in with the new address: %v", err)
	}
	if n := f.mailCountSubject(t, "novo@example.com", "Seu e-mail foi alterado"); n != 1 {
		t.Fatalf("%d notices to the new address", n)
	}
	// The old address is told, with the undo link.
	undo := f.lastToken(t, "velho@example.com", "/email/desfazer")
	f.clock.Advance(6 * 24 * time.Hour)
	if err := f.svc.UndoEmailChange(ctx, undo); err != nil {
		t.Fatal(err)
	}
	wantErr(t, f.svc.UndoEmailChange(ctx, undo), core.EINVALID, auth.MsgEmailUndoInvalid)
	if got, _ := f.svc.Email(ctx, id); got != "velho@example.com" {
		t.Fatalf("email after undo %q", got)
	}
	// Every session is signed out, and the old address gets a reset link.
	if _, ok, _ := f.svc.PrincipalForAccessToken(ctx, res.Tokens.Access); ok {
		t.Fatal("a session survived the undo")
	}
	var open int
	if err := f.pool.QueryRow(ctx, `SELECT count(*) FROM sessions WHERE user_id = $1 AND revoked_at IS NULL`, id).Scan(&open); err != nil || open != 0 {
		t.Fatalf("%d sessions open %v", open, err)
	}
	reset := f.lastToken(t, "velho@example.com", "/redefinir-senha")
	if err := f.svc.ResetPassword(ctx, reset, "Outra-Senha-Boa-2026"); err != nil {
		t.Fatalf("reset after undo: %v", err)
	}
}

func TestEmailChangeLinksExpire(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	f.signupConfirmed(t, "primeiro@example.com", goodPass)
	id := f.userID(t, "primeiro@example.com")
	if err := f.svc.RequestEmailChange(ctx, id, "segundo@example.com", goodPass); err != nil {
		t.Fatal(err)
	}
	token := f.lastToken(t, "segundo@example.com", "/email/confirmar")
	f.clock.Advance(auth.EmailChangeTTL + time.Second)
	wantErr(t, errOf(f.svc.ConfirmEmailChange(ctx, token)), core.EINVALID, auth.MsgEmailChangeExpired)
	if got, _ := f.svc.Email(ctx, id); got != "primeiro@example.com" {
		t.Fatalf("email %q", got)
	}
	// A new request; confirmed; the undo link dies after 7 days.
	if err := f.svc.RequestEmailChange(ctx, id, "terceiro@example.com", goodPass); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.ConfirmEmailChange(ctx, f.lastToken(t, "terceiro@example.com", "/email/confirmar")); err != nil {
		t.Fatal(err)
	}
	undo := f.lastToken(t, "primeiro@example.com", "/email/desfazer")
	f.clock.Advance(auth.UndoEmailTTL + time.Second)
	wantErr(t, f.svc.UndoEmailChange(ctx, undo), core.EINVALID, auth.MsgEmailUndoExpired)
	if got, _ := f.svc.Email(ctx, id); got != "terceiro@example.com" {
		t.Fatalf("email %q", got)
	}
}

func TestEmailChangeHostileInput(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	f.signupConfirmed(t, "ana@example.com", goodPass)
	f.signupConfirmed(t, "bia@example.com", goodPass)
	ana := f.userID(t, "ana@example.com")
	wantErr(t, f.svc.RequestEmailChange(ctx, ana, "ANA@example.com", goodPass), core.EINVALID, auth.MsgEmailChangeSame)
	f.clock.Advance(11 * time.Second)
	wantErr(t, f.svc.RequestEmailChange(ctx, ana, "nova@example.com", "errada-123456"), core.EINVALID, auth.MsgEmailChangeBadPass)
	f.clock.Advance(11 * time.Second)
	if err := f.svc.RequestEmailChange(ctx, ana, "não é email", goodPass); core.ErrorCode(err) != core.EINVALID {
		t.Fatalf("bad address: %v", err)
	}
	f.clock.Advance(11 * time.Second)
	// A taken address answers like a free one; its owner is told nothing changed.
	errTaken := f.svc.RequestEmailChange(ctx, ana, "bia@example.com", goodPass)
	f.clock.Advance(11 * time.Second)
	errFree := f.svc.RequestEmailChange(ctx, ana, "livre@example.com", goodPass)
	if errTaken != nil || errFree != nil {
		t.Fatalf("taken %v, free %v", errTaken, errFree)
	}
	msgs := f.mails(t, "bia@example.com")
	if len(msgs) == 0 || msgs[0].Subject != "Pedido de troca de e-mail no VetClube" || !strings.Contains(msgs[0].Text, "Nada foi alterado") {
		t.Fatalf("mail to the taken address: %+v", msgs[0])
	}
	for _, l := range msgs[0].Links {
		if strings.Contains(l, "/email/confirmar") {
			t.Fatalf("a confirmation link went to a taken address: %s", l)
		}
	}
	// The newer request replaced the older: one pending, for livre@.
	st, _ := f.svc.EmailSettingsOf(ctx, ana)
	if st.Pending == nil || st.Pending.NewEmail != "livre@example.com" {
		t.Fatalf("pending %+v", st.Pending)
	}
	// The free address is taken before the link is opened: refused then.
	token := f.lastToken(t, "livre@example.com", "/email/confirmar")
	f.signupConfirmed(t, "livre@example.com", goodPass)
	wantErr(t, errOf(f.svc.ConfirmEmailChange(ctx, token)), core.ECONFLICT, auth.MsgEmailChangeTaken)
	wantErr(t, errOf(f.svc.ConfirmEmailChange(ctx, strings.Repeat("x", 500))), core.EINVALID, auth.MsgEmailChangeInvalid)
	wantErr(t, f.svc.UndoEmailChange(ctx, ""), core.EINVALID, auth.MsgEmailUndoInvalid)
	if got, _ := f.svc.Email(ctx, ana); got != "ana@example.com" {
		t.Fatalf("email %q", got)
	}
}

func TestRecoveryCodesRegenerateWithPasswordAndCode(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	secret, old := f.enrolled(t, "rec@example.com")
	id := f.userID(t, "rec@example.com")
	wantErr(t, errOf(f.svc.RegenerateRecoveryCodes(ctx, id, "errada-123456", f.code(t, secret, 0))), core.EUNAUTHORIZED, auth.MsgTwoStepBadPass)
	f.clock.Advance(11 * time.Second)
	wantErr(t, errOf(f.svc.RegenerateRecoveryCodes(ctx, id, goodPass, "000000")), core.EUNAUTHORIZED, auth.MsgTwoStepBadCode)
	f.clock.Advance(30 * time.Second)
	codes, err := f.svc.RegenerateRecoveryCodes(ctx, id, goodPass, f.code(t, secret, 0))
	if err != nil || len(codes) != auth.RecoveryCodeCount {
		t.Fatalf("regenerate: %d %v", len(codes), err)
	}
	if n := f.mailCountSubject(t, "rec@example.com", "Novos códigos de recuperação"); n != 1 {
		t.Fatalf("%d notices", n)
	}
	// The old codes are dead; each new one works once.
	f.clock.Advance(11 * time.Second)
	wantErr(t, errOf(f.svc.VerifyTwoStep(ctx, auth.TwoStepInput{Challenge: f.challenge(t, "rec@example.com"), Code: old[1]})), core.EUNAUTHORIZED, auth.MsgTwoStepBadCode)
	f.clock.Advance(11 * time.Second)
	if _, err := f.svc.VerifyTwoStep(ctx, auth.TwoStepInput{Challenge: f.challenge(t, "rec@example.com"), Code: codes[0]}); err != nil {
		t.Fatalf("new code: %v", err)
	}
	f.clock.Advance(11 * time.Second)
	wantErr(t, errOf(f.svc.VerifyTwoStep(ctx, auth.TwoStepInput{Challenge: f.challenge(t, "rec@example.com"), Code: codes[0]})), core.EUNAUTHORIZED, auth.MsgTwoStepBadCode)
}
