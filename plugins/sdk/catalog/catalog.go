// Package catalog is what the catalogue content plugins (courses, exclusive
// videos) declare alike: a playable video's source and the field each
// source fills, the levels, the duration, the categories, and the checks of
// what editors give. One declaration keeps the plugins' forms, and the
// readers' players fed from them, in step.
package catalog

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"

	"github.com/vetclube/vetclube/plugins/sdk"
	"github.com/vetclube/vetclube/plugins/sdk/videourl"
)

// Field names of a playable video in a content type.
const (
	FieldSource   = "video_source"
	FieldYouTube  = "youtube_url"
	FieldVimeo    = "vimeo_url"
	FieldUpload   = "video_asset"
	FieldStream   = "stream_url"
	FieldDuration = "duration"
)

// Sources are the values of video_source, in the order a reading model
// infers the source when none is chosen (the first filled field).
var Sources = []sdk.ContentOption{
	{Value: "youtube", Label: "YouTube"},
	{Value: "vimeo", Label: "Vimeo"},
	{Value: "upload", Label: "Vídeo enviado (biblioteca de mídia)"},
	{Value: "stream", Label: "Transmissão (endereço HLS)"},
}

// Levels a course or a video may have; the catalogues filter on them.
var Levels = []sdk.ContentOption{
	{Value: "Iniciante", Label: "Iniciante"},
	{Value: "Intermediário", Label: "Intermediário"},
	{Value: "Avançado", Label: "Avançado"},
}

// DurationPattern is a video's duration as editors write it: mm:ss or h:mm:ss.
const DurationPattern = `([0-9]{1,2}:[0-5][0-9]:[0-5][0-9]|[0-9]{1,3}:[0-5][0-9])`

// Messages editors read.
const (
	MsgDuration      = "Informe a duração como mm:ss ou h:mm:ss (ex.: 12:30)."
	MsgYouTubeURL    = "Informe um endereço de vídeo do YouTube (youtube.com/watch?v=… ou youtu.be/…)."
	MsgVimeoURL      = "Informe um endereço de vídeo do Vimeo (vimeo.com/…)."
	MsgStreamURL     = "Informe um endereço de transmissão que comece com https://."
	MsgSourceMissing = "Preencha o campo da origem de vídeo escolhida."
	MsgWholeNumber   = "Informe um número inteiro."
)

// Category is a catalogue's category type: listed when active, by display
// order; its title is the name.
func Category(id, singular, plural string) sdk.ContentType {
	return sdk.ContentType{
		ID: id, Singular: singular, Plural: plural, Icon: "folder",
		Fields:   CategoryFields(),
		List:     sdk.ContentList{DefaultSort: sdk.ContentSort{Field: "display_order"}},
		Workflow: sdk.WorkflowEditorial,
	}
}

// CategoryFields are a category's fields: its place in the filters, whether
// it is hidden from them, and is_active computed from that.
func CategoryFields() []sdk.ContentField {
	return []sdk.ContentField{
		{Name: "display_order", Label: "Ordem de exibição", Kind: sdk.ContentNumber, Min: sdk.Bound(0), Max: sdk.Bound(10000), Listed: true, Sortable: true},
		{Name: "hidden", Label: "Ocultar dos filtros", Kind: sdk.ContentBoolean},
		{Name: "is_active", Label: "Ativa", Kind: sdk.ContentBoolean, Computed: true, Listed: true,
			Help: "Calculado: ativa enquanto não estiver oculta."},
	}
}

// CheckCategory adds to errs what is wrong with a category's fields and
// returns its computed ones.
func CheckCategory(f map[string]any, errs map[string]string) map[string]any {
	if n, ok := f["display_order"].(float64); ok && n != float64(int64(n)) {
		errs["display_order"] = MsgWholeNumber
	}
	hidden, _ := f["hidden"].(bool)
	return map[string]any{"is_active": !hidden}
}

// VideoFields are the source choice and one field a source, as a content type
// declares them (required: whether a source must be chosen).
func VideoFields(required bool, uploadHelp string) []sdk.ContentField {
	return []sdk.ContentField{
		{Name: FieldSource, Label: "Origem do vídeo", Kind: sdk.ContentSelect, Options: Sources, Required: required, Listed: required},
		{Name: FieldYouTube, Label: "Endereço no YouTube", Kind: sdk.ContentURL, Max: sdk.Bound(500)},
		{Name: FieldVimeo, Label: "Endereço no Vimeo", Kind: sdk.ContentURL, Max: sdk.Bound(500)},
		{Name: FieldStream, Label: "Endereço da transmissão (HLS)", Kind: sdk.ContentURL, Max: sdk.Bound(1000)},
		{Name: FieldUpload, Label: "Vídeo enviado", Kind: sdk.ContentVideo, Help: uploadHelp},
	}
}

// DurationFields are the duration editors write and the seconds computed
// from it (by Computed).
func DurationFields() []sdk.ContentField {
	return []sdk.ContentField{
		{Name: FieldDuration, Label: "Duração", Kind: sdk.ContentText, Pattern: DurationPattern,
			PatternMessage: MsgDuration, Listed: true},
		{Name: "duration_seconds", Label: "Duração em segundos", Kind: sdk.ContentNumber, Computed: true, Min: sdk.Bound(0), Max: sdk.Bound(360000)},
	}
}

// Computed is the computed duration_seconds of fields.
func Computed(f map[string]any) map[string]any {
	return map[string]any{"duration_seconds": float64(DurationSeconds(Str(f[FieldDuration])))}
}

// SourceField is the field a source fills ("" for an unknown source).
func SourceField(src string) string {
	switch src {
	case "youtube":
		return FieldYouTube
	case "vimeo":
		return FieldVimeo
	case "upload":
		return FieldUpload
	case "stream":
		return FieldStream
	}
	return ""
}

// CheckVideo adds to errs what is wrong with the addresses in f: a YouTube or
// Vimeo field that is not one of theirs, a stream not on https, the chosen
// source's field left empty.
func CheckVideo(f map[string]any, errs map[string]string) {
	if u := Str(f[FieldYouTube]); u != "" && videourl.YouTubeID(u) == "" {
		errs[FieldYouTube] = MsgYouTubeURL
	}
	if u := Str(f[FieldVimeo]); u != "" && videourl.VimeoID(u) == "" {
		errs[FieldVimeo] = MsgVimeoURL
	}
	if u := Str(f[FieldStream]); u != "" && !httpsURL(u) {
		errs[FieldStream] = MsgStreamURL
	}
	if field := SourceField(Str(f[FieldSource])); field != "" && IsEmpty(f[field]) && errs[field] == "" {
		errs[field] = MsgSourceMissing
	}
}

// EffectiveSource is the source readers get: the chosen one, else the first
// of Sources whose field is filled ("" when none is).
func EffectiveSource(f map[string]any) string {
	if src := Str(f[FieldSource]); src != "" {
		return src
	}
	for _, s := range Sources {
		if !IsEmpty(f[SourceField(s.Value)]) {
			return s.Value
		}
	}
	return ""
}

// Playable reports whether f names a video: the chosen source's field, or,
// with no source chosen, any of them.
func Playable(f map[string]any) bool {
	src := EffectiveSource(f)
	return src != "" && !IsEmpty(f[SourceField(src)])
}

// GatedForUpload says whether a move to state needs an uploaded video to be
// processed first: a reviewer must be able to watch what they approve, and
// a scheduled publish must not fire on a video that cannot play.
func GatedForUpload(to string) bool {
	switch to {
	case "em_revisao", "aprovado", "agendado", "publicado":
		return true
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

// httpsURL accepts an https address, or a plain http one on this machine's
// loopback: a stream a developer serves locally. Readers' browsers fetch
// stream addresses (the server never does), and an https page may not load
// a plain-http stream from anywhere else.
func httpsURL(raw string) bool {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return false
	}
	switch u.Scheme {
	case "https":
		return true
	case "http":
		host := u.Hostname()
		if host == "localhost" {
			return true
		}
		ip := net.ParseIP(host)
		return ip != nil && ip.IsLoopback()
	}
	return false
}

// Str is v as a string ("" when it is not one).
func Str(v any) string {
	s, _ := v.(string)
	return s
}

// IsEmpty reports whether a field's value is missing or blank.
func IsEmpty(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return strings.TrimSpace(x) == ""
	default:
		return fmt.Sprint(x) == ""
	}
}
