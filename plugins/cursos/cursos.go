package main

import (
	"context"
	"net/url"
	"slices"
	"strings"

	"github.com/vetclube/vetclube/plugins/sdk"
	"github.com/vetclube/vetclube/plugins/sdk/catalog"
)

// Type ids. core/courses reads their published snapshots: the field names
// below are its contract, which TestProjectionReadsDeclaredFields checks
// against the course_listings_sync trigger.
const (
	CourseType     = "cursos"
	ModuleType     = "cursos-modulos"
	LessonType     = "cursos-aulas"
	CategoryType   = "cursos-categorias"
	InstructorType = "cursos-instrutores"
)

// MaterialTypes classify a lesson's support material (default 'other').
var MaterialTypes = []sdk.ContentOption{
	{Value: "pdf", Label: "PDF"},
	{Value: "slides", Label: "Slides"},
	{Value: "planilha", Label: "Planilha"},
	{Value: "link", Label: "Link"},
	{Value: "other", Label: "Outro"},
}

// CourseTypeDecl is the course.
var CourseTypeDecl = sdk.ContentType{
	ID: CourseType, Singular: "Curso", Plural: "Cursos", Icon: "graduation-cap", Route: "/cursos",
	Fields: []sdk.ContentField{
		{Name: "description", Label: "Descrição", Kind: sdk.ContentLongText, Required: true, Min: sdk.Bound(20), Max: sdk.Bound(20000),
			Searchable: true, Help: "Markdown. Os primeiros 100 caracteres aparecem no catálogo."},
		{Name: "category", Label: "Categoria", Kind: sdk.ContentReference, Target: CategoryType, Listed: true, Filterable: true},
		{Name: "instructor", Label: "Instrutor(a)", Kind: sdk.ContentReference, Target: InstructorType, Listed: true, Filterable: true},
		{Name: "level", Label: "Nível", Kind: sdk.ContentSelect, Options: catalog.Levels, Listed: true, Filterable: true},
		{Name: "thumbnail", Label: "Imagem de capa", Kind: sdk.ContentImage, Listed: true},
		{Name: "video_intro", Label: "Vídeo de apresentação", Kind: sdk.ContentURL, Max: sdk.Bound(500),
			Help: "Endereço do YouTube, do Vimeo ou de uma transmissão HLS (.m3u8)."},
		{Name: "modules", Label: "Módulos", Kind: sdk.ContentChildren, Target: ModuleType,
			Help: "Na ordem em que aparecem no currículo."},
		{Name: "duration", Label: "Duração estimada", Kind: sdk.ContentText, Max: sdk.Bound(12), Pattern: `[0-9]{1,4}h([0-5][0-9])?|[0-9]{1,3}min`,
			PatternMessage: "Informe a duração como 10h, 1h30 ou 45min.",
			Help:           "Usada só quando alguma aula não informa a sua duração; senão a duração é a soma das aulas."},
		{Name: "no_certificate", Label: "Não emitir certificado", Kind: sdk.ContentBoolean,
			Help: "Sem marcar, quem conclui recebe um certificado com código de verificação."},
		{Name: "certificate_hours", Label: "Carga horária do certificado (horas)", Kind: sdk.ContentNumber, Min: sdk.Bound(1), Max: sdk.Bound(1000),
			Help: "Vazio: as horas da duração do curso."},
		{Name: "price", Label: "Preço (R$)", Kind: sdk.ContentNumber, Min: sdk.Bound(0), Max: sdk.Bound(100000), Listed: true},
		{Name: "original_price", Label: "Preço original (R$)", Kind: sdk.ContentNumber, Min: sdk.Bound(0), Max: sdk.Bound(100000)},
		{Name: "rating", Label: "Avaliação", Kind: sdk.ContentNumber, Min: sdk.Bound(0), Max: sdk.Bound(5), Listed: true, Sortable: true,
			Help: "De 0 a 5."},
		{Name: "total_ratings", Label: "Número de avaliações", Kind: sdk.ContentNumber, Min: sdk.Bound(0), Max: sdk.Bound(10000000)},
		{Name: "tags", Label: "Etiquetas", Kind: sdk.ContentTags, Max: sdk.Bound(12), Searchable: true, Filterable: true},
		{Name: "what_you_will_learn", Label: "O que você vai aprender", Kind: sdk.ContentLongText, Max: sdk.Bound(5000),
			Help: "Um item por linha."},
		{Name: "requirements", Label: "Requisitos", Kind: sdk.ContentLongText, Max: sdk.Bound(5000), Help: "Um item por linha."},
		{Name: "objectives", Label: "Objetivos", Kind: sdk.ContentLongText, Max: sdk.Bound(5000), Help: "Um item por linha."},
	},
	List:     sdk.ContentList{DefaultSort: sdk.ContentSort{Field: "published_at", Desc: true}, PageSize: 20},
	Workflow: sdk.WorkflowEditorial,
}

// ModuleTypeDecl is a course module: an ordered list of lessons.
var ModuleTypeDecl = sdk.ContentType{
	ID: ModuleType, Singular: "Módulo", Plural: "Módulos de curso", Icon: "layers",
	Fields: []sdk.ContentField{
		{Name: "description", Label: "Descrição", Kind: sdk.ContentLongText, Max: sdk.Bound(5000)},
		{Name: "lessons", Label: "Aulas", Kind: sdk.ContentChildren, Target: LessonType, Help: "Na ordem em que aparecem no módulo."},
	},
	List:     sdk.ContentList{DefaultSort: sdk.ContentSort{Field: "title"}},
	Workflow: sdk.WorkflowEditorial,
}

// LessonTypeDecl is a lesson.
var LessonTypeDecl = sdk.ContentType{
	ID: LessonType, Singular: "Aula", Plural: "Aulas", Icon: "play-circle",
	Fields: slices.Concat([]sdk.ContentField{
		{Name: "description", Label: "Descrição", Kind: sdk.ContentLongText, Max: sdk.Bound(5000)},
		{Name: "body", Label: "Texto da aula", Kind: sdk.ContentLongText, Max: sdk.Bound(100000),
			Help: "Markdown. Uma aula sem vídeo precisa de texto."},
	}, catalog.DurationFields(), []sdk.ContentField{
		{Name: "is_free", Label: "Aula gratuita", Kind: sdk.ContentBoolean, Listed: true, Help: "Aberta a todos os usuários conectados."},
		{Name: "is_optional", Label: "Aula opcional", Kind: sdk.ContentBoolean, Help: "Não conta para o progresso do curso."},
	}, catalog.VideoFields(false, ""), []sdk.ContentField{
		{Name: "cover_image", Label: "Imagem de capa", Kind: sdk.ContentImage},
		{Name: "external_link_url", Label: "Link externo", Kind: sdk.ContentURL, Max: sdk.Bound(1000)},
		{Name: "external_link_title", Label: "Título do link externo", Kind: sdk.ContentText, Max: sdk.Bound(120)},
		{Name: "support_material_file", Label: "Material de apoio (arquivo)", Kind: sdk.ContentFile},
		{Name: "support_material_url", Label: "Material de apoio (endereço)", Kind: sdk.ContentURL, Max: sdk.Bound(1000)},
		{Name: "support_material_title", Label: "Título do material de apoio", Kind: sdk.ContentText, Max: sdk.Bound(120)},
		{Name: "support_material_type", Label: "Tipo do material de apoio", Kind: sdk.ContentSelect, Options: MaterialTypes},
		{Name: "materials", Label: "Materiais", Kind: sdk.ContentLongText, Max: sdk.Bound(5000),
			Help: "Um por linha: Título | https://endereço"},
	}),
	List:     sdk.ContentList{DefaultSort: sdk.ContentSort{Field: "title"}},
	Workflow: sdk.WorkflowEditorial,
}

// CategoryTypeDecl is a course category.
var CategoryTypeDecl = catalog.Category(CategoryType, "Categoria de curso", "Categorias de curso")

// InstructorTypeDecl is an instructor (the item's title is the name).
var InstructorTypeDecl = sdk.ContentType{
	ID: InstructorType, Singular: "Instrutor(a)", Plural: "Instrutores", Icon: "user-round",
	Fields: []sdk.ContentField{
		{Name: "professional_title", Label: "Título profissional", Kind: sdk.ContentText, Max: sdk.Bound(120), Listed: true,
			Help: "Ex.: Médica veterinária, mestre em clínica cirúrgica"},
		{Name: "avatar", Label: "Foto", Kind: sdk.ContentImage},
		{Name: "bio", Label: "Minibiografia", Kind: sdk.ContentLongText, Max: sdk.Bound(3000)},
	},
	List:     sdk.ContentList{DefaultSort: sdk.ContentSort{Field: "title"}},
	Workflow: sdk.WorkflowEditorial,
}

// Plugin is everything Serve needs; tests start the same value.
func Plugin() sdk.Tool {
	return sdk.Tool{
		Manifest: sdk.Manifest{
			ID: CourseType, Name: "Cursos",
			Description: "Cursos com módulos e aulas em vídeo, progresso, certificados e VetCoins.",
			Version:     "1.0.0", MinCoreVersion: "1.0.0",
			Kind: sdk.KindContent, Icon: "graduation-cap",
			ContentTypes: []sdk.ContentType{CourseTypeDecl, ModuleTypeDecl, LessonTypeDecl, CategoryTypeDecl, InstructorTypeDecl},
		},
		Content: sdk.ContentHooks{ValidateContent: Validate, BeforeTransition: BeforeTransition},
	}
}

// Messages editors read.
const (
	MsgMaterialsFormat  = "Cada linha deve ter o formato Título | https://endereço."
	MsgOriginalPrice    = "O preço original deve ser maior ou igual ao preço."
	MsgExternalLinkURL  = "Informe o endereço do link externo."
	MsgLessonNothing    = "A aula precisa de um vídeo (YouTube, Vimeo, enviado ou transmissão) ou de um texto para ser publicada."
	MsgModuleWithoutAny = "O módulo precisa de pelo menos uma aula para ser publicado."
)

// Validate is the ValidateContent hook.
func Validate(_ context.Context, _ *sdk.Host, it sdk.ContentItem) (sdk.ContentCheck, error) {
	errs := map[string]string{}
	var computed map[string]any
	switch it.Type {
	case LessonType:
		computed = catalog.Computed(it.Fields)
		validateLesson(it.Fields, errs)
	case CourseType:
		price, hasPrice := it.Fields["price"].(float64)
		if orig, ok := it.Fields["original_price"].(float64); ok && hasPrice && orig < price {
			errs["original_price"] = MsgOriginalPrice
		}
		for _, f := range []string{"total_ratings", "certificate_hours"} {
			if n, ok := it.Fields[f].(float64); ok && n != float64(int64(n)) {
				errs[f] = catalog.MsgWholeNumber
			}
		}
	case CategoryType:
		computed = catalog.CheckCategory(it.Fields, errs)
	}
	check := sdk.ContentCheck{Computed: computed}
	if len(errs) > 0 {
		check.Errors = errs
	}
	return check, nil
}

func validateLesson(f map[string]any, errs map[string]string) {
	catalog.CheckVideo(f, errs)
	if m := str(f["materials"]); m != "" {
		if _, ok := ParseMaterials(m); !ok {
			errs["materials"] = MsgMaterialsFormat
		}
	}
	if str(f["external_link_title"]) != "" && str(f["external_link_url"]) == "" {
		errs["external_link_url"] = MsgExternalLinkURL
	}
}

// BeforeTransition refuses publishing a lesson with nothing to watch or read
// and a module without lessons. A lesson whose video is an upload is also
// held out of review, approval and scheduling until the media library has
// processed it: a reviewer must be able to watch what they approve. A
// course's own gate needs its children and runs in the core (core/courses).
func BeforeTransition(_ context.Context, _ *sdk.Host, it sdk.ContentItem, to string) (string, error) {
	if it.Type == LessonType && catalog.EffectiveSource(it.Fields) == "upload" && catalog.GatedForUpload(to) {
		if r := sdk.VideoNotReady(it, "video_asset"); r != "" {
			return r, nil
		}
	}
	if to != "publicado" {
		return "", nil
	}
	switch it.Type {
	case LessonType:
		if !catalog.Playable(it.Fields) && strings.TrimSpace(str(it.Fields["body"])) == "" {
			return MsgLessonNothing, nil
		}
	case ModuleType:
		if l, _ := it.Fields["lessons"].([]any); len(l) == 0 {
			return MsgModuleWithoutAny, nil
		}
	}
	return "", nil
}

// Material is one line of a lesson's materials.
type Material struct{ Title, URL string }

// ParseMaterials reads "Título | https://endereço" lines (blank lines
// skipped); ok is false when a line is malformed.
func ParseMaterials(s string) ([]Material, bool) {
	var out []Material
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		title, addr, found := strings.Cut(line, "|")
		title, addr = strings.TrimSpace(title), strings.TrimSpace(addr)
		u, err := url.Parse(addr)
		if !found || title == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, false
		}
		out = append(out, Material{Title: title, URL: addr})
	}
	return out, true
}

func str(v any) string { return catalog.Str(v) }
