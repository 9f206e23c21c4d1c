package ai_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/plugins/doencas/data"
)

// diseaseType mirrors the doencas plugin's declaration (field names,
// kinds and searchable flags), with the options its first edition uses.
func diseaseType(all []data.Disease) content.Type {
	opts := func(values func(data.Disease) []string) []content.Option {
		var vs []string
		for _, d := range all {
			for _, v := range values(d) {
				if !slices.Contains(vs, v) {
					vs = append(vs, v)
				}
			}
		}
		out := make([]content.Option, len(vs))
		for i, v := range vs {
			out[i] = content.Option{Value: v, Label: v}
		}
		return out
	}
	long := func(name, label string) content.Field {
		return content.Field{Name: name, Label: label, Kind: content.KindLongText, Required: true, Searchable: true}
	}
	return content.Type{ID: "doencas", Singular: "Doença", Plural: "Doenças", Icon: "stethoscope", Route: "/ferramentas/doencas",
		Fields: []content.Field{
			{Name: "synonyms", Label: "Sinônimos", Kind: content.KindTags, Searchable: true},
			{Name: "species", Label: "Espécies", Kind: content.KindMultiSelect, Required: true, Searchable: true,
				Options: opts(func(d data.Disease) []string { return d.Species })},
			{Name: "body_system", Label: "Sistema acometido", Kind: content.KindSelect, Required: true,
				Options: opts(func(d data.Disease) []string { return []string{d.BodySystem} })},
			{Name: "agent_type", Label: "Tipo de agente", Kind: content.KindSelect, Required: true,
				Options: opts(func(d data.Disease) []string { return []string{d.AgentType} })},
			{Name: "agent", Label: "Agente etiológico", Kind: content.KindText, Required: true, Searchable: true},
			long("transmission", "Transmissão"), {Name: "zoonotic", Label: "Zoonose", Kind: content.KindBoolean},
			long("sinais_clinicos", "Sinais clínicos"), long("diagnostico", "Diagnóstico"),
			long("tratamento", "Princípios de tratamento"), long("prevencao", "Prevenção e controle"),
			{Name: "notifiable", Label: "Notificação obrigatória (MAPA)", Kind: content.KindBoolean},
			{Name: "notification_list", Label: "Lista da IN MAPA nº 50/2013", Kind: content.KindSelect,
				Options: []content.Option{{Value: "1", Label: "1"}, {Value: "2", Label: "2"}, {Value: "3", Label: "3"}, {Value: "4", Label: "4"}}},
			{Name: "notification_note", Label: "Observação sobre a notificação", Kind: content.KindLongText},
			{Name: "woah_listed", Label: "Listada pela WOAH", Kind: content.KindBoolean},
			{Name: "references", Label: "Referências", Kind: content.KindLongText, Required: true},
		},
		List: content.ListSettings{DefaultSort: content.Sort{Field: content.SortTitle}}, Workflow: content.WorkflowEditorial}
}

// The assistant answers from the diseases reference: its first edition,
// published through the content store as the seed does, is retrieved for
// a question about distemper, and the source links to the disease's page
// in the tool.
func TestDiseasesAreRetrievedAndLinkToTheirPage(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	all, err := data.All()
	if err != nil {
		t.Fatal(err)
	}
	reg := content.NewRegistry()
	if err := reg.Register(diseaseType(all)); err != nil {
		t.Fatal(err)
	}
	store := content.New(f.pool, reg, content.Options{})
	editor := content.Actor{UserID: f.user(t), Channel: content.ChannelSystem}
	ids := map[string]string{}
	for _, d := range all {
		it, _, err := store.Create(ctx, editor, "doencas", content.Input{Slug: d.Slug, Title: d.Title, Summary: d.Summary, Fields: d.Fields()}, "")
		if err != nil {
			t.Fatalf("%s: %v", d.Slug, err)
		}
		if _, err := store.Publish(ctx, editor, it.ID, it.Version); err != nil {
			t.Fatalf("publish %s: %v", d.Slug, err)
		}
		ids[d.Slug] = it.ID
	}
	// News about dogs compete with the diseases.
	f.publish(t, "campanha-vacinas", "Campanha de vacinação de cães", vaccineBody)
	reader := f.user(t)
	for question, slug := range map[string]string{
		"Quais são os sinais clínicos da cinomose em cães?":             "cinomose",
		"Como se faz o diagnóstico da leptospirose?":                    "leptospirose",
		"Meu gato tem feridas no nariz, pode ser esporotricose?":        "esporotricose",
		"O mormo em equinos precisa ser notificado ao serviço oficial?": "mormo",
	} {
		src, err := f.svc.Retrieve(ctx, reader, question)
		if err != nil || len(src) == 0 {
			t.Fatalf("%q: %+v %v", question, src, err)
		}
		if src[0].ItemID != ids[slug] || src[0].Type != "doencas" || src[0].URL != "/ferramentas/doencas/"+slug || src[0].Text == "" {
			t.Errorf("%q: first source %+v", question, src[0])
		}
	}
	src, _ := f.svc.Retrieve(ctx, reader, "Quais são os sinais clínicos da cinomose em cães?")
	if !strings.Contains(strings.ToLower(src[0].Text), "mioclonias") {
		t.Errorf("the passage holds the clinical signs: %q", src[0].Text)
	}
}
