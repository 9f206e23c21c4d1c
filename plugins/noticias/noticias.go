package main

import (
	"context"
	"math"
	"strings"
	"unicode"

	"github.com/vetclube/vetclube/plugins/sdk"
)

// TypeID is the news content type.
const TypeID = "noticias"

// Categories of vet news, as editors choose them and readers filter by them.
var Categories = []sdk.ContentOption{
	{Value: "clinica", Label: "Clínica"},
	{Value: "cirurgia", Label: "Cirurgia"},
	{Value: "pesquisa", Label: "Pesquisa"},
	{Value: "saude-publica", Label: "Saúde pública"},
	{Value: "mercado", Label: "Mercado"},
	{Value: "eventos", Label: "Eventos"},
	{Value: "legislacao", Label: "Legislação"},
}

// NewsType is the declaration the core registers.
var NewsType = sdk.ContentType{
	ID: TypeID, Singular: "Notícia", Plural: "Notícias", Icon: "newspaper",
	Route: "/noticias-veterinarias",
	Fields: []sdk.ContentField{
		{Name: "cover", Label: "Imagem de capa", Kind: sdk.ContentImage, Listed: true,
			Help: "JPEG, PNG ou WebP; aparece na lista e no topo da notícia."},
		{Name: "body", Label: "Texto", Kind: sdk.ContentLongText, Required: true, Min: sdk.Bound(80), Max: sdk.Bound(40000), Searchable: true,
			Help: "Markdown: **negrito**, listas, títulos com ## e links."},
		{Name: "category", Label: "Categoria", Kind: sdk.ContentSelect, Required: true, Options: Categories,
			Listed: true, Filterable: true, Searchable: true},
		{Name: "tags", Label: "Etiquetas", Kind: sdk.ContentTags, Max: sdk.Bound(8), Listed: true, Filterable: true, Searchable: true},
		{Name: "source_name", Label: "Nome da fonte", Kind: sdk.ContentText, Max: sdk.Bound(120), Listed: true,
			Help: "Quem publicou a notícia original (ex.: CFMV, MAPA)."},
		{Name: "source_url", Label: "Link da fonte", Kind: sdk.ContentURL, Max: sdk.Bound(500)},
		{Name: "reading_minutes", Label: "Tempo de leitura (min)", Kind: sdk.ContentNumber, Min: sdk.Bound(1), Max: sdk.Bound(240),
			Computed: true, Listed: true, Sortable: true, Filterable: true,
			Help: "Calculado a partir do texto."},
	},
	List:     sdk.ContentList{DefaultSort: sdk.ContentSort{Field: "published_at", Desc: true}, PageSize: 20},
	Workflow: sdk.WorkflowEditorial,
}

// Plugin is everything Serve needs; tests start the same value.
func Plugin() sdk.Tool {
	return sdk.Tool{
		Manifest: sdk.Manifest{
			ID: TypeID, Name: "Notícias veterinárias",
			Description: "Notícias do mundo veterinário, com revisão editorial antes de publicar.",
			Version:     "1.0.0", MinCoreVersion: "1.0.0",
			Kind: sdk.KindContent, Icon: "newspaper",
			ContentTypes: []sdk.ContentType{NewsType},
		},
		Content: sdk.ContentHooks{ValidateContent: Validate},
	}
}

// Messages editors read beside the fields.
const (
	MsgSourceNameNeeded = "Informe o nome da fonte junto com o link."
	MsgSourceURLNeeded  = "Informe o link da fonte junto com o nome."
)

// Validate is the ValidateContent hook: a source is named and linked
// together (a link alone hides who said it; a name alone cannot be checked),
// and the reading time follows the text.
func Validate(_ context.Context, _ *sdk.Host, it sdk.ContentItem) (sdk.ContentCheck, error) {
	errs := map[string]string{}
	name := strings.TrimSpace(str(it.Fields["source_name"]))
	link := strings.TrimSpace(str(it.Fields["source_url"]))
	switch {
	case link != "" && name == "":
		errs["source_name"] = MsgSourceNameNeeded
	case name != "" && link == "":
		errs["source_url"] = MsgSourceURLNeeded
	}
	check := sdk.ContentCheck{Computed: map[string]any{"reading_minutes": ReadingMinutes(str(it.Fields["body"]))}}
	if len(errs) > 0 {
		check.Errors = errs
	}
	return check, nil
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// WordsPerMinute is a Portuguese adult's silent reading pace for
// informative text.
const WordsPerMinute = 200

// ReadingMinutes is the reading time of a Markdown text, rounded up, at
// least 1: words are runs of letters or digits, so Markdown marks and link
// addresses' punctuation do not count.
func ReadingMinutes(markdown string) int {
	words := 0
	in := false
	for _, r := range markdown {
		letter := unicode.IsLetter(r) || unicode.IsDigit(r)
		if letter && !in {
			words++
		}
		in = letter
	}
	return max(1, int(math.Ceil(float64(words)/WordsPerMinute)))
}
