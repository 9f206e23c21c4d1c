package auth_test

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestSignInFromANewDeviceIsMailed(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	f.signupConfirmed(t, "aviso@example.com", goodPass)
	subjects := func() (n int, last string) {
		t.Helper()
		msgs, err := f.box.List(ctx, "aviso@example.com", 100)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range msgs {
			if m.Subject == "Novo acesso à sua conta" {
				if n == 0 {
					last = m.Text
				}
				n++
			}
		}
		return n, last
	}
	login := func(ua string) {
		t.Helper()
		f.clock.Advance(11 * time.Second)
		if _, err := f.svc.Login(ctx, "aviso@example.com", goodPass, "10.0.0.1", ua); err != nil {
			t.Fatal(err)
		}
	}
	login("Mozilla/5.0 (X11; Linux) Firefox/140") // the first sign-in: no news
	if n, _ := subjects(); n != 0 {
		t.Fatalf("%d notices for the first sign-in", n)
	}
	login("Mozilla/5.0 (X11; Linux) Firefox/140") // the same browser again
	if n, _ := subjects(); n != 0 {
		t.Fatalf("%d notices for a known device", n)
	}
	login("Mozilla/5.0 (iPhone) Safari/18")
	n, text := subjects()
	if n != 1 || !strings.Contains(text, "iPhone") || !strings.Contains(text, "/profile#seguranca") || !strings.Contains(text, "horário de Brasília") {
		t.Fatalf("%d notices, last %q", n, text)
	}
}
