package main

import "github.com/vetclube/vetclube/plugins/sdk"

// TypeID is the community posts content type; core/community reads and
// writes its items (the field names below are its contract).
const TypeID = "posts"

// Limits of a post (core/community checks them first, with the feed's own
// messages; the declaration holds the backoffice and any other writer to
// them too).
const (
	MaxContent = 5000
	MaxMedia   = 10
)

// PostType is the declaration the core registers. It has no route: posts
// are read in the community feed (/community), never as pages of their own.
var PostType = sdk.ContentType{
	ID: TypeID, Singular: "Publicação", Plural: "Publicações", Icon: "message-square",
	Fields: []sdk.ContentField{
		{Name: "content", Label: "Texto", Kind: sdk.ContentLongText, Max: sdk.Bound(MaxContent), Searchable: true, Listed: true,
			Help: "Markdown simples: **negrito**, *itálico*, links, listas e quebras de linha."},
		{Name: "media", Label: "Imagens", Kind: sdk.ContentTags, Max: sdk.Bound(MaxMedia), Listed: true,
			Help: "Identificadores das imagens enviadas pelo autor (até 10), na ordem em que aparecem."},
	},
	List:     sdk.ContentList{DefaultSort: sdk.ContentSort{Field: "published_at", Desc: true}, PageSize: 20},
	Workflow: sdk.WorkflowPublishOnCreate,
}

// Plugin is everything Serve needs; tests start the same value.
func Plugin() sdk.Tool {
	return sdk.Tool{
		Manifest: sdk.Manifest{
			ID: "comunidade", Name: "Comunidade",
			Description: "Publicações da comunidade de veterinários, publicadas na hora, com imagens, curtidas e comentários.",
			Version:     "1.0.0", MinCoreVersion: "1.0.0",
			Kind: sdk.KindContent, Icon: "message-square",
			ContentTypes: []sdk.ContentType{PostType},
		},
	}
}
