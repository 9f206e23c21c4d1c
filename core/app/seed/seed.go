// Package seed fills a development database with demo content (accounts,
// connections, events, courses, videos, posts, comments and news) through
// the same services the API uses, so the demo obeys every rule real data
// does. The server runs it when APP_ENV=development.
package seed

import (
	"context"
	"fmt"
	"github.com/vetclube/vetclube/core/app"
	"io"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/auth"
	"github.com/vetclube/vetclube/core/editorial"
	"github.com/vetclube/vetclube/core/profiles"
)

// Development accounts. Their passwords pass the password rules and are
// printed on every `make run`; Seed runs only when APP_ENV=development.
var demoAccounts = []struct {
	label string
	user  auth.NewUser
	// profile, when set, fills an incomplete profile (never overwrites edits).
	profile *profiles.Update
	// totp, when set, is the account's fixed two-step secret (development
	// only: staff roles need two-step verification before the backoffice).
	totp string
}{
	{"Usuário de demonstração", auth.NewUser{Email: "demo@vetclube.dev", Password: "Consulta#2026", FirstName: "Dra. Helena", LastName: "Demo"},
		&profiles.Update{
			FirstName: "Dra. Helena", LastName: "Demo", Title: "Médica-veterinária clínica de pequenos animais",
			Biography:   "Atendo cães e gatos há 12 anos, com foco em dermatologia e medicina preventiva. Adoro trocar casos com colegas.",
			Specialties: []string{"clinica_geral", "dermatologia", "medicina_preventiva"},
			HasCRMV:     true, CRMV: "CRMV-SP 12345", Phone: "(11) 98765-4321", HasWhatsApp: true,
		}, ""},
	{"Super admin", auth.NewUser{Email: "admin@vetclube.dev", Password: "Painel#Gestor26", FirstName: "Admin", LastName: "VetClube",
		Roles: []string{core.RoleSuperAdmin}}, nil, DevTOTPSuperAdmin},
	{"Editora de conteúdo", auth.NewUser{Email: "editora@vetclube.dev", Password: "Pauta#Editora26", FirstName: "Carla", LastName: "Editora",
		Roles: []string{core.RoleEditor}}, nil, ""},
	{"Revisor de conteúdo", auth.NewUser{Email: "revisor@vetclube.dev", Password: "Revisao#Pauta26", FirstName: "Rafael", LastName: "Revisor",
		Roles: []string{string(editorial.RoleRevisor)}}, nil, DevTOTPRevisor},
	// Sees the applications of the demo jobs assigned to her (jobs.go).
	{"Recrutadora", auth.NewUser{Email: recruiterEmail, Password: "Vagas#Recruta26", FirstName: "Renata", LastName: "Recrutadora",
		Roles: []string{core.RoleRecrutador}}, nil, ""},
	// Premium through the local fake Stripe (billing.go).
	{"Assinante premium", auth.NewUser{Email: premiumEmail, Password: "Assinante#2026", FirstName: "Paula", LastName: "Premium"}, nil, ""},
}

// Fixed development TOTP secrets of the staff accounts (never in production:
// the seed runs only with APP_ENV=development). The browser tests compute
// codes from them.
const (
	DevTOTPSuperAdmin = "VETCLUBEADMINDEV"
	DevTOTPRevisor    = "VETCLUBEREVISORD"
)

// demo seeds through the running application's services, the way a member,
// an editor or a reviewer would.
type demo struct{ *app.App }

// Run creates the development demo content on first run and prints the
// demo credentials. It is idempotent: later runs change nothing.
func Run(ctx context.Context, a *app.App, stdout io.Writer) error { return demo{a}.seed(ctx, stdout) }

func (a demo) seed(ctx context.Context, stdout io.Writer) error {
	fmt.Fprintln(stdout, "Contas de desenvolvimento:")
	ids := map[string]string{}
	for _, d := range demoAccounts {
		id, created, err := a.Auth.CreateConfirmedUser(ctx, d.user)
		ids[d.user.Email] = id
		if err != nil {
			return fmt.Errorf("seed %s: %w", d.user.Email, err)
		}
		if created {
			// As for any confirmed account (the trial starts there).
			a.Auth.RunEmailConfirmedHooks(ctx, id)
		}
		if d.profile != nil {
			if err := a.seedProfile(ctx, id, *d.profile); err != nil {
				return fmt.Errorf("seed profile of %s: %w", d.user.Email, err)
			}
		}
		if d.totp != "" {
			if err := a.Auth.EnrolFixedTOTP(ctx, id, d.totp); err != nil {
				return fmt.Errorf("seed two-step of %s: %w", d.user.Email, err)
			}
			fmt.Fprintf(stdout, "  %-24s %s / %s  (TOTP: segredo %s)\n", d.label+":", d.user.Email, d.user.Password, d.totp)
			continue
		}
		fmt.Fprintf(stdout, "  %-24s %s / %s\n", d.label+":", d.user.Email, d.user.Password)
	}
	if err := a.seedBilling(ctx, ids[premiumEmail], stdout); err != nil {
		return err
	}
	if err := a.seedConnections(ctx, ids["demo@vetclube.dev"], stdout); err != nil {
		return err
	}
	if err := a.seedEvents(ctx, ids, stdout); err != nil {
		return err
	}
	if err := a.seedJobs(ctx, ids, stdout); err != nil {
		return err
	}
	if err := a.seedChallenges(ctx, ids, stdout); err != nil {
		return err
	}
	if err := a.seedCourses(ctx, ids, stdout); err != nil {
		return err
	}
	if err := a.seedRewards(ctx, ids); err != nil {
		return err
	}
	if err := a.seedVideos(ctx, ids, stdout); err != nil {
		return err
	}
	if err := a.seedCommunity(ctx, ids["demo@vetclube.dev"], stdout); err != nil {
		return err
	}
	if err := a.seedComments(ctx, ids["demo@vetclube.dev"], stdout); err != nil {
		return err
	}
	if err := a.seedProntuario(ctx, ids["demo@vetclube.dev"], stdout); err != nil {
		return err
	}
	if err := a.seedNews(ctx, ids["editora@vetclube.dev"], ids["revisor@vetclube.dev"], stdout); err != nil {
		return err
	}
	if err := a.seedDiseases(ctx, ids["editora@vetclube.dev"], ids["revisor@vetclube.dev"], stdout); err != nil {
		return err
	}
	return a.seedQuestions(ctx, ids["editora@vetclube.dev"], ids["revisor@vetclube.dev"], stdout)
}

// seedProfile fills the profile through the normal validation, only while it
// is incomplete, so a developer's own edits survive later runs.
func (a demo) seedProfile(ctx context.Context, userID string, u profiles.Update) error {
	current, err := a.Profiles.Get(ctx, userID)
	if err != nil {
		return err
	}
	if current.Completeness().Complete {
		return nil
	}
	_, err = a.Profiles.Update(ctx, userID, u)
	return err
}
