package content_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/vetclube/vetclube/core/content"
)

func ptr(f float64) *float64 { return &f }

// newsType is a news-like type exercising most field kinds.
func newsType() content.Type {
	return content.Type{
		ID: "noticias", Singular: "Notícia", Plural: "Notícias", Icon: "newspaper",
		Fields: []content.Field{
			{Name: "body", Label: "Texto", Kind: content.KindLongText, Required: true, Min: ptr(10), Searchable: true},
			{Name: "cover", Label: "Imagem de capa", Kind: content.KindImage, Listed: true},
			{Name: "source_name", Label: "Fonte", Kind: content.KindText, Max: ptr(80), Listed: true},
			{Name: "source_url", Label: "Link da fonte", Kind: content.KindURL},
			{Name: "category", Label: "Categoria", Kind: content.KindSelect, Required: true, Listed: true, Filterable: true, Sortable: true, Searchable: true,
				Options: []content.Option{{Value: "clinica", Label: "Clínica"}, {Value: "cirurgia", Label: "Cirurgia"}, {Value: "mercado", Label: "Mercado"}}},
			{Name: "species", Label: "Espécies", Kind: content.KindMultiSelect, Max: ptr(2), Filterable: true,
				Options: []content.Option{{Value: "caes", Label: "Cães"}, {Value: "gatos", Label: "Gatos"}, {Value: "equinos", Label: "Equinos"}}},
			{Name: "tags", Label: "Etiquetas", Kind: content.KindTags, Listed: true, Filterable: true, Searchable: true, Min: ptr(1), Max: ptr(5)},
			{Name: "reading_time", Label: "Tempo de leitura", Kind: content.KindNumber, Min: ptr(1), Max: ptr(60), Sortable: true, Filterable: true, Listed: true},
			{Name: "featured", Label: "Destaque", Kind: content.KindBoolean, Filterable: true},
			{Name: "event_date", Label: "Data do evento", Kind: content.KindDate, Filterable: true, Sortable: true},
			{Name: "starts_at", Label: "Início", Kind: content.KindDateTime, Filterable: true},
			{Name: "video", Label: "Vídeo", Kind: content.KindVideo},
			{Name: "material", Label: "Material", Kind: content.KindFile},
			{Name: "crmv", Label: "CRMV do autor", Kind: content.KindText, Pattern: `[A-Z]{2}-\d{3,6}`},
			{Name: "related", Label: "Notícias relacionadas", Kind: content.KindReference, Target: "noticias", Many: true, Max: ptr(3)},
			{Name: "sequel", Label: "Continuação", Kind: content.KindReference, Target: "noticias"},
		},
		List: content.ListSettings{PageSize: 10},
	}
}

func registered(t *testing.T, types ...content.Type) *content.Registry {
	t.Helper()
	reg := content.NewRegistry()
	for _, ty := range types {
		if err := reg.Register(ty); err != nil {
			t.Fatal(err)
		}
	}
	return reg
}

func TestRegistryRejectsBadDeclarations(t *testing.T) {
	cases := map[string]func(*content.Type){
		"id with capitals":       func(ty *content.Type) { ty.ID = "Noticias" },
		"id too short":           func(ty *content.Type) { ty.ID = "n" },
		"no plural":              func(ty *content.Type) { ty.Plural = "" },
		"unknown kind":           func(ty *content.Type) { ty.Fields[0].Kind = "color" },
		"reserved field name":    func(ty *content.Type) { ty.Fields[0].Name = "title" },
		"duplicate field":        func(ty *content.Type) { ty.Fields[1].Name = ty.Fields[0].Name },
		"select without options": func(ty *content.Type) { ty.Fields[4].Options = nil },
		"reference no target":    func(ty *content.Type) { ty.Fields[15].Target = "" },
		"sortable long text":     func(ty *content.Type) { ty.Fields[0].Sortable = true },
		"bad pattern":            func(ty *content.Type) { ty.Fields[14].Pattern = "([" },
		"min above max":          func(ty *content.Type) { ty.Fields[7].Min = ptr(100) },
		"unknown default sort":   func(ty *content.Type) { ty.List.DefaultSort = content.Sort{Field: "body"} },
		"page size too big":      func(ty *content.Type) { ty.List.PageSize = 1000 },
		"unknown workflow":       func(ty *content.Type) { ty.Workflow = "wiki" },
		"id the API reserves":    func(ty *content.Type) { ty.ID = "types" },
		"route not a path":       func(ty *content.Type) { ty.Route = "noticias veterinárias" },
		"computed and required":  func(ty *content.Type) { ty.Fields[0].Computed = true },
	}
	for name, mutate := range cases {
		t.Run(name, func(t *testing.T) {
			ty := newsType()
			mutate(&ty)
			if err := content.NewRegistry().Register(ty); err == nil {
				t.Fatal("declaration accepted")
			}
		})
	}
	reg := registered(t, newsType())
	if err := reg.Register(newsType()); err == nil {
		t.Fatal("a type id was registered twice")
	}
	// A plugin may declare its type again (a restart after an upgrade), but
	// never a type or a route another plugin serves.
	plugins := content.NewRegistry()
	news := newsType()
	news.Route = "/noticias-veterinarias"
	if err := plugins.RegisterFrom("noticias", news); err != nil {
		t.Fatal(err)
	}
	if err := plugins.RegisterFrom("noticias", news); err != nil || plugins.Owner("noticias") != "noticias" {
		t.Fatalf("re-declaration by its owner: %v", err)
	}
	if err := plugins.RegisterFrom("outro", news); err == nil {
		t.Fatal("another plugin took over a type")
	}
	other := newsType()
	other.ID, other.Route = "boletins", news.Route
	if err := plugins.RegisterFrom("outro", other); err == nil {
		t.Fatal("two types registered on one route")
	}
	got, ok := reg.Get("noticias")
	if !ok || got.Workflow != content.WorkflowEditorial || got.List.DefaultSort != (content.Sort{Field: "published_at", Desc: true}) || got.List.PageSize != 10 {
		t.Fatalf("defaults not filled: %+v", got)
	}
}

func TestValidateFieldsMessages(t *testing.T) {
	reg := registered(t, newsType())
	ty, _ := reg.Get("noticias")
	valid := map[string]any{"body": "Um texto com mais de dez letras.", "category": "clinica", "tags": []any{"cães"}}
	if errs := content.ValidateFields(ty, valid); errs != nil {
		t.Fatalf("valid values refused: %v", errs)
	}
	with := func(k string, v any) map[string]any {
		m := map[string]any{}
		for a, b := range valid {
			m[a] = b
		}
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
		return m
	}
	cases := []struct {
		name   string
		values map[string]any
		field  string
		want   string
	}{
		{"required text", with("body", nil), "body", "Preencha o campo Texto."},
		{"blank text is missing", with("body", "   "), "body", "Preencha o campo Texto."},
		{"text too short", with("body", "curto"), "body", "O campo Texto deve ter pelo menos 10 caracteres."},
		{"text not a string", with("body", 12), "body", "O campo Texto deve ser um texto."},
		{"text too long", with("source_name", strings.Repeat("a", 81)), "source_name", "O campo Fonte deve ter no máximo 80 caracteres."},
		{"required select", with("category", nil), "category", "Escolha uma opção no campo Categoria."},
		{"unknown option", with("category", "politica"), "category", "Escolha uma das opções do campo Categoria."},
		{"multi unknown option", with("species", []any{"caes", "aves"}), "species", "O campo Espécies tem uma opção que não está na lista."},
		{"multi too many", with("species", []any{"caes", "gatos", "equinos"}), "species", "Escolha no máximo 2 opções no campo Espécies."},
		{"tags too many", with("tags", []any{"a", "b", "c", "d", "e", "f"}), "tags", "Informe no máximo 5 etiquetas no campo Etiquetas."},
		{"empty optional list", with("related", []any{}), "", ""},
		{"tag too long", with("tags", []any{strings.Repeat("x", 41)}), "tags", "Cada etiqueta do campo Etiquetas deve ter de 1 a 40 caracteres."},
		{"number below min", with("reading_time", 0.5), "reading_time", "O campo Tempo de leitura deve ser no mínimo 1."},
		{"number above max", with("reading_time", 60.5), "reading_time", "O campo Tempo de leitura deve ser no máximo 60."},
		{"number as text", with("reading_time", "5"), "reading_time", "O campo Tempo de leitura deve ser um número."},
		{"boolean as text", with("featured", "sim"), "featured", "O campo Destaque deve ser sim ou não."},
		{"bad date", with("event_date", "23/11/2026"), "event_date", "Informe uma data válida no campo Data do evento."},
		{"bad datetime", with("starts_at", "2026-11-23 10:00"), "starts_at", "Informe uma data e hora válidas no campo Início."},
		{"bad url", with("source_url", "javascript:alert(1)"), "source_url", "Informe um endereço válido começando com http:// ou https:// no campo Link da fonte."},
		{"bad image key", with("cover", "../etc/passwd"), "cover", "O arquivo do campo Imagem de capa não é válido. Envie o arquivo de novo."},
		{"bad video id", with("video", "abc"), "video", "O vídeo do campo Vídeo não é válido. Envie o vídeo de novo."},
		{"pattern", with("crmv", "123"), "crmv", "O campo CRMV do autor não está no formato esperado."},
		{"bad reference", with("sequel", "x"), "sequel", "Escolha um item válido no campo Continuação."},
		{"repeated reference", with("related", []any{"6f1c8f0e-9a55-4c1e-8a43-5b0f4c4f4a11", "6f1c8f0e-9a55-4c1e-8a43-5b0f4c4f4a11"}), "related", "O campo Notícias relacionadas tem o mesmo item mais de uma vez."},
		{"unknown field", with("colour", "azul"), "colour", "Este campo não existe em Notícia."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			errs := content.ValidateFields(ty, c.values)
			if c.field == "" { // an empty optional value is simply absent
				if errs != nil {
					t.Fatalf("errors %v, want none", errs)
				}
				return
			}
			if errs[c.field] != c.want || len(errs) != 1 {
				t.Fatalf("errors %v, want only %s: %q", errs, c.field, c.want)
			}
		})
	}
}

func TestCheckFieldsNormalises(t *testing.T) {
	reg := registered(t, newsType())
	ty, _ := reg.Get("noticias")
	clean, errs := ty.CheckFields(map[string]any{
		"body": "  Texto longo o bastante.  ", "category": "clinica", "tags": []any{"Cães", "cães", " gatos "},
		"starts_at": "2026-11-23T10:00:00-03:00", "source_name": "", "featured": false,
	})
	if errs != nil {
		t.Fatal(errs)
	}
	want := map[string]any{"body": "Texto longo o bastante.", "category": "clinica", "tags": []string{"Cães", "gatos"},
		"starts_at": "2026-11-23T13:00:00Z", "featured": false}
	if !reflect.DeepEqual(clean, want) {
		t.Fatalf("clean %#v\nwant %#v", clean, want)
	}
	in, ferrs := ty.CheckInput(content.Input{Title: " ", Slug: "Com Espaço", Summary: strings.Repeat("r", 501), Fields: clean})
	if ferrs["title"] != "Preencha o campo Título." || ferrs["summary"] != "O campo Resumo deve ter no máximo 500 caracteres." ||
		!strings.HasPrefix(ferrs["slug"], "O endereço (slug) deve ter até 120 caracteres") {
		t.Fatalf("common parts: %v (%+v)", ferrs, in)
	}
	if got := content.Slugify("Cirurgia em cães: o básico (2ª edição)!"); got != "cirurgia-em-caes-o-basico-2-edicao" {
		t.Fatalf("slugify: %q", got)
	}
}
