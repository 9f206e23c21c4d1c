package seed

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/editorial"
	"github.com/vetclube/vetclube/core/jobs"
)

// recruiterEmail is the demo recruiter: assigned to the jobs marked
// recruiter below, they see those jobs' applications in the backoffice.
const recruiterEmail = "recrutadora@vetclube.dev"

// demoJobs are the jobs the development server starts with, across states,
// contracts and ways to apply, closing relative to the day the seed runs.
var demoJobs = []struct {
	key, title, summary, org, city, state, workplace, contract, area, specialty, requirements, applyKind, applyValue string
	lo, hi                                                                                                           int // 0: not given
	closesIn                                                                                                         int
	featured, crmv, recruiter                                                                                        bool
}{
	{key: "clinico-geral-campinas", title: "Médico-veterinário clínico geral", org: "Clínica Veterinária Patas & Cia", city: "Campinas", state: "SP",
		workplace: "presencial", contract: "clt", area: "pequenos_animais", specialty: "Clínica médica", lo: 9108, hi: 11000, closesIn: 20,
		featured: true, crmv: true, recruiter: true, applyKind: "vetclube",
		summary:      "Atendimento clínico de cães e gatos em clínica com internação 24 h.",
		requirements: "- CRMV-SP ativo;\n- 2 anos de experiência em clínica de pequenos animais;\n- disponibilidade para um plantão de fim de semana por mês."},
	{key: "residencia-cirurgia-ufmg", title: "Residência em cirurgia de pequenos animais", org: "Hospital Veterinário Escola", city: "Belo Horizonte",
		state: "MG", workplace: "presencial", contract: "residencia", area: "pequenos_animais", specialty: "Cirurgia", lo: 4106, hi: 4106,
		closesIn: 35, crmv: true, applyKind: "link", applyValue: "https://www.exemplo.edu.br/residencia-veterinaria",
		summary:      "Programa de dois anos com bolsa, em hospital escola de alta casuística.",
		requirements: "Graduação em medicina veterinária concluída há no máximo 2 anos. Processo seletivo com prova e entrevista."},
	{key: "plantonista-emergencia-rj", title: "Plantonista de emergência noturna", org: "Hospital Vet 24h Zona Sul", city: "Rio de Janeiro", state: "RJ",
		workplace: "presencial", contract: "plantao", area: "pequenos_animais", specialty: "Emergência e terapia intensiva", lo: 900, hi: 1200,
		closesIn: 10, crmv: true, recruiter: true, applyKind: "vetclube",
		summary:      "Plantões de 12 horas (19h–7h), pagos por plantão.",
		requirements: "Experiência em emergência, fluidoterapia e RCP. Escala flexível de 4 a 8 plantões por mês."},
	{key: "veterinario-bovinos-mt", title: "Veterinário de campo — bovinos de corte", org: "Agropecuária Vale do Araguaia", city: "Barra do Garças",
		state: "MT", workplace: "presencial", contract: "clt", area: "grandes_animais", specialty: "Reprodução animal", lo: 12000, hi: 15000,
		closesIn: 28, crmv: true, applyKind: "email", applyValue: "rh@exemplo-agro.com.br",
		summary:      "Manejo sanitário e reprodutivo de rebanho de 8 mil cabeças.",
		requirements: "Experiência com IATF e ultrassonografia reprodutiva. CNH categoria B."},
	{key: "equinos-sorocaba", title: "Médico-veterinário de equinos", org: "Haras Santa Clara", city: "Sorocaba", state: "SP", workplace: "presencial",
		contract: "pj", area: "equinos", specialty: "Clínica de equinos", closesIn: 15, applyKind: "vetclube", recruiter: true,
		summary:      "Acompanhamento clínico e esportivo de plantel de cavalos de hipismo.",
		requirements: "Vivência com equinos atletas, claudicações e exames de imagem."},
	{key: "estagio-silvestres-manaus", title: "Estágio em animais silvestres", org: "Centro de Triagem de Animais Silvestres", city: "Manaus",
		state: "AM", workplace: "presencial", contract: "estagio", area: "silvestres_exoticos", specialty: "Animais silvestres", lo: 1500, hi: 1500,
		closesIn: 12, applyKind: "vetclube",
		summary:      "Estágio de 6 meses na reabilitação de fauna amazônica.",
		requirements: "Estudantes a partir do 8º período de medicina veterinária."},
	{key: "inspecao-sif-chapeco", title: "Médico-veterinário de inspeção (SIF)", org: "Frigorífico Oeste Alimentos", city: "Chapecó", state: "SC",
		workplace: "presencial", contract: "clt", area: "aves_suinos", specialty: "Inspeção de produtos de origem animal", lo: 10500, hi: 12500,
		closesIn: 40, crmv: true, applyKind: "link", applyValue: "https://carreiras.exemplo.com.br/vagas/inspecao",
		summary:      "Controle de qualidade e bem-estar animal em abatedouro de aves.",
		requirements: "Conhecimento do RIISPOA e de programas de autocontrole."},
	{key: "patologista-remoto", title: "Patologista veterinário (laudos remotos)", org: "VetLab Diagnósticos", city: "Curitiba", state: "PR",
		workplace: "remoto", contract: "pj", area: "laboratorio", specialty: "Patologia", lo: 8000, hi: 14000, closesIn: 30, featured: true,
		applyKind: "vetclube", recruiter: true,
		summary:      "Laudos histopatológicos e citológicos em plataforma digital.",
		requirements: "Residência ou mestrado em patologia veterinária. Experiência com lâminas digitalizadas é um diferencial."},
	{key: "dermatologista-hibrido-poa", title: "Dermatologista veterinário", org: "Clínica DermaPet", city: "Porto Alegre", state: "RS",
		workplace: "hibrido", contract: "pj", area: "pequenos_animais", specialty: "Dermatologia", closesIn: 25, applyKind: "vetclube",
		summary:      "Atendimentos presenciais três dias por semana e teleorientação nos demais.",
		requirements: "Especialização em dermatologia veterinária."},
	{key: "saude-publica-recife", title: "Médico-veterinário — vigilância em zoonoses", org: "Prefeitura do Recife (contrato temporário)", city: "Recife",
		state: "PE", workplace: "presencial", contract: "clt", area: "saude_publica", specialty: "Saúde pública", lo: 6800, hi: 6800,
		closesIn: 18, crmv: true, applyKind: "link", applyValue: "https://www.exemplo.pe.gov.br/selecao",
		summary:      "Controle de raiva, leishmaniose e leptospirose no município.",
		requirements: "Seleção simplificada por análise de currículo. Jornada de 30 horas semanais."},
	{key: "representante-tecnico-goiania", title: "Representante técnico comercial", org: "NutriVet Brasil", city: "Goiânia", state: "GO",
		workplace: "hibrido", contract: "clt", area: "industria", specialty: "Nutrição animal", lo: 8500, hi: 10000, closesIn: 22,
		applyKind: "email", applyValue: "talentos@exemplo-nutrivet.com.br",
		summary:      "Suporte técnico a clínicas e revendas da região Centro-Oeste.",
		requirements: "Boa comunicação e disponibilidade para viagens. Veículo próprio."},
	{key: "anestesista-freelance-salvador", title: "Anestesista volante", org: "Rede Anestesia Vet", city: "Salvador", state: "BA",
		workplace: "presencial", contract: "freelance", area: "pequenos_animais", specialty: "Anestesiologia", closesIn: 14, applyKind: "vetclube",
		summary:      "Procedimentos agendados em clínicas parceiras de Salvador e região.",
		requirements: "Especialização em anestesiologia e equipamento próprio de monitorização é um diferencial."},
	{key: "professor-fortaleza", title: "Professor de clínica médica de pequenos animais", org: "Faculdade de Ciências Agrárias", city: "Fortaleza",
		state: "CE", workplace: "presencial", contract: "clt", area: "ensino_pesquisa", specialty: "Clínica médica", lo: 7500, hi: 9500,
		closesIn: 45, applyKind: "link", applyValue: "https://www.exemplo.edu.br/trabalhe-conosco",
		summary:      "Disciplinas de clínica médica e supervisão do hospital escola.",
		requirements: "Mestrado ou doutorado na área. Experiência docente desejável."},
	{key: "clinico-felinos-brasilia", title: "Clínico de felinos", org: "Gato & Cia Clínica Felina", city: "Brasília", state: "DF",
		workplace: "presencial", contract: "clt", area: "pequenos_animais", specialty: "Medicina felina", lo: 6000, hi: 7000, closesIn: 5,
		crmv: true, applyKind: "vetclube", recruiter: true,
		summary:      "Clínica exclusiva para gatos, certificada cat friendly.",
		requirements: "Experiência com felinos e manejo amigável."},
	{key: "plantao-grandes-animais-uberaba", title: "Plantonista — hospital de grandes animais", org: "Hospital Veterinário Triângulo",
		city: "Uberaba", state: "MG", workplace: "presencial", contract: "plantao", area: "grandes_animais", specialty: "Clínica de ruminantes",
		closesIn: 8, applyKind: "vetclube",
		summary:      "Plantões de 24 h no atendimento a bovinos e equinos.",
		requirements: "Experiência em clínica e cirurgia de grandes animais."},
}

// seedJobs creates and publishes the demo jobs when the vagas plugin is
// loaded, and assigns the demo recruiter to some of them.
func (a demo) seedJobs(ctx context.Context, ids map[string]string, stdout io.Writer) error {
	if _, ok := a.Content.Registry.Get(jobs.TypeID); !ok || a.Jobs == nil {
		return nil
	}
	editor := content.Actor{UserID: ids["editora@vetclube.dev"], Channel: content.ChannelSystem}
	revisor := content.Actor{UserID: ids["revisor@vetclube.dev"], Channel: content.ChannelSystem}
	sp, err := time.LoadLocation("America/Sao_Paulo")
	if err != nil {
		return fmt.Errorf("time zone: %w", err)
	}
	today := time.Now().In(sp)
	created := 0
	for _, j := range demoJobs {
		fields := map[string]any{
			"organization": j.org, "city": j.city, "state": j.state, "workplace": j.workplace, "contract": j.contract, "area": j.area,
			"specialty": j.specialty, "requirements": j.requirements, "crmv_required": j.crmv, "apply_kind": j.applyKind,
			"apply_value": j.applyValue, "featured": j.featured, "closes_at": today.AddDate(0, 0, j.closesIn).Format(time.DateOnly),
		}
		if j.lo > 0 {
			fields["salary_min"] = j.lo
		}
		if j.hi > 0 {
			fields["salary_max"] = j.hi
		}
		it, isNew, err := a.Content.Store.Create(ctx, editor, jobs.TypeID,
			content.Input{Slug: j.key, Title: j.title, Summary: j.summary, Fields: fields}, "seed:vagas:"+j.key)
		if err != nil {
			return fmt.Errorf("job %s: %w", j.key, err)
		}
		if !isNew {
			continue
		}
		created++
		for _, step := range []struct {
			actor content.Actor
			role  editorial.Role
			act   editorial.Action
		}{{editor, editorial.RoleEditor, editorial.ActionSubmit}, {revisor, editorial.RoleRevisor, editorial.ActionApprove},
			{revisor, editorial.RoleRevisor, editorial.ActionPublish}} {
			if it, err = a.Content.Workflow.Act(ctx, step.actor, []editorial.Role{step.role}, it.ID, it.Version, step.act, ""); err != nil {
				return fmt.Errorf("job %s: %s: %w", j.key, step.act, err)
			}
		}
		if j.recruiter {
			v := jobs.Viewer{UserID: ids["editora@vetclube.dev"], Roles: []string{string(editorial.RoleEditor)}}
			if _, err := a.Jobs.AddRecruiter(ctx, v, it.ID, recruiterEmail); err != nil {
				return fmt.Errorf("job %s: recruiter: %w", j.key, err)
			}
		}
	}
	if created > 0 {
		fmt.Fprintf(stdout, "  %d vagas de demonstração criadas (%s acompanha as candidaturas de algumas)\n", created, recruiterEmail)
	}
	return nil
}
