package seed

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/editorial"
)

// demoEvents are the events the development server starts with: upcoming
// ones of each type over the next weeks (one almost full) and two past
// ones, dated relative to the day the seed first runs.
var demoEvents = []struct {
	key, title, summary, description, kind, time, end, location, instructor, price string
	inDays                                                                         int
	online                                                                         bool
	max                                                                            int
	icon                                                                           string
	// seats taken by the other demo accounts (almost full)
	takenByDemoTeam bool
}{
	{key: "workshop-suturas", title: "Workshop de suturas e nós cirúrgicos", kind: "Workshop", inDays: 5, time: "19:00", end: "22:00",
		summary: "Prática guiada de padrões de sutura em modelos sintéticos, com correção individual.",
		description: "Aula prática para quem quer ganhar segurança no centro cirúrgico.\n\n## Programação\n\n- Instrumental e fios: como escolher;\n" +
			"- padrões simples, contínuos e intradérmicos;\n- nós manuais e com porta-agulhas.\n\nTraga seu porta-agulhas se tiver; há kits para empréstimo.",
		location: "Centro de Treinamento VetClube — Rua Vergueiro, 1200, São Paulo (SP)", instructor: "Dr. Marcelo Tavares",
		price: "R$ 180,00", max: 4, icon: "🩺", takenByDemoTeam: true},
	{key: "intensivo-emergencias", title: "Intensivo de emergências e terapia intensiva", kind: "Intensivo", inDays: 12, time: "08:30", end: "17:30",
		summary: "Um dia inteiro de atendimento ao paciente crítico: triagem, choque, fluidoterapia e RCP.",
		description: "Curso intensivo com casos reais e simulações.\n\n**Conteúdo:** triagem, abordagem do choque, fluidoterapia, " +
			"analgesia no paciente crítico e reanimação cardiopulmonar (RECOVER).",
		location: "Hospital Veterinário Escola — Av. Prof. Orlando Marques de Paiva, 87, São Paulo (SP)", instructor: "Dra. Juliana Freitas",
		price: "R$ 450,00", max: 30, icon: "🚑"},
	{key: "congresso-clinica-felinos", title: "Congresso Paulista de Medicina Felina", kind: "Congresso", inDays: 19, time: "09:00", end: "18:00",
		summary: "Palestras e mesas-redondas sobre doença renal crônica, manejo amigável e anestesia em gatos.",
		description: "O maior encontro de medicina felina do estado.\n\n- Doença renal crônica: estadiamento IRIS;\n" +
			"- consulta cat friendly;\n- anestesia e analgesia em felinos.\n\nCertificado de 8 horas.",
		location: "Centro de Convenções Frei Caneca — Rua Frei Caneca, 569, São Paulo (SP)", instructor: "Comissão científica ABFel",
		price: "A partir de R$ 290,00", max: 400, icon: "🐱"},
	{key: "webinar-dermatologia", title: "Webinar: dermatite atópica canina na prática", kind: "Webinar", inDays: 8, time: "20:00", end: "21:30",
		summary:     "Diagnóstico, controle do prurido e manejo de longo prazo da dermatite atópica em cães.",
		description: "Encontro online com espaço para perguntas ao vivo.\n\nO link da transmissão aparece na página do evento 30 minutos antes do início, para quem estiver inscrito.",
		online:      true, instructor: "Dra. Helena Prado", price: "Gratuito", max: 500, icon: "💻"},
	{key: "palestra-carreira", title: "Palestra: como montar sua clínica veterinária", kind: "Palestra", inDays: 26, time: "19:30", end: "21:00",
		summary:     "Planejamento financeiro, licenças e equipe para quem vai abrir o próprio negócio.",
		description: "Uma conversa franca sobre empreender na medicina veterinária: custos de abertura, alvarás, precificação e contratação.",
		location:    "Auditório do CRMV-SP — Rua Apeninos, 1088, São Paulo (SP)", instructor: "Dr. Paulo Henrique Lima", price: "Gratuito",
		max: 120, icon: "💼"},
	{key: "workshop-ultrassom-passado", title: "Workshop de ultrassonografia abdominal", kind: "Workshop", inDays: -10, time: "14:00", end: "18:00",
		summary:     "Cortes padronizados do abdome de cães e gatos, com prática em modelos.",
		description: "Turma encerrada. Novas datas em breve.",
		location:    "Clínica Escola Vet — Rua Domingos de Morais, 2300, São Paulo (SP)", instructor: "Dr. Ricardo Nunes", price: "R$ 320,00",
		max: 16, icon: "🔬"},
	{key: "congresso-bovinos-passado", title: "Congresso de Buiatria do Centro-Oeste", kind: "Congresso", inDays: -24, time: "08:00", end: "18:00",
		summary:     "Sanidade do rebanho, reprodução e bem-estar de bovinos de corte e leite.",
		description: "Três dias de programação científica com foco na pecuária do Centro-Oeste.",
		location:    "Centro de Eventos do Pantanal — Cuiabá (MT)", instructor: "Comissão organizadora", price: "R$ 350,00",
		max: 600, icon: "🐄"},
}

// seedEvents creates and publishes the demo events when the events plugin
// is loaded (its type registered), and fills the almost-full one with the
// demo team.
func (a demo) seedEvents(ctx context.Context, ids map[string]string, stdout io.Writer) error {
	if _, ok := a.Content.Registry.Get("eventos"); !ok || a.Eventos == nil {
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
	for _, e := range demoEvents {
		fields := map[string]any{
			"description": e.description, "event_type": e.kind, "event_date": today.AddDate(0, 0, e.inDays).Format(time.DateOnly),
			"event_time": e.time, "end_time": e.end, "time_zone": "America/Sao_Paulo", "online": e.online,
			"instructor": e.instructor, "price_text": e.price, "max_participants": e.max, "icon": e.icon,
		}
		if e.online {
			fields["meeting_url"] = "https://meet.jit.si/vetclube-" + e.key
		} else {
			fields["location"] = e.location
		}
		it, isNew, err := a.Content.Store.Create(ctx, editor, "eventos",
			content.Input{Slug: e.key, Title: e.title, Summary: e.summary, Fields: fields}, "seed:eventos:"+e.key)
		if err != nil {
			return fmt.Errorf("event %s: %w", e.key, err)
		}
		if isNew {
			created++
			wf := a.Content.Workflow
			for _, step := range []struct {
				actor content.Actor
				role  editorial.Role
				act   editorial.Action
			}{{editor, editorial.RoleEditor, editorial.ActionSubmit}, {revisor, editorial.RoleRevisor, editorial.ActionApprove},
				{revisor, editorial.RoleRevisor, editorial.ActionPublish}} {
				if it, err = wf.Act(ctx, step.actor, []editorial.Role{step.role}, it.ID, it.Version, step.act, ""); err != nil {
					return fmt.Errorf("event %s: %s: %w", e.key, step.act, err)
				}
			}
		}
		if e.takenByDemoTeam {
			for _, email := range []string{"admin@vetclube.dev", "editora@vetclube.dev", "revisor@vetclube.dev"} {
				// Once the event went offline (24 h after its end) there is no seat to take.
				err := a.Eventos.Signups().Join(ctx, it.ID, ids[email])
				if core.ErrorCode(err) == core.ENOTFOUND {
					break
				}
				if err != nil {
					return fmt.Errorf("event %s: seat for %s: %w", e.key, email, err)
				}
			}
		}
	}
	if created > 0 {
		fmt.Fprintf(stdout, "  %d eventos de demonstração criados (próximas semanas, um quase lotado, e dois passados)\n", created)
	}
	return nil
}
