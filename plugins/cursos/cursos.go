package main

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/vetclube/vetclube/plugins/sdk"
	"github.com/vetclube/vetclube/plugins/sdk/videourl"
)

// Type ids. core/courses reads their published snapshots: the field names
// below are its contract.
const (
	CourseType     = "cursos"
	ModuleType     = "cursos-modulos"
	LessonType     = "cursos-aulas"
	CategoryType   = "cursos-categorias"
	InstructorType = "cursos-instrutores"
)

// Levels a course may have; the catalogue filters on them.
var Levels = []sdk.ContentOption{
	{Value: "Iniciante", Label: "Iniciante"},
	{Value: "Intermediário", Label: "Intermediário"},
	{Value: "Avançado", Label: "Avançado"},
}

// Video sources of a lesson (the spec's videoSource).
var VideoSources = []sdk.ContentOption{
	{Value: "youtube", Label: "YouTube"},
	{Value: "vimeo", Label: "Vimeo"},
	{Value: "upload", Label: "Vídeo enviado (biblioteca de mídia)"},
	{Value: "stream", Label: "Transmissão (endereço HLS)"},
}

// MaterialTypes classify a lesson's support material (spec default 'other').
var MaterialTypes = []sdk.ContentOption{
	{Value: "pdf", Label: "PDF"},
	{Value: "slides", Label: "Slides"},
	{Value: "planilha", Label: "Planilha"},
	{Value: "link", Label: "Link"},
	{Value: "other", Label: "Outro"},
}

const durationPattern = `([0-9]{1,2}:[0-5][0-9]:[0-5][0-9]|[0-9]{1,3}:[0-5][0-9])`

// CourseTypeDecl is the course.
var CourseTypeDecl = sdk.ContentType{
	ID: CourseType, Singular: "Curso", Plural: "Cursos", Icon: "graduation-cap", Route: "/cursos",
	Fields: []sdk.ContentField{
		{Name: "description", Label: "Descrição", Kind: sdk.ContentLongText, Required: true, Min: sdk.Bound(20), Max: sdk.Bound(20000),
			Searchable: true, Help: "Markdown. Os primeiros 100 caracteres aparecem no catálogo."},
		{Name: "category", Label: "Categoria", Kind: sdk.ContentReference, Target: CategoryType, Listed: true, Filterable: true},
		{Name: "instructor", Label: "Instrutor(a)", Kind: sdk.ContentReference, Target: InstructorType, Listed: true, Filterable: true},
		{Name: "level", Label: "Nível", Kind: sdk.ContentSelect, Options: Levels, Listed: true, Filterable: true},
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
	Fields: []sdk.ContentField{
		{Name: "description", Label: "Descrição", Kind: sdk.ContentLongText, Max: sdk.Bound(5000)},
		{Name: "body", Label: "Texto da aula", Kind: sdk.ContentLongText, Max: sdk.Bound(100000),
			Help: "Markdown. Uma aula sem vídeo precisa de texto."},
		{Name: "duration", Label: "Duração", Kind: sdk.ContentText, Pattern: durationPattern,
			PatternMessage: "Informe a duração como mm:ss ou h:mm:ss (ex.: 12:30).", Listed: true},
		{Name: "duration_seconds", Label: "Duração em segundos", Kind: sdk.ContentNumber, Computed: true, Min: sdk.Bound(0), Max: sdk.Bound(360000)},
		{Name: "is_free", Label: "Aula gratuita", Kind: sdk.ContentBoolean, Listed: true, Help: "Aberta a todos os usuários conectados."},
		{Name: "is_optional", Label: "Aula opcional", Kind: sdk.ContentBoolean, Help: "Não conta para o progresso do curso."},
		{Name: "video_source", Label: "Origem do vídeo", Kind: sdk.ContentSelect, Options: VideoSources},
		{Name: "youtube_url", Label: "Endereço no YouTube", Kind: sdk.ContentURL, Max: sdk.Bound(500)},
		{Name: "vimeo_url", Label: "Endereço no Vimeo", Kind: sdk.ContentURL, Max: sdk.Bound(500)},
		{Name: "video_asset", Label: "Vídeo enviado", Kind: sdk.ContentVideo},
		{Name: "stream_url", Label: "Endereço da transmissão (HLS)", Kind: sdk.ContentURL, Max: sdk.Bound(1000)},
		{Name: "cover_image", Label: "Imagem de capa", Kind: sdk.ContentImage},
		{Name: "external_link_url", Label: "Link externo", Kind: sdk.ContentURL, Max: sdk.Bound(1000)},
		{Name: "external_link_title", Label: "Título do link externo", Kind: sdk.ContentText, Max: sdk.Bound(120)},
		{Name: "support_material_file", Label: "Material de apoio (arquivo)", Kind: sdk.ContentFile},
		{Name: "support_material_url", Label: "Material de apoio (endereço)", Kind: sdk.ContentURL, Max: sdk.Bound(1000)},
		{Name: "support_material_title", Label: "Título do material de apoio", Kind: sdk.ContentText, Max: sdk.Bound(120)},
		{Name: "support_material_type", Label: "Tipo do material de apoio", Kind: sdk.ContentSelect, Options: MaterialTypes},
		{Name: "materials", Label: "Materiais", Kind: sdk.ContentLongText, Max: sdk.Bound(5000),
			Help: "Um por linha: Título | https://endereço"},
	},
	List:     sdk.ContentList{DefaultSort: sdk.ContentSort{Field: "title"}},
	Workflow: sdk.WorkflowEditorial,
}

// CategoryTypeDecl is a course category (listed when active, by display order).
var CategoryTypeDecl = sdk.ContentType{
	ID: CategoryType, Singular: "Categoria de curso", Plural: "Categorias de curso", Icon: "folder",
	Fields: []sdk.ContentField{
		{Name: "display_order", Label: "Ordem de exibição", Kind: sdk.ContentNumber, Min: sdk.Bound(0), Max: sdk.Bound(10000), Listed: true, Sortable: true},
		{Name: "hidden", Label: "Ocultar dos filtros", Kind: sdk.ContentBoolean},
		{Name: "is_active", Label: "Ativa", Kind: sdk.ContentBoolean, Computed: true, Listed: true,
			Help: "Calculado: ativa enquanto não estiver oculta."},
	},
	List:     sdk.ContentList{DefaultSort: sdk.ContentSort{Field: "display_order"}},
	Workflow: sdk.WorkflowEditorial,
}

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
	MsgYouTubeURL       = "Informe um endereço de vídeo do YouTube (youtube.com/watch?v=… ou youtu.be/…)."
	MsgVimeoURL         = "Informe um endereço de vídeo do Vimeo (vimeo.com/…)."
	MsgSourceMissing    = "Preencha o campo da origem de vídeo escolhida."
	MsgMaterialsFormat  = "Cada linha deve ter o formato Título | https://endereço."
	MsgWholeNumber      = "Informe um número inteiro."
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
		computed = map[string]any{"duration_seconds": float64(DurationSeconds(str(it.Fields["duration"])))}
		validateLesson(it.Fields, errs)
	case CourseType:
		price, hasPrice := it.Fields["price"].(float64)
		if orig, ok := it.Fields["original_price"].(float64); ok && hasPrice && orig < price {
			errs["original_price"] = MsgOriginalPrice
		}
		for _, f := range []string{"total_ratings", "certificate_hours"} {
			if n, ok := it.Fields[f].(float64); ok && n != float64(int64(n)) {
				errs[f] = MsgWholeNumber
			}
		}
	case CategoryType:
		hidden, _ := it.Fields["hidden"].(bool)
		computed = map[string]any{"is_active": !hidden}
		if n, ok := it.Fields["display_order"].(float64); ok && n != float64(int64(n)) {
			errs["display_order"] = MsgWholeNumber
		}
	}
	check := sdk.ContentCheck{Computed: computed}
	if len(errs) > 0 {
		check.Errors = errs
	}
	return check, nil
}

func validateLesson(f map[string]any, errs map[string]string) {
	if u := str(f["youtube_url"]); u != "" && videourl.YouTubeID(u) == "" {
		errs["youtube_url"] = MsgYouTubeURL
	}
	if u := str(f["vimeo_url"]); u != "" && videourl.VimeoID(u) == "" {
		errs["vimeo_url"] = MsgVimeoURL
	}
	if src := str(f["video_source"]); src != "" && sourceField(src) != "" && isEmpty(f[sourceField(src)]) {
		errs[sourceField(src)] = MsgSourceMissing
	}
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
	if it.Type == LessonType && effectiveSource(it.Fields) == "upload" && gatedForUpload(to) {
		if r := sdk.VideoNotReady(it, "video_asset"); r != "" {
			return r, nil
		}
	}
	if to != "publicado" {
		return "", nil
	}
	switch it.Type {
	case LessonType:
		if !Playable(it.Fields) && strings.TrimSpace(str(it.Fields["body"])) == "" {
			return MsgLessonNothing, nil
		}
	case ModuleType:
		if l, _ := it.Fields["lessons"].([]any); len(l) == 0 {
			return MsgModuleWithoutAny, nil
		}
	}
	return "", nil
}

// effectiveSource is the lesson's video source as readers get it: the chosen
// one, else the first filled of YouTube, Vimeo, upload and stream (the
// order core/courses' reading model infers it in).
func effectiveSource(f map[string]any) string {
	if src := str(f["video_source"]); src != "" {
		return src
	}
	for _, src := range []string{"youtube", "vimeo", "upload", "stream"} {
		if !isEmpty(f[sourceField(src)]) {
			return src
		}
	}
	return ""
}

// gatedForUpload: the moves a lesson with an uploaded video may make only
// once the video is processed.
func gatedForUpload(to string) bool {
	switch to {
	case "em_revisao", "aprovado", "agendado", "publicado":
		return true
	}
	return false
}

func sourceField(src string) string {
	switch src {
	case "youtube":
		return "youtube_url"
	case "vimeo":
		return "vimeo_url"
	case "upload":
		return "video_asset"
	case "stream":
		return "stream_url"
	}
	return ""
}

// Playable reports whether a lesson names a video: the chosen source's field,
// or, with no source chosen, any of them.
func Playable(f map[string]any) bool {
	if src := str(f["video_source"]); src != "" {
		return !isEmpty(f[sourceField(src)])
	}
	for _, s := range VideoSources {
		if !isEmpty(f[sourceField(s.Value)]) {
			return true
		}
	}
	return false
}

// DurationSeconds reads "mm:ss" or "h:mm:ss" (0 when empty or malformed).
func DurationSeconds(s string) int {
	parts := strings.Split(strings.TrimSpace(s), ":")
	if len(parts) < 2 || len(parts) > 3 {
		return 0
	}
	total := 0
	for _, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return 0
		}
		total = total*60 + n
	}
	return total
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

func str(v any) string {
	s, _ := v.(string)
	return s
}

func isEmpty(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return strings.TrimSpace(x) == ""
	default:
		return fmt.Sprint(x) == ""
	}
}
