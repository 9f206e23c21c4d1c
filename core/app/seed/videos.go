package seed

import (
	"context"
	"fmt"
	"io"

	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/editorial"
	"github.com/vetclube/vetclube/core/videos"
)

// demoVideoCategories are the demo exclusive-video categories.
var demoVideoCategories = []struct {
	key, name string
	order     int
}{
	{"clinica", "Clínica de Pequenos Animais", 1},
	{"carreira", "Carreira e Gestão", 2},
}

// demoExclusiveVideos all play demoVideo (seed_courses.go): a PLACEHOLDER
// (Big Buck Bunny on its official channel) until real videos are published;
// their durations are the placeholder's, 10:35.
var demoExclusiveVideos = []struct {
	key, title, description, category, difficulty, instructor string
	tags                                                      []string
}{
	{"triagem-emergencia", "Triagem na emergência: os primeiros 5 minutos",
		"Como classificar a gravidade do paciente na chegada, o que checar primeiro (via aérea, respiração, circulação) e quando chamar o plantonista.",
		"clinica", "Iniciante", "Dra. Camila Rocha", []string{"emergência", "triagem"}},
	{"otite-canina", "Otite canina recorrente: abordagem prática",
		"Citologia otológica passo a passo, escolha do tratamento tópico e como conversar com o tutor sobre a doença de base.",
		"clinica", "Intermediário", "Dr. Rafael Mendes", []string{"dermatologia", "otite"}},
	{"dor-felinos", "Reconhecendo a dor em felinos",
		"A escala de expressão facial felina na rotina, sinais sutis de dor crônica e analgesia multimodal em gatos.",
		"clinica", "Intermediário", "Dra. Camila Rocha", []string{"felinos", "analgesia"}},
	{"fluidoterapia", "Fluidoterapia sem mistério",
		"Cálculo de déficit, manutenção e perdas contínuas, com exemplos de cães e gatos desidratados.",
		"clinica", "Avançado", "Dra. Camila Rocha", []string{"emergência", "fluidoterapia"}},
	{"precificacao", "Como precificar consultas e procedimentos",
		"Custos fixos e variáveis, margem e posicionamento: um método simples para definir os preços da sua clínica.",
		"carreira", "Iniciante", "Juliana Prado", []string{"gestão", "finanças"}},
	{"primeiro-emprego", "Do diploma ao primeiro emprego",
		"Currículo, entrevista, residência ou clínica própria: relatos e conselhos para o início da carreira veterinária.",
		"carreira", "Iniciante", "Juliana Prado", []string{"carreira"}},
}

// seedVideos creates and publishes the demo exclusive videos and their
// categories when the videos plugin is loaded (idempotent by key).
func (a demo) seedVideos(ctx context.Context, ids map[string]string, stdout io.Writer) error {
	if _, ok := a.Content.Registry.Get(videos.TypeVideo); !ok || a.Videos == nil {
		return nil
	}
	editor := content.Actor{UserID: ids["editora@vetclube.dev"], Channel: content.ChannelSystem}
	revisor := content.Actor{UserID: ids["revisor@vetclube.dev"], Channel: content.ChannelSystem}
	created := 0
	put := func(typ, key, title string, fields map[string]any) (string, error) {
		it, isNew, err := a.Content.Store.Create(ctx, editor, typ,
			content.Input{Slug: key, Title: title, Fields: fields}, "seed:"+typ+":"+key)
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
		if typ == videos.TypeVideo {
			created++
		}
		return it.ID, nil
	}
	cats := map[string]string{}
	for _, c := range demoVideoCategories {
		id, err := put(videos.TypeCategory, "videos-categoria-"+c.key, c.name, map[string]any{"display_order": c.order})
		if err != nil {
			return err
		}
		cats[c.key] = id
	}
	for _, v := range demoExclusiveVideos {
		if _, err := put(videos.TypeVideo, v.key, v.title, map[string]any{
			"description": v.description, "category": cats[v.category], "video_source": "youtube", "youtube_url": demoVideo,
			"duration": demoVideoDuration, "difficulty": v.difficulty, "instructor": v.instructor, "tags": v.tags,
		}); err != nil {
			return err
		}
	}
	if created > 0 {
		fmt.Fprintf(stdout, "  %d vídeos exclusivos de demonstração criados (clínica e carreira)\n", created)
	}
	a.startMediaVideos(ctx, cats, ids, stdout)
	return nil
}
