package seed

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/editorial"
)

// demoNews are the vet news the development server starts with, in several
// editorial states, so the list, the workflow and the agenda show something
// at once. Each is created once (its idempotency key) and then moved through
// the real workflow by the demo editor and reviewer.
var demoNews = []struct {
	key, title, summary, category, source, sourceURL, body string
	tags                                                   []string
	// state is where the seed leaves it: published, in review, changes
	// requested, scheduled (tomorrow 9:00 in São Paulo), or draft.
	state content.Status
	// edited: published, then edited again (a draft readers do not see yet).
	edited bool
}{
	{key: "vacinacao-antirrabica", title: "Campanha de vacinação antirrábica amplia postos em cidades do interior",
		summary: "Prefeituras reforçam a imunização de cães e gatos e pedem apoio das clínicas na divulgação.", category: "saude-publica",
		source: "Ministério da Saúde", sourceURL: "https://www.gov.br/saude/pt-br", tags: []string{"raiva", "vacinação", "cães", "gatos"},
		state: content.StatusPublished,
		body: "A vacinação antirrábica de cães e gatos segue como a principal barreira contra a raiva humana transmitida por animais domésticos.\n\n" +
			"## O que muda para as clínicas\n\n- Mais postos volantes nos fins de semana;\n- material de divulgação para salas de espera;\n" +
			"- registro das doses aplicadas em clínicas privadas no sistema municipal.\n\nTutores devem levar a carteira de vacinação do animal."},
	{key: "cirurgia-minimamente-invasiva", title: "Cirurgia minimamente invasiva ganha espaço em clínicas de pequenos animais",
		summary: "Videocirurgia reduz dor pós-operatória e tempo de internação em castrações e biópsias.", category: "cirurgia",
		source: "Revista Clínica Veterinária", sourceURL: "https://www.revistaclinicaveterinaria.com.br/", tags: []string{"videocirurgia", "castração"},
		state: content.StatusPublished, edited: true,
		body: "A videocirurgia deixou de ser exclusividade dos hospitais-escola. Clínicas de médio porte já oferecem ovariectomia " +
			"laparoscópica e biópsias guiadas por vídeo.\n\n**Vantagens relatadas:** incisões menores, menos dor no pós-operatório e " +
			"retorno mais rápido à rotina. O investimento em equipamento e a curva de aprendizado da equipe ainda são os maiores obstáculos."},
	{key: "estudo-protocolo-cirurgico", title: "Estudo brasileiro compara protocolos de analgesia no pós-operatório de cães",
		summary: "Pesquisa avaliou escalas de dor em procedimentos ortopédicos e sugere analgesia multimodal.", category: "pesquisa",
		source: "Pesquisa Veterinária Brasileira", sourceURL: "https://www.scielo.br/j/pvb/", tags: []string{"analgesia", "ortopedia", "dor"},
		state: content.StatusPublished,
		body: "Pesquisadores acompanharam cães submetidos a procedimentos ortopédicos e compararam protocolos de analgesia " +
			"com base em escalas validadas de dor.\n\nO trabalho reforça o uso de analgesia multimodal e a reavaliação da dor a cada " +
			"quatro horas nas primeiras 24 horas após o procedimento cirúrgico."},
	{key: "mercado-pet-2026", title: "Mercado pet mantém crescimento e puxa demanda por especialistas",
		summary: "Dermatologia, cardiologia e oncologia estão entre as especialidades mais procuradas por clínicas.", category: "mercado",
		source: "Instituto Pet Brasil", sourceURL: "https://institutopetbrasil.com/", tags: []string{"mercado", "carreira"},
		state: content.StatusPublished,
		body: "O setor pet segue em expansão no Brasil, e clínicas relatam dificuldade para contratar especialistas.\n\n" +
			"Para quem está no início da carreira, residências e pós-graduações em dermatologia, cardiologia e oncologia " +
			"aparecem como caminhos com boa empregabilidade."},
	{key: "telemedicina-resolucao", title: "Conselho discute regras para a telemedicina veterinária",
		summary: "Consulta pública reúne contribuições sobre teleorientação, telemonitoramento e prescrição a distância.", category: "legislacao",
		source: "CFMV", sourceURL: "https://www.cfmv.gov.br/", tags: []string{"telemedicina", "CFMV"},
		state: content.StatusInReview,
		body: "A telemedicina veterinária está em debate. Entre os pontos discutidos estão a teleorientação de tutores, o " +
			"telemonitoramento de pacientes crônicos e os limites da prescrição sem exame presencial."},
	{key: "congresso-felinos", title: "Congresso de medicina felina abre inscrições com desconto",
		summary: "Evento reúne palestras sobre doença renal crônica, manejo de estresse e anestesia em gatos.", category: "eventos",
		source: "Associação de Medicina Felina", sourceURL: "https://www.abfel.org.br/", tags: []string{"gatos", "congresso"},
		state: content.StatusScheduled,
		body: "As inscrições para o congresso de medicina felina estão abertas, com desconto para estudantes e residentes.\n\n" +
			"A programação inclui doença renal crônica, manejo de estresse na consulta (cat friendly) e anestesia em felinos."},
	{key: "leptospirose-chuvas", title: "Período de chuvas acende alerta para leptospirose em cães",
		summary: "Veterinários reforçam a vacinação e a orientação de tutores em áreas sujeitas a alagamentos.", category: "clinica",
		source: "CRMV-SP", sourceURL: "https://crmvsp.gov.br/", tags: []string{"leptospirose", "zoonoses"},
		state: content.StatusChangesRequested,
		body: "Com as chuvas, aumentam os casos de leptospirose em cães que têm contato com água de enchentes.\n\n" +
			"Sinais como febre, vômitos, icterícia e alteração urinária pedem atendimento imediato."},
	{key: "bem-estar-bovinos", title: "Boas práticas de bem-estar no manejo de bovinos de corte",
		summary: "Manejo racional reduz lesões, estresse e perdas na qualidade da carcaça.", category: "clinica",
		tags: []string{"bovinos", "bem-estar"}, state: content.StatusDraft,
		body: "O manejo racional de bovinos, com instalações adequadas e equipe treinada, reduz hematomas, estresse e perdas " +
			"econômicas. Rascunho: falta incluir dados de frigoríficos e entrevista com zootecnista."},
}

// seedNews creates the demo news when the news plugin is loaded (its type
// registered); without it there is nothing to seed.
func (a demo) seedNews(ctx context.Context, editorID, revisorID string, stdout io.Writer) error {
	if _, ok := a.Content.Registry.Get("noticias"); !ok {
		return nil
	}
	editor := content.Actor{UserID: editorID, Channel: content.ChannelSystem}
	revisor := content.Actor{UserID: revisorID, Channel: content.ChannelSystem}
	edRoles := []editorial.Role{editorial.RoleEditor}
	revRoles := []editorial.Role{editorial.RoleRevisor}
	wf := a.Content.Workflow
	sp, err := time.LoadLocation("America/Sao_Paulo")
	if err != nil {
		return fmt.Errorf("time zone: %w", err)
	}
	created := 0
	for _, n := range demoNews {
		fields := map[string]any{"body": n.body, "category": n.category, "tags": n.tags}
		if n.source != "" {
			fields["source_name"], fields["source_url"] = n.source, n.sourceURL
		}
		it, isNew, err := a.Content.Store.Create(ctx, editor, "noticias",
			content.Input{Slug: n.key, Title: n.title, Summary: n.summary, Fields: fields}, "seed:noticias:"+n.key)
		if err != nil {
			return fmt.Errorf("news %s: %w", n.key, err)
		}
		if !isNew {
			continue
		}
		created++
		step := func(a content.Actor, roles []editorial.Role, action editorial.Action, reason string) {
			if err != nil {
				return
			}
			it, err = wf.Act(ctx, a, roles, it.ID, it.Version, action, reason)
		}
		if n.state == content.StatusDraft {
			continue
		}
		step(editor, edRoles, editorial.ActionSubmit, "")
		switch n.state {
		case content.StatusChangesRequested:
			step(revisor, revRoles, editorial.ActionRequestChanges, "Inclua a fonte dos dados de casos e revise o título.")
		case content.StatusScheduled:
			step(revisor, revRoles, editorial.ActionApprove, "")
			if err == nil {
				tomorrow := time.Now().In(sp).AddDate(0, 0, 1)
				at := time.Date(tomorrow.Year(), tomorrow.Month(), tomorrow.Day(), 9, 0, 0, 0, sp)
				it, err = wf.Schedule(ctx, revisor, revRoles, it.ID, it.Version, at)
			}
		case content.StatusPublished:
			step(revisor, revRoles, editorial.ActionApprove, "")
			step(revisor, revRoles, editorial.ActionPublish, "")
			if err == nil && n.edited {
				fields["body"] = n.body + "\n\nAtualização em preparação: depoimentos de cirurgiões sobre a adoção da técnica."
				_, err = a.Content.Store.Update(ctx, editor, it.ID, it.Version,
					content.Input{Slug: n.key, Title: n.title, Summary: n.summary, Fields: fields})
			}
		}
		if err != nil {
			return fmt.Errorf("news %s to %s: %w", n.key, n.state, err)
		}
	}
	if created > 0 {
		fmt.Fprintf(stdout, "  %d notícias de demonstração criadas (publicadas, em revisão, agendadas e rascunhos)\n", created)
	}
	return nil
}
