package sdk

import (
	"context"
	"encoding/json"
	"fmt"
)

// A plugin of kind KindContent declares content types in its manifest
// (Manifest.ContentTypes); a tool may declare some too, for the content its
// page serves. The core stores and serves their items; the
// plugin takes part in writes through three optional hooks on Tool:
// ValidateContent, BeforeTransition and AfterPublish.

// Field kinds a content type may use (ContentField.Kind) (the core validates every value
// against its field's kind before the plugin sees it).
const (
	ContentText        = "text"         // one line of text
	ContentLongText    = "long_text"    // Markdown, rendered safely by readers
	ContentNumber      = "number"       // a JSON number
	ContentBoolean     = "boolean"      // true or false
	ContentSelect      = "select"       // one of Options
	ContentMultiSelect = "multi_select" // several of Options
	ContentTags        = "tags"         // free short labels
	ContentDate        = "date"         // "2026-11-23"
	ContentDateTime    = "datetime"     // RFC 3339, stored in UTC
	ContentImage       = "image"        // storage key of an uploaded image (/uploads/<key>)
	ContentVideo       = "video"        // id of an uploaded media asset
	ContentFile        = "file"         // storage key of an uploaded file
	ContentURL         = "url"          // absolute http(s) address
	ContentReference   = "reference"    // id of another item (Many: a list)
	ContentChildren    = "children"     // ordered list of child item ids
)

// Workflows a content type may follow.
const (
	WorkflowEditorial       = "editorial"         // draft, review, approval, publish
	WorkflowPublishOnCreate = "publish_on_create" // published as created (community posts)
)

// ContentType declares one content type. Texts are pt-BR.
type ContentType struct {
	ID       string `json:"id"`       // lowercase, dashes: "noticias"
	Singular string `json:"singular"` // "Notícia"
	Plural   string `json:"plural"`   // "Notícias"
	Icon     string `json:"icon"`     // a lucide icon name
	// Route is the PWA path of the type's list ("/noticias-veterinarias");
	// an item's page is Route/<slug>. Empty: no page of its own.
	Route    string         `json:"route,omitempty"`
	Fields   []ContentField `json:"fields"`
	List     ContentList    `json:"list"`
	Workflow string         `json:"workflow,omitempty"` // WorkflowEditorial when empty
	// Private types are never listed or served by the public content API
	// (/api/content/<type>): only their plugin reads them (answers of a
	// question bank, say), through its hooks.
	Private bool `json:"private,omitempty"`
}

// ContentField declares one of a type's fields. Title and summary are
// common to every type and need no declaration.
type ContentField struct {
	Name  string `json:"name"`  // key in the item's fields: ^[a-z][a-z0-9_]{0,39}$
	Label string `json:"label"` // pt-BR, shown in forms and messages
	Kind  string `json:"kind"`  // one of the Content* field kinds
	Help  string `json:"help,omitempty"`

	Required bool `json:"required,omitempty"`
	// Min and Max bound characters, the value or the count of values.
	Min            *float64 `json:"min,omitempty"`
	Max            *float64 `json:"max,omitempty"`
	Pattern        string   `json:"pattern,omitempty"`
	PatternMessage string   `json:"pattern_message,omitempty"`

	Options []ContentOption `json:"options,omitempty"`
	Target  string          `json:"target,omitempty"` // reference, children: the target type
	Many    bool            `json:"many,omitempty"`

	Listed     bool `json:"listed,omitempty"`
	Filterable bool `json:"filterable,omitempty"`
	Sortable   bool `json:"sortable,omitempty"`
	Searchable bool `json:"searchable,omitempty"`
	// Computed fields are set by the plugin's ValidateContent hook
	// (ContentCheck.Computed), never by editors.
	Computed bool `json:"computed,omitempty"`
}

// ContentOption is one choice of a select field.
type ContentOption struct {
	Value string `json:"value"`
	Label string `json:"label"`
}

// ContentList is a type's default public list behaviour.
type ContentList struct {
	DefaultSort ContentSort `json:"default_sort"`
	PageSize    int         `json:"page_size,omitempty"` // 20 when 0
}

// ContentSort is a list order: "published_at", "title" or a sortable field.
type ContentSort struct {
	Field string `json:"field,omitempty"`
	Desc  bool   `json:"desc,omitempty"`
}

// Bound returns a pointer to v, for ContentField.Min and Max.
func Bound(v float64) *float64 { return &v }

// ContentItem is an item as the hooks see it.
type ContentItem struct {
	ID        string // empty when the item is being created
	Type      string
	Status    string // the editorial state: rascunho, em_revisao, aprovado, agendado, publicado, arquivado, alteracoes_solicitadas
	Version   int
	Slug      string
	Title     string
	Summary   string
	Fields    map[string]any // the type's own fields, as JSON decodes them
	AuthorID  string
	Published bool // readers can see a published snapshot
	// Media holds, keyed by field name, the uploaded asset each non-empty
	// video or file field points at (filled by the core; absent when the
	// field is empty or names no known asset).
	Media map[string]MediaAsset
}

// Media asset states (MediaAsset.State).
const (
	MediaUploading  = "enviando"    // the upload has not finished
	MediaProcessing = "processando" // the video is being transcoded
	MediaReady      = "pronto"      // playable / downloadable
	MediaFailed     = "erro"        // processing failed; Error says why
)

// MediaAsset is an uploaded file as content hooks see it.
type MediaAsset struct {
	ID              string
	Kind            string // video, image or document
	State           string // one of the Media* states
	ProgressPercent int    // 0–100 while processando
	DurationSeconds float64
	Error           string // pt-BR reason, when State is MediaFailed
}

// ContentCheck is what ValidateContent answers.
type ContentCheck struct {
	// Errors are pt-BR messages by field name, shown beside the fields.
	Errors map[string]string
	// Computed holds the values of the type's computed fields.
	Computed map[string]any
}

// ContentHooks are a content plugin's optional write hooks; nil members are
// not implemented (and not called).
type ContentHooks struct {
	// ValidateContent checks an item about to be saved (after the core's
	// own checks) and computes derived fields.
	ValidateContent func(ctx context.Context, host *Host, item ContentItem) (ContentCheck, error)
	// BeforeTransition may refuse moving item to the state to: a non-empty
	// refusal is the pt-BR reason shown to the editor.
	BeforeTransition func(ctx context.Context, host *Host, item ContentItem, to string) (refusal string, err error)
	// AfterPublish is told after a publish committed (side effects).
	AfterPublish func(ctx context.Context, host *Host, item ContentItem) error
}

func validateContentTypes(m Manifest) error {
	if m.Kind != KindContent && len(m.ContentTypes) == 0 {
		return nil // a tool's own content types are optional
	}
	if m.Kind == KindContent && len(m.ContentTypes) == 0 {
		return fmt.Errorf("manifest %s: a content plugin declares at least one content type", m.ID)
	}
	seen := map[string]bool{}
	for _, t := range m.ContentTypes {
		if !ValidID(t.ID) || t.Singular == "" || t.Plural == "" {
			return fmt.Errorf("manifest %s: content type %q needs a valid id and both labels", m.ID, t.ID)
		}
		if seen[t.ID] {
			return fmt.Errorf("manifest %s: content type %s declared twice", m.ID, t.ID)
		}
		seen[t.ID] = true
		for _, f := range t.Fields {
			if f.Name == "" || f.Label == "" || f.Kind == "" {
				return fmt.Errorf("manifest %s: content type %s: every field needs a name, a label and a kind", m.ID, t.ID)
			}
		}
	}
	return nil
}

func contentTypesJSON(m Manifest) ([]byte, error) {
	if len(m.ContentTypes) == 0 {
		return nil, nil
	}
	b, err := json.Marshal(m.ContentTypes)
	if err != nil {
		return nil, fmt.Errorf("encode content types: %w", err)
	}
	return b, nil
}
