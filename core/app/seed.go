package app

import (
	"context"
	"fmt"
	"io"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/auth"
)

// Development accounts. Their passwords pass the password rules and are
// printed on every `make run`; Seed runs only when APP_ENV=development.
var demoAccounts = []struct {
	label string
	user  auth.NewUser
}{
	{"Usuário de demonstração", auth.NewUser{Email: "demo@vetclube.dev", Password: "Consulta#2026", FirstName: "Dra. Helena", LastName: "Demo"}},
	{"Super admin", auth.NewUser{Email: "admin@vetclube.dev", Password: "Painel#Gestor26", FirstName: "Admin", LastName: "VetClube",
		Roles: []string{core.RoleSuperAdmin}}},
}

// Seed creates the development demo content on first run and prints the
// demo credentials. It is idempotent: later runs change nothing.
func (a *App) Seed(ctx context.Context, stdout io.Writer) error {
	fmt.Fprintln(stdout, "Contas de desenvolvimento:")
	for _, d := range demoAccounts {
		id, created, err := a.Auth.CreateConfirmedUser(ctx, d.user)
		if err != nil {
			return fmt.Errorf("seed %s: %w", d.user.Email, err)
		}
		if created {
			// As for any confirmed account (the trial starts there).
			a.Auth.RunEmailConfirmedHooks(ctx, id)
		}
		fmt.Fprintf(stdout, "  %-24s %s / %s\n", d.label+":", d.user.Email, d.user.Password)
	}
	return nil
}
