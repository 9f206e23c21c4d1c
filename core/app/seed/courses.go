package seed

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/courses"
	"github.com/vetclube/vetclube/core/editorial"
	"github.com/vetclube/vetclube/core/text"
)

// demoVideo is the video of every demo video lesson: a placeholder (Big
// Buck Bunny, the Blender Foundation's open short film, on its official
// channel: public and long-lived, so the embedded player always works)
// until real lessons are uploaded. The lessons declare whole minutes (the
// clip runs 10:35), so a module's total reads as the sum of its lessons
// ("2 aulas · 22min" from two of "11min") and a course's estimated duration
// is the sum of its modules.
const (
	demoVideo              = "https://www.youtube.com/watch?v=aqz-KE-bpKQ"
	demoVideoDuration      = "11:00"
	demoVideoLessonSeconds = 11 * 60
)

type demoLesson struct {
	key, title, description string
	body                    string // a text lesson when set (no video)
	free, optional          bool
}

type demoModule struct {
	key, title string
	lessons    []demoLesson
}

type demoCourse struct {
	key, title, summary, description string
	category, instructor             string // keys of demoCategories / demoInstructors
	level                            string
	rating                           float64
	ratings                          int
	tags                             []string
	learn, requirements, objectives  string
	modules                          []demoModule
}

var demoCategories = []struct {
	key, name string
	order     int
}{
	{"emergencia", "Emergência e Terapia Intensiva", 1},
	{"dermatologia", "Dermatologia", 2},
	{"gestao", "Gestão de Clínicas", 3},
}

var demoInstructors = []struct{ key, name, title, bio string }{
	{"camila-rocha", "Dra. Camila Rocha", "Médica veterinária intensivista, mestre em Clínica Médica",
		"Coordena a UTI de um hospital veterinário 24 horas em Campinas (SP) e ensina atendimento emergencial há 12 anos."},
	{"rafael-mendes", "Dr. Rafael Mendes", "Médico veterinário dermatologista, doutor em Ciência Animal",
		"Atende casos dermatológicos de cães e gatos em Belo Horizonte (MG) e pesquisa dermatite atópica canina."},
	{"juliana-prado", "Juliana Prado", "Médica veterinária e administradora, MBA em Gestão de Saúde",
		"Fundou e gere três clínicas veterinárias em Curitiba (PR); consultora de gestão para pequenas clínicas."},
}

var demoCourses = []demoCourse{
	{key: "emergencias-pequenos-animais", title: "Atendimento Emergencial em Pequenos Animais",
		summary:     "Triagem, estabilização e primeiras condutas nas emergências mais comuns em cães e gatos.",
		description: "Aprenda a organizar a chegada do paciente crítico, fazer a triagem pelo **ABC**, estabilizar choque, dispneia e trauma, e decidir as primeiras condutas com segurança. Curso prático, com casos reais da rotina de um hospital 24 horas.",
		category:    "emergencia", instructor: "camila-rocha", level: "Intermediário", rating: 4.8, ratings: 126,
		tags:         []string{"emergência", "UTI", "trauma", "choque"},
		learn:        "Fazer a triagem do paciente crítico\nReconhecer e tratar os tipos de choque\nConduzir a dispneia aguda\nMontar o carrinho de emergência",
		requirements: "Graduação em Medicina Veterinária (ou estar no último ano)\nNoções de fisiologia cardiovascular",
		objectives:   "Reduzir o tempo até a primeira conduta\nPadronizar o atendimento de emergência na clínica",
		modules: []demoModule{
			{"triagem", "Triagem e avaliação primária", []demoLesson{
				{key: "boas-vindas", title: "Boas-vindas e como usar o curso", description: "Apresentação do curso e do método de triagem.", free: true},
				{key: "abc", title: "Avaliação primária: o ABC do paciente crítico", description: "Vias aéreas, respiração e circulação em menos de dois minutos."},
				{key: "escalas", title: "Escalas de triagem na prática", description: "Como classificar a urgência já na recepção.",
					body: "## Escalas de triagem\n\nUse uma escala de cinco níveis (vermelho, laranja, amarelo, verde e azul) e reavalie a cada 15 minutos os pacientes em espera.\n\n- **Vermelho**: atendimento imediato (parada, dispneia grave, hemorragia ativa).\n- **Laranja**: até 10 minutos.\n- **Amarelo**: até 30 minutos."},
			}},
			{"estabilizacao", "Estabilização", []demoLesson{
				{key: "choque", title: "Choque: reconhecimento e fluidoterapia", description: "Sinais de choque hipovolêmico, distributivo e cardiogênico."},
				{key: "dispneia", title: "Dispneia aguda em cães e gatos", description: "Oxigenioterapia, sedação e localização do problema respiratório."},
				{key: "carrinho", title: "Montando o carrinho de emergência", description: "Lista de conferência para a sua clínica.", optional: true},
			}},
		}},
	{key: "dermatologia-veterinaria", title: "Dermatologia Veterinária na Rotina Clínica",
		summary:     "Do exame dermatológico ao plano terapêutico: alergias, otites e dermatopatias infecciosas.",
		description: "Um roteiro prático para os casos de pele que mais chegam ao consultório: abordagem do prurido, dermatite atópica canina, alergia alimentar, piodermites, dermatofitose e otite externa, com exames complementares e planos de tratamento.",
		category:    "dermatologia", instructor: "rafael-mendes", level: "Iniciante", rating: 4.7, ratings: 89,
		tags:         []string{"dermatologia", "alergia", "otite", "prurido"},
		learn:        "Conduzir o exame dermatológico completo\nDiferenciar as causas de prurido\nEscolher exames complementares\nTratar otite externa",
		requirements: "Graduação em Medicina Veterinária (ou estar cursando)",
		objectives:   "Resolver mais casos dermatológicos já na primeira consulta",
		modules: []demoModule{
			{"exame", "Exame dermatológico", []demoLesson{
				{key: "anamnese", title: "Anamnese dermatológica", description: "As perguntas que mudam o diagnóstico.", free: true},
				{key: "exames", title: "Raspado, citologia e tricograma", description: "Como colher e interpretar os exames de consultório."},
			}},
			{"alergias", "Alergias e infecções", []demoLesson{
				{key: "atopia", title: "Dermatite atópica canina", description: "Critérios diagnósticos e manejo a longo prazo."},
				{key: "alimentar", title: "Alergia alimentar e dieta de eliminação", description: "Como conduzir uma dieta de eliminação que funcione.",
					body: "## Dieta de eliminação\n\n1. Escolha uma proteína e um carboidrato inéditos para o paciente (ou uma dieta hidrolisada).\n2. Mantenha a dieta **exclusiva** por 8 semanas.\n3. Reavalie o prurido a cada 2 semanas.\n4. Faça a provocação com a dieta antiga para confirmar."},
				{key: "otite", title: "Otite externa: da citologia ao tratamento", description: "Causas primárias, perpetuantes e escolha do tratamento tópico."},
			}},
		}},
	{key: "gestao-clinica-veterinaria", title: "Gestão de Clínicas Veterinárias",
		summary:     "Finanças, precificação, equipe e experiência do tutor para clínicas de pequeno porte.",
		description: "Para quem é dono de clínica ou pensa em abrir a sua: fluxo de caixa, formação de preço dos serviços, indicadores, gestão de equipe e a jornada do tutor, com planilhas e exemplos de clínicas reais.",
		category:    "gestao", instructor: "juliana-prado", level: "Iniciante", rating: 4.6, ratings: 54,
		tags:         []string{"gestão", "finanças", "precificação", "equipe"},
		learn:        "Montar o fluxo de caixa da clínica\nCalcular o preço de consultas e procedimentos\nAcompanhar indicadores mensais",
		requirements: "Nenhum: o curso parte do zero",
		objectives:   "Tornar a clínica financeiramente saudável\nReter bons profissionais",
		modules: []demoModule{
			{"financas", "Finanças da clínica", []demoLesson{
				{key: "fluxo", title: "Fluxo de caixa sem complicação", description: "Entradas, saídas e o capital de giro.", free: true},
				{key: "preco", title: "Precificação de serviços", description: "Custo da hora clínica, margem e comparação com o mercado."},
			}},
			{"pessoas", "Pessoas e tutores", []demoLesson{
				{key: "equipe", title: "Contratação e retenção da equipe", description: "Perfil, integração e plano de carreira."},
				{key: "tutor", title: "A jornada do tutor", description: "Do agendamento ao retorno: pontos de contato que fidelizam.",
					body: "## A jornada do tutor\n\nMapeie cada contato: agendamento, recepção, consulta, pagamento, alta e retorno. Em cada um, defina quem é o responsável e qual é a experiência esperada."},
				{key: "indicadores", title: "Indicadores para acompanhar todo mês", description: "Ticket médio, taxa de retorno e ocupação da agenda.", optional: true},
			}},
		}},
}

// seedCourses creates and publishes the demo courses, with their
// categories, instructors, modules and lessons, through the content store
// when the cursos plugin is loaded; the read model fills from the publishes.
func (a demo) seedCourses(ctx context.Context, ids map[string]string, stdout io.Writer) error {
	if _, ok := a.Content.Registry.Get(courses.TypeCourse); !ok || a.Courses == nil {
		return nil
	}
	editor := content.Actor{UserID: ids["editora@vetclube.dev"], Channel: content.ChannelSystem}
	revisor := content.Actor{UserID: ids["revisor@vetclube.dev"], Channel: content.ChannelSystem}
	created := 0
	put := func(typ, key, title, summary string, fields map[string]any) (string, error) {
		it, isNew, err := a.Content.Store.Create(ctx, editor, typ,
			content.Input{Slug: key, Title: title, Summary: summary, Fields: fields}, "seed:"+typ+":"+key)
		if err != nil {
			return "", fmt.Errorf("%s %s: %w", typ, key, err)
		}
		if !isNew {
			return it.ID, nil
		}
		for _, step := range []struct {
			actor content.Actor
			role  editorial.Role
			act   editorial.Action
		}{{editor, editorial.RoleEditor, editorial.ActionSubmit}, {revisor, editorial.RoleRevisor, editorial.ActionApprove},
			{revisor, editorial.RoleRevisor, editorial.ActionPublish}} {
			if it, err = a.Content.Workflow.Act(ctx, step.actor, []editorial.Role{step.role}, it.ID, it.Version, step.act, ""); err != nil {
				return "", fmt.Errorf("%s %s: %s: %w", typ, key, step.act, err)
			}
		}
		if typ == courses.TypeCourse {
			created++
		}
		return it.ID, nil
	}
	cats := map[string]string{}
	for _, c := range demoCategories {
		id, err := put(courses.TypeCategory, "categoria-"+c.key, c.name, "", map[string]any{"display_order": c.order})
		if err != nil {
			return err
		}
		cats[c.key] = id
	}
	teachers := map[string]string{}
	for _, in := range demoInstructors {
		id, err := put(courses.TypeInstructor, in.key, in.name, "", map[string]any{"professional_title": in.title, "bio": in.bio})
		if err != nil {
			return err
		}
		teachers[in.key] = id
	}
	for _, c := range demoCourses {
		var modules []string
		seconds := 0
		for _, m := range c.modules {
			var lessons []string
			for _, l := range m.lessons {
				f := map[string]any{"description": l.description, "is_free": l.free, "is_optional": l.optional}
				if l.body != "" {
					f["body"] = l.body
				} else {
					f["video_source"], f["youtube_url"], f["duration"] = "youtube", demoVideo, demoVideoDuration
					seconds += demoVideoLessonSeconds
				}
				id, err := put(courses.TypeLesson, c.key+"-"+m.key+"-"+l.key, l.title, "", f)
				if err != nil {
					return err
				}
				lessons = append(lessons, id)
			}
			id, err := put(courses.TypeModule, c.key+"-"+m.key, m.title, "", map[string]any{"lessons": lessons})
			if err != nil {
				return err
			}
			modules = append(modules, id)
		}
		fields := map[string]any{
			"description": c.description, "category": cats[c.category], "instructor": teachers[c.instructor], "level": c.level,
			"duration": text.Duration(seconds), "rating": c.rating, "total_ratings": c.ratings, "tags": c.tags, "video_intro": demoVideo,
			"what_you_will_learn": c.learn, "requirements": c.requirements, "objectives": c.objectives, "modules": modules,
		}
		thumbnail, err := a.coursePictureKey(ctx, c.key, c.category)
		if err != nil {
			return err
		}
		if thumbnail != "" {
			fields["thumbnail"] = thumbnail
		}
		if _, err := put(courses.TypeCourse, c.key, c.title, c.summary, fields); err != nil {
			return err
		}
	}
	if created > 0 {
		fmt.Fprintf(stdout, "  %d cursos de demonstração criados (emergência, dermatologia e gestão, com módulos e aulas)\n", created)
	}
	return nil
}

// coursePictureKey stores the course's generated cover through the content
// uploads (as an editor's upload would be) and returns its storage key; ""
// when the course already exists (its picture was stored with it) or the
// app has no uploads.
func (a demo) coursePictureKey(ctx context.Context, key, category string) (string, error) {
	if a.Content.Uploads == nil {
		return "", nil
	}
	if _, err := a.Content.Store.GetPublished(ctx, courses.TypeCourse, key, ""); err == nil {
		return "", nil
	} else if core.ErrorCode(err) != core.ENOTFOUND {
		return "", fmt.Errorf("course %s: %w", key, err)
	}
	pic, err := coursePicture(category)
	if err != nil {
		return "", err
	}
	up, err := a.Content.Uploads.Save(ctx, content.KindImage, key+".png", bytes.NewReader(pic))
	if err != nil {
		return "", fmt.Errorf("course %s picture: %w", key, err)
	}
	return up.Key, nil
}
