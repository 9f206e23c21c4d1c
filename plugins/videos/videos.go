package main

import (
	"context"
	"slices"

	"github.com/vetclube/vetclube/plugins/sdk"
	"github.com/vetclube/vetclube/plugins/sdk/catalog"
)

// Type ids. core/videos reads their published snapshots: the field names
// below are its contract, which TestProjectionReadsDeclaredFields checks
// against the video_listings_sync trigger.
const (
	VideoType    = "videos"
	CategoryType = "videos-categorias"
)

// VideoTypeDecl is an exclusive video.
var VideoTypeDecl = sdk.ContentType{
	ID: VideoType, Singular: "Vídeo", Plural: "Vídeos exclusivos", Icon: "clapperboard", Route: "/conteudos-exclusivos",
	Fields: slices.Concat([]sdk.ContentField{
		{Name: "description", Label: "Descrição", Kind: sdk.ContentLongText, Max: sdk.Bound(20000), Searchable: true,
			Help: "Markdown. Os primeiros 100 caracteres aparecem na lista."},
		{Name: "category", Label: "Categoria", Kind: sdk.ContentReference, Target: CategoryType, Listed: true, Filterable: true},
	}, catalog.DurationFields(), []sdk.ContentField{
		{Name: "thumbnail", Label: "Miniatura", Kind: sdk.ContentImage, Listed: true,
			Help: "Vazia em vídeos do YouTube: usa a miniatura do próprio YouTube."},
	}, catalog.VideoFields(true, "Escolha um vídeo da biblioteca de mídia. O vídeo só pode ir para revisão depois de processado."), []sdk.ContentField{
		{Name: "difficulty", Label: "Dificuldade", Kind: sdk.ContentSelect, Options: catalog.Levels, Listed: true, Filterable: true},
		{Name: "instructor", Label: "Instrutor(a)", Kind: sdk.ContentText, Max: sdk.Bound(120), Searchable: true, Listed: true},
		{Name: "tags", Label: "Etiquetas", Kind: sdk.ContentTags, Max: sdk.Bound(12), Searchable: true, Filterable: true},
	}),
	List:     sdk.ContentList{DefaultSort: sdk.ContentSort{Field: "published_at", Desc: true}, PageSize: 20},
	Workflow: sdk.WorkflowEditorial,
}

// CategoryTypeDecl is a video category.
var CategoryTypeDecl = catalog.Category(CategoryType, "Categoria de vídeo", "Categorias de vídeo")

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

// MsgNothingToPlay refuses publishing a video with nothing to play.
const (
	MsgNothingToPlay = "O vídeo precisa de um endereço do YouTube, do Vimeo, de uma transmissão ou de um vídeo enviado para ser publicado."
)

// Validate is the ValidateContent hook.
func Validate(_ context.Context, _ *sdk.Host, it sdk.ContentItem) (sdk.ContentCheck, error) {
	errs := map[string]string{}
	var computed map[string]any
	switch it.Type {
	case VideoType:
		computed = catalog.Computed(it.Fields)
		catalog.CheckVideo(it.Fields, errs)
	case CategoryType:
		computed = catalog.CheckCategory(it.Fields, errs)
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
	src := catalog.Str(it.Fields[catalog.FieldSource])
	if src == "upload" && catalog.GatedForUpload(to) {
		return sdk.VideoNotReady(it, "video_asset"), nil
	}
	if to != "publicado" {
		return "", nil
	}
	switch src {
	case "upload":
		return "", nil
	case "youtube", "vimeo", "stream":
		if catalog.IsEmpty(it.Fields[catalog.SourceField(src)]) {
			return MsgNothingToPlay, nil
		}
		return "", nil
	}
	return MsgNothingToPlay, nil
}
