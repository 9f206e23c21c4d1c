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

// Type ids. core/videos reads their published snapshots: the field names
// below are its contract.
const (
	VideoType    = "videos"
	CategoryType = "videos-categorias"
)

// Difficulties a video may have.
var Difficulties = []sdk.ContentOption{
	{Value: "Iniciante", Label: "Iniciante"},
	{Value: "Intermediário", Label: "Intermediário"},
	{Value: "Avançado", Label: "Avançado"},
}

// VideoSources are the spec's video_source values. An uploaded video
// ('upload') goes to review or out only once the media library finished
// processing it (BeforeTransition).
var VideoSources = []sdk.ContentOption{
	{Value: "youtube", Label: "YouTube"},
	{Value: "vimeo", Label: "Vimeo"},
	{Value: "stream", Label: "Transmissão (endereço HLS)"},
	{Value: "upload", Label: "Vídeo enviado (biblioteca de mídia)"},
}

const durationPattern = `([0-9]{1,2}:[0-5][0-9]:[0-5][0-9]|[0-9]{1,3}:[0-5][0-9])`

// VideoTypeDecl is an exclusive video.
var VideoTypeDecl = sdk.ContentType{
	ID: VideoType, Singular: "Vídeo", Plural: "Vídeos exclusivos", Icon: "clapperboard", Route: "/conteudos-exclusivos",
	Fields: []sdk.ContentField{
		{Name: "description", Label: "Descrição", Kind: sdk.ContentLongText, Max: sdk.Bound(20000), Searchable: true,
			Help: "Markdown. Os primeiros 100 caracteres aparecem na lista."},
		{Name: "category", Label: "Categoria", Kind: sdk.ContentReference, Target: CategoryType, Listed: true, Filterable: true},
		{Name: "duration", Label: "Duração", Kind: sdk.ContentText, Pattern: durationPattern,
			PatternMessage: "Informe a duração como mm:ss ou h:mm:ss (ex.: 12:30).", Listed: true},
		{Name: "duration_seconds", Label: "Duração em segundos", Kind: sdk.ContentNumber, Computed: true, Min: sdk.Bound(0), Max: sdk.Bound(360000)},
		{Name: "thumbnail", Label: "Miniatura", Kind: sdk.ContentImage, Listed: true,
			Help: "Vazia em vídeos do YouTube: usa a miniatura do próprio YouTube."},
		{Name: "video_source", Label: "Origem do vídeo", Kind: sdk.ContentSelect, Options: VideoSources, Required: true, Listed: true},
		{Name: "youtube_url", Label: "Endereço no YouTube", Kind: sdk.ContentURL, Max: sdk.Bound(500)},
		{Name: "vimeo_url", Label: "Endereço no Vimeo", Kind: sdk.ContentURL, Max: sdk.Bound(500)},
		{Name: "stream_url", Label: "Endereço da transmissão (HLS)", Kind: sdk.ContentURL, Max: sdk.Bound(1000)},
		{Name: "video_asset", Label: "Vídeo enviado", Kind: sdk.ContentVideo,
			Help: "Escolha um vídeo da biblioteca de mídia. O vídeo só pode ir para revisão depois de processado."},
		{Name: "difficulty", Label: "Dificuldade", Kind: sdk.ContentSelect, Options: Difficulties, Listed: true, Filterable: true},
		{Name: "instructor", Label: "Instrutor(a)", Kind: sdk.ContentText, Max: sdk.Bound(120), Searchable: true, Listed: true},
		{Name: "tags", Label: "Etiquetas", Kind: sdk.ContentTags, Max: sdk.Bound(12), Searchable: true, Filterable: true},
	},
	List:     sdk.ContentList{DefaultSort: sdk.ContentSort{Field: "published_at", Desc: true}, PageSize: 20},
	Workflow: sdk.WorkflowEditorial,
}

// CategoryTypeDecl is a video category (listed when active, by display order).
var CategoryTypeDecl = sdk.ContentType{
	ID: CategoryType, Singular: "Categoria de vídeo", Plural: "Categorias de vídeo", Icon: "folder",
	Fields: []sdk.ContentField{
		{Name: "display_order", Label: "Ordem de exibição", Kind: sdk.ContentNumber, Min: sdk.Bound(0), Max: sdk.Bound(10000), Listed: true, Sortable: true},
		{Name: "hidden", Label: "Ocultar dos filtros", Kind: sdk.ContentBoolean},
		{Name: "is_active", Label: "Ativa", Kind: sdk.ContentBoolean, Computed: true, Listed: true,
			Help: "Calculado: ativa enquanto não estiver oculta."},
	},
	List:     sdk.ContentList{DefaultSort: sdk.ContentSort{Field: "display_order"}},
	Workflow: sdk.WorkflowEditorial,
}

// Plugin is everything Serve needs; tests start the same value.
func Plugin() sdk.Tool {
	return sdk.Tool{
		Manifest: sdk.Manifest{
			ID: VideoType, Name: "Conteúdos exclusivos",
			Description: "Vídeos exclusivos para assinantes, com progresso, favoritos e curtidas.",
			Version:     "1.0.0", MinCoreVersion: "1.0.0",
			Kind: sdk.KindContent, Icon: "clapperboard",
			ContentTypes: []sdk.ContentType{VideoTypeDecl, CategoryTypeDecl},
		},
		Content: sdk.ContentHooks{ValidateContent: Validate, BeforeTransition: BeforeTransition},
	}
}

// Messages editors read.
const (
	MsgYouTubeURL    = "Informe um endereço de vídeo do YouTube (youtube.com/watch?v=… ou youtu.be/…)."
	MsgVimeoURL      = "Informe um endereço de vídeo do Vimeo (vimeo.com/…)."
	MsgStreamURL     = "Informe um endereço de transmissão que comece com https://."
	MsgSourceMissing = "Preencha o campo da origem de vídeo escolhida."
	MsgWholeNumber   = "Informe um número inteiro."
	MsgNothingToPlay = "O vídeo precisa de um endereço do YouTube, do Vimeo, de uma transmissão ou de um vídeo enviado para ser publicado."
)

// Validate is the ValidateContent hook.
func Validate(_ context.Context, _ *sdk.Host, it sdk.ContentItem) (sdk.ContentCheck, error) {
	errs := map[string]string{}
	var computed map[string]any
	switch it.Type {
	case VideoType:
		computed = map[string]any{"duration_seconds": float64(DurationSeconds(str(it.Fields["duration"])))}
		f := it.Fields
		if u := str(f["youtube_url"]); u != "" && videourl.YouTubeID(u) == "" {
			errs["youtube_url"] = MsgYouTubeURL
		}
		if u := str(f["vimeo_url"]); u != "" && videourl.VimeoID(u) == "" {
			errs["vimeo_url"] = MsgVimeoURL
		}
		if u := str(f["stream_url"]); u != "" && !httpsURL(u) {
			errs["stream_url"] = MsgStreamURL
		}
		if src := str(f["video_source"]); sourceField(src) != "" && isEmpty(f[sourceField(src)]) && errs[sourceField(src)] == "" {
			errs[sourceField(src)] = MsgSourceMissing
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

// BeforeTransition refuses publishing a video with nothing a player can
// play now. An uploaded video is also held out of review, approval and
// scheduling until its asset is processed: a reviewer must be able to watch
// what they approve, and a scheduled publish must not fire on a video that
// cannot play.
func BeforeTransition(_ context.Context, _ *sdk.Host, it sdk.ContentItem, to string) (string, error) {
	if it.Type != VideoType {
		return "", nil
	}
	src := str(it.Fields["video_source"])
	if src == "upload" && gatedForUpload(to) {
		return sdk.VideoNotReady(it, "video_asset"), nil
	}
	if to != "publicado" {
		return "", nil
	}
	switch src {
	case "upload":
		return "", nil
	case "youtube", "vimeo", "stream":
		if isEmpty(it.Fields[sourceField(src)]) {
			return MsgNothingToPlay, nil
		}
		return "", nil
	}
	return MsgNothingToPlay, nil
}

// gatedForUpload: the moves an uploaded video may make only once processed.
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

func httpsURL(raw string) bool {
	u, err := url.Parse(strings.TrimSpace(raw))
	return err == nil && u.Scheme == "https" && u.Host != ""
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
