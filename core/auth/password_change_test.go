package auth_test

import (
	"context"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/auth"
	"github.com/vetclube/vetclube/core/auth/password"
)

func TestChangePasswordChecksTheCurrentOneAndSignsOutOtherSessions(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	f.signupConfirmed(t, "troca@example.com", goodPass)
	here, err := f.svc.Login(ctx, "troca@example.com", goodPass, "10.0.0.1", "ua")
	if err != nil {
		t.Fatal(err)
	}
	f.clock.Advance(11 * time.Second)
	there, err := f.svc.Login(ctx, "troca@example.com", goodPass, "10.0.0.1", "outro")
	if err != nil {
		t.Fatal(err)
	}
	id := here.User.ID

	wantErr(t, f.svc.ChangePassword(ctx, id, here.Tokens.SessionID, "Errada#Senha1", "Nova#Senha2026"), core.EINVALID, auth.MsgCurrentPasswordBad)
	f.clock.Advance(11 * time.Second)
	// The new one goes through the sign-up's validator.
	wantErr(t, f.svc.ChangePassword(ctx, id, here.Tokens.SessionID, goodPass, "Cu1#a"), core.EINVALID, "Senha inválida: "+password.ReasonTooShort)
	wantErr(t, f.svc.ChangePassword(ctx, id, here.Tokens.SessionID, goodPass, goodPass), core.EINVALID, auth.MsgPasswordSame)
	f.clock.Advance(11 * time.Second)
	if err := f.svc.ChangePassword(ctx, id, here.Tokens.SessionID, goodPass, "Nova#Senha2026"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := f.svc.PrincipalForAccessToken(ctx, here.Tokens.Access); !ok {
		t.Fatal("the session that changed the password was signed out")
	}
	if _, ok, _ := f.svc.PrincipalForAccessToken(ctx, there.Tokens.Access); ok {
		t.Fatal("another session survived the password change")
	}
	f.clock.Advance(11 * time.Second)
	if _, err := f.svc.Login(ctx, "troca@example.com", goodPass, "10.0.0.1", "ua"); core.ErrorCode(err) != core.EUNAUTHORIZED {
		t.Fatalf("old password still works: %v", err)
	}
	if _, err := f.svc.Login(ctx, "troca@example.com", "Nova#Senha2026", "10.0.0.1", "ua"); err != nil {
		t.Fatal(err)
	}
	msgs, err := f.box.List(ctx, "troca@example.com", 100)
	if err != nil {
		t.Fatal(err)
	}
	notices := 0
	for _, m := range msgs {
		if m.Subject == "Sua senha foi alterada" && contains(m.Text, "/profile#seguranca") {
			notices++
		}
	}
	if notices != 1 {
		t.Fatalf("%d password-change notices", notices)
	}
}

func TestChangePasswordWrongCurrentLocksLikeSignIn(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	f.signupConfirmed(t, "bruta@example.com", goodPass)
	res, err := f.svc.Login(ctx, "bruta@example.com", goodPass, "10.0.0.1", "ua")
	if err != nil {
		t.Fatal(err)
	}
	var last error
	for range auth.MaxFailedLogins {
		f.clock.Advance(4 * time.Second)
		last = f.svc.ChangePassword(ctx, res.User.ID, res.Tokens.SessionID, "Errada#Senha1", "Nova#Senha2026")
	}
	if core.ErrorCode(last) != core.ELOCKED {
		t.Fatalf("5th wrong current password: %v", last)
	}
	f.clock.Advance(4 * time.Second)
	if err := f.svc.ChangePassword(ctx, res.User.ID, res.Tokens.SessionID, goodPass, "Nova#Senha2026"); core.ErrorCode(err) != core.ELOCKED {
		t.Fatalf("right password while locked: %v", err)
	}
}
