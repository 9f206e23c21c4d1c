package seed

import (
	"context"
	"fmt"
	"io"

	"github.com/vetclube/vetclube/core/auth"
	"github.com/vetclube/vetclube/core/connections"
	"github.com/vetclube/vetclube/core/profiles"
)

// demoVetPassword signs in every demo vet (development only).
const demoVetPassword = "Colega#Vet2026"

// demoVets are the community's demo members: a dozen vets with complete
// profiles, so the feed, connections and suggestions have people in them.
var demoVets = []struct {
	email string
	p     profiles.Update
}{
	{"ana.ribeiro@vetclube.dev", profiles.Update{FirstName: "Ana", LastName: "Ribeiro", Title: "Cirurgiã de pequenos animais",
		Biography: "Cirurgia de tecidos moles e ortopedia em cães e gatos. Residência na UNESP Botucatu.", Specialties: []string{"cirurgia", "ortopedia"},
		HasCRMV: true, CRMV: "CRMV-SP 23456"}},
	{"bruno.carvalho@vetclube.dev", profiles.Update{FirstName: "Bruno", LastName: "Carvalho", Title: "Cardiologista veterinário",
		Biography: "Ecocardiograma e acompanhamento de cardiopatas. Atendo em clínicas parceiras de Campinas.", Specialties: []string{"cardiologia", "clinica_geral"},
		HasCRMV: true, CRMV: "CRMV-SP 34567"}},
	{"camila.nunes@vetclube.dev", profiles.Update{FirstName: "Camila", LastName: "Nunes", Title: "Dermatologista de cães e gatos",
		Biography: "Alergias, otites crônicas e dermatites. Gosto de discutir casos difíceis com colegas.", Specialties: []string{"dermatologia", "clinica_geral"},
		HasCRMV: true, CRMV: "CRMV-RJ 4567"}},
	{"diego.martins@vetclube.dev", profiles.Update{FirstName: "Diego", LastName: "Martins", Title: "Plantonista em hospital 24 horas",
		Biography: "Emergência e terapia intensiva. Dez anos de plantão noturno em Belo Horizonte.", Specialties: []string{"emergencias", "clinica_geral"},
		HasCRMV: true, CRMV: "CRMV-MG 8765"}},
	{"elisa.fonseca@vetclube.dev", profiles.Update{FirstName: "Elisa", LastName: "Fonseca", Title: "Oncologista veterinária",
		Biography: "Quimioterapia e cuidados paliativos para cães e gatos com câncer. Pesquisadora na UFPR.", Specialties: []string{"oncologia", "clinica_geral"},
		HasCRMV: true, CRMV: "CRMV-PR 5678"}},
	{"fabio.teixeira@vetclube.dev", profiles.Update{FirstName: "Fábio", LastName: "Teixeira", Title: "Veterinário de animais silvestres",
		Biography: "Atendo aves, répteis e mamíferos silvestres em um centro de reabilitação no Pantanal.", Specialties: []string{"animais_silvestres"},
		HasCRMV: true, CRMV: "CRMV-MS 2345"}},
	{"gabriela.lopes@vetclube.dev", profiles.Update{FirstName: "Gabriela", LastName: "Lopes", Title: "Oftalmologista veterinária",
		Biography: "Catarata, glaucoma e úlceras de córnea. Atendimento volante em clínicas de Porto Alegre.", Specialties: []string{"oftalmologia", "cirurgia"},
		HasCRMV: true, CRMV: "CRMV-RS 6789"}},
	{"henrique.alves@vetclube.dev", profiles.Update{FirstName: "Henrique", LastName: "Alves", Title: "Neurologista veterinário",
		Biography: "Hérnias de disco, epilepsia e reabilitação neurológica. Professor de neurologia veterinária.", Specialties: []string{"neurologia", "ortopedia"},
		HasCRMV: true, CRMV: "CRMV-SP 45678"}},
	{"isabela.moreira@vetclube.dev", profiles.Update{FirstName: "Isabela", LastName: "Moreira", Title: "Médica-veterinária de reprodução",
		Biography: "Reprodução de cães e gatos: inseminação, acompanhamento de gestação e neonatologia.", Specialties: []string{"reproducao", "medicina_preventiva"},
		HasCRMV: true, CRMV: "CRMV-GO 3456"}},
	{"joao.pereira@vetclube.dev", profiles.Update{FirstName: "João", LastName: "Pereira", Title: "Clínico geral e dono de clínica",
		Biography: "Clínica de bairro em Recife há 15 anos. Medicina preventiva, vacinas e gestão de clínica.", Specialties: []string{"clinica_geral", "medicina_preventiva"},
		HasCRMV: true, CRMV: "CRMV-PE 7890"}},
	{"larissa.souza@vetclube.dev", profiles.Update{FirstName: "Larissa", LastName: "Souza", Title: "Residente em clínica médica",
		Biography: "Segundo ano de residência em clínica médica de pequenos animais. Interesse em dermatologia.", Specialties: []string{"clinica_geral", "dermatologia"},
		HasCRMV: true, CRMV: "CRMV-BA 1234"}},
	{"marcos.vieira@vetclube.dev", profiles.Update{FirstName: "Marcos", LastName: "Vieira", Title: "Ortopedista veterinário",
		Biography: "Fraturas, luxações e cirurgias de ligamento cruzado. Atendo em Florianópolis.", Specialties: []string{"ortopedia", "cirurgia"},
		HasCRMV: true, CRMV: "CRMV-SC 4321"}},
}

// seedDemoVets creates the demo vets (once) and returns their ids in the
// order of demoVets. Other demo seeds (the community feed) build on them.
func (a demo) seedDemoVets(ctx context.Context) ([]string, error) {
	ids := make([]string, len(demoVets))
	for i, v := range demoVets {
		id, created, err := a.Auth.CreateConfirmedUser(ctx, auth.NewUser{Email: v.email, Password: demoVetPassword, FirstName: v.p.FirstName, LastName: v.p.LastName})
		if err != nil {
			return nil, fmt.Errorf("seed demo vet %s: %w", v.email, err)
		}
		if created {
			a.Auth.RunEmailConfirmedHooks(ctx, id)
		}
		if err := a.seedProfile(ctx, id, v.p); err != nil {
			return nil, fmt.Errorf("seed profile of %s: %w", v.email, err)
		}
		ids[i] = id
	}
	return ids, nil
}

// seedConnections creates the demo vets and, on the first run only, a
// network among them through the real service (counts and notifications
// included): the demo user has connections, two requests to answer, one
// sent, and suggestions to follow.
func (a demo) seedConnections(ctx context.Context, demoUserID string, stdout io.Writer) error {
	vets, err := a.seedDemoVets(ctx)
	if err != nil {
		return err
	}
	// One line like the accounts above; the other vets share the password.
	fmt.Fprintf(stdout, "  %-24s %s / %s\n", fmt.Sprintf("Veterinários demo (%d):", len(vets)), demoVets[0].email, demoVetPassword)
	// A developer's later accepts, removals and blocks must survive: seed
	// only while no demo vet has any connection yet.
	var any bool
	if err := a.Pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM connections WHERE requester_id = ANY($1) OR receiver_id = ANY($1))`, vets).Scan(&any); err != nil {
		return fmt.Errorf("seed connections: %w", err)
	}
	if any {
		return nil
	}
	connect := func(from, to string) error {
		res, err := a.Connections.Request(ctx, from, to)
		if err != nil {
			return err
		}
		if res.Status == connections.ResultPending {
			_, err = a.Connections.Accept(ctx, to, *res.ID)
		}
		return err
	}
	// Pairs of demoVets indexes that are connected.
	network := [][2]int{{0, 6}, {0, 7}, {0, 11}, {1, 3}, {1, 4}, {2, 10}, {2, 9}, {3, 4}, {3, 9}, {4, 8}, {5, 8}, {6, 11}, {7, 11}, {9, 10}, {9, 1}}
	for _, p := range network {
		if err := connect(vets[p[0]], vets[p[1]]); err != nil {
			return fmt.Errorf("seed connections: %w", err)
		}
	}
	if demoUserID == "" {
		return nil
	}
	// The demo user (clinic, dermatology, prevention): four connections,
	// requests from Larissa and Isabela, one sent to Bruno.
	for _, i := range []int{2, 9, 0, 3} {
		if err := connect(vets[i], demoUserID); err != nil {
			return fmt.Errorf("seed connections: %w", err)
		}
	}
	for _, i := range []int{10, 8} {
		if _, err := a.Connections.Request(ctx, vets[i], demoUserID); err != nil {
			return fmt.Errorf("seed connections: %w", err)
		}
	}
	if _, err := a.Connections.Request(ctx, demoUserID, vets[1]); err != nil {
		return fmt.Errorf("seed connections: %w", err)
	}
	return nil
}
