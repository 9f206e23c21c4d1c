// Package content stores and serves the items of every content type (news,
// courses, videos, events, community posts) in the core's tables.
//
// A content type is declared once (Type: fields, list behaviour, workflow)
// and registered in a Registry at start; plugins of kind "content" will
// declare theirs in the manifest. Items keep typed columns for the common
// parts and the type's own fields as validated JSONB. Each item has a working
// copy (what the backoffice edits) and, once published, a public snapshot
// (what readers see): editing a published item leaves the snapshot untouched
// until the next publish. An item's status is the editorial state of its
// working copy; whether readers see it is Item.Published. Every write appends a revision with the full
// snapshot. Public lists and details are answered in one query, joined with
// the reader's engagement flags (core/engagement).
//
// The package stores states but does not decide who may move an item between
// them: that is the editorial workflow's job (core/editorial), which calls
// Store.Transition with the states it allows.
package content

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"sync"
)

// FieldKind is what a field holds.
type FieldKind string

const (
	KindText        FieldKind = "text"         // one line of text
	KindLongText    FieldKind = "long_text"    // Markdown, rendered safely by the reader
	KindNumber      FieldKind = "number"       // a JSON number
	KindBoolean     FieldKind = "boolean"      // true or false
	KindSelect      FieldKind = "select"       // one of Options
	KindMultiSelect FieldKind = "multi_select" // several of Options, no repeats
	KindTags        FieldKind = "tags"         // free short labels, no repeats
	KindDate        FieldKind = "date"         // "2026-11-23"
	KindDateTime    FieldKind = "datetime"     // RFC 3339, stored in UTC
	KindImage       FieldKind = "image"        // a storage key of an uploaded image
	KindVideo       FieldKind = "video"        // the id (uuid) of an uploaded media asset
	KindFile        FieldKind = "file"         // a storage key of an uploaded file (material)
	KindURL         FieldKind = "url"          // an absolute http(s) address
	KindReference   FieldKind = "reference"    // the id of another item (Many: a list of ids)
	KindChildren    FieldKind = "children"     // an ordered list of child item ids
)

var fieldKinds = []FieldKind{KindText, KindLongText, KindNumber, KindBoolean, KindSelect, KindMultiSelect,
	KindTags, KindDate, KindDateTime, KindImage, KindVideo, KindFile, KindURL, KindReference, KindChildren}

// Workflow is the editorial flow a type's items go through.
type Workflow string

const (
	// WorkflowEditorial is the full flow: draft, review, approval, publish.
	WorkflowEditorial Workflow = "editorial"
	// WorkflowPublishOnCreate publishes an item as it is created (community posts).
	WorkflowPublishOnCreate Workflow = "publish_on_create"
)

// Option is one choice of a select or multi-select field.
type Option struct {
	Value string `json:"value"`
	Label string `json:"label"`
}

// Field declares one of a type's own fields.
type Field struct {
	// Name is the key in the item's fields object: ^[a-z][a-z0-9_]{0,39}$.
	Name string `json:"name"`
	// Label is the pt-BR name shown in forms and in messages ("Fonte").
	Label string    `json:"label"`
	Kind  FieldKind `json:"kind"`
	Help  string    `json:"help,omitempty"`

	Required bool `json:"required,omitempty"`
	// Min and Max bound characters (text, long text, url), the value
	// (number) or the count of values (multi-select, tags, many references,
	// children). Nil means no bound.
	Min *float64 `json:"min,omitempty"`
	Max *float64 `json:"max,omitempty"`
	// Pattern is a regular expression a text or URL must match (whole value);
	// PatternMessage replaces the generic message when it does not.
	Pattern        string `json:"pattern,omitempty"`
	PatternMessage string `json:"pattern_message,omitempty"`

	Options []Option `json:"options,omitempty"` // select, multi-select
	Target  string   `json:"target,omitempty"`  // reference, children: the type of the items pointed to
	Many    bool     `json:"many,omitempty"`    // reference: a list instead of one

	Listed     bool `json:"listed,omitempty"`     // returned in public lists (otherwise detail only)
	Filterable bool `json:"filterable,omitempty"` // usable as a list filter
	Sortable   bool `json:"sortable,omitempty"`   // usable as a list sort key
	Searchable bool `json:"searchable,omitempty"` // part of the full-text search
	// Computed fields are set by the type's plugin (its ValidateContent
	// hook, e.g. a news item's reading time), never by an editor: what an
	// editor sends for them is dropped.
	Computed bool `json:"computed,omitempty"`

	pattern *regexp.Regexp
}

// Sort is a list order: a sortable field name or one of the built-in keys
// (SortPublishedAt, SortTitle).
type Sort struct {
	Field string `json:"field"`
	Desc  bool   `json:"desc,omitempty"`
}

// Built-in sort keys every type has.
const (
	SortPublishedAt = "published_at"
	SortTitle       = "title"
	SortUpdatedAt   = "updated_at" // backoffice lists only
	// SortRelevance orders by search relevance (core/search); only with a search.
	SortRelevance = "relevance"
)

// ListSettings is a type's default public list behaviour.
type ListSettings struct {
	DefaultSort Sort `json:"default_sort"`
	PageSize    int  `json:"page_size"`
}

// Type declares a content type.
type Type struct {
	ID       string `json:"id"`
	Singular string `json:"singular"` // "Notícia"
	Plural   string `json:"plural"`   // "Notícias"
	Icon     string `json:"icon"`
	// Route is the PWA path where readers find the type's list
	// ("/noticias-veterinarias"); an item's page is Route + "/" + slug.
	// Empty: the type has no page of its own (lessons live inside courses).
	Route    string       `json:"route,omitempty"`
	Fields   []Field      `json:"fields"`
	List     ListSettings `json:"list"`
	Workflow Workflow     `json:"workflow"`
	// Private types are read only by their plugin: the public content API
	// answers 404 for them (ServeOwnAPI).
	Private bool `json:"private,omitempty"`
}

// Field returns the declared field called name.
func (t *Type) Field(name string) (*Field, bool) {
	for i := range t.Fields {
		if t.Fields[i].Name == name {
			return &t.Fields[i], true
		}
	}
	return nil, false
}

var (
	typeIDPattern    = regexp.MustCompile(`^[a-z][a-z0-9-]{1,39}$`)
	routePattern     = regexp.MustCompile(`^(/[a-z0-9]+(-[a-z0-9]+)*)+$`)
	fieldNamePattern = regexp.MustCompile(`^[a-z][a-z0-9_]{0,39}$`)
)

// MaxPageSize bounds every list page.
const MaxPageSize = 100

// reservedTypeIDs are path segments of the content API that a type id would
// shadow (/api/content/types, /api/admin/content/uploads).
var reservedTypeIDs = []string{"types", "uploads"}

// reservedNames are the common columns; a type's field may not shadow them.
var reservedNames = []string{"id", "type", "slug", "title", "summary", "status", "author_id", "created_at",
	"updated_at", "published_at", "version", "search", "fields", "relevance"}

// Validate checks the declaration itself (not an item) and fills defaults.
// Errors are for the plugin's author, in English.
func (t *Type) Validate() error {
	if !typeIDPattern.MatchString(t.ID) {
		return fmt.Errorf("content type id %q must match %s", t.ID, typeIDPattern)
	}
	if slices.Contains(reservedTypeIDs, t.ID) {
		return fmt.Errorf("content type id %q is reserved by the content API", t.ID)
	}
	if t.Singular == "" || t.Plural == "" {
		return fmt.Errorf("content type %s: singular and plural labels are required", t.ID)
	}
	if t.Route != "" && !routePattern.MatchString(t.Route) {
		return fmt.Errorf("content type %s: route %q must be a lowercase path like /noticias-veterinarias", t.ID, t.Route)
	}
	switch t.Workflow {
	case "":
		t.Workflow = WorkflowEditorial
	case WorkflowEditorial, WorkflowPublishOnCreate:
	default:
		return fmt.Errorf("content type %s: unknown workflow %q", t.ID, t.Workflow)
	}
	seen := map[string]bool{}
	for i := range t.Fields {
		f := &t.Fields[i]
		if !fieldNamePattern.MatchString(f.Name) || slices.Contains(reservedNames, f.Name) {
			return fmt.Errorf("content type %s: field name %q is invalid or reserved", t.ID, f.Name)
		}
		if seen[f.Name] {
			return fmt.Errorf("content type %s: field %q declared twice", t.ID, f.Name)
		}
		seen[f.Name] = true
		if f.Label == "" {
			return fmt.Errorf("content type %s: field %s needs a label", t.ID, f.Name)
		}
		if !slices.Contains(fieldKinds, f.Kind) {
			return fmt.Errorf("content type %s: field %s has unknown kind %q", t.ID, f.Name, f.Kind)
		}
		if f.Min != nil && f.Max != nil && *f.Min > *f.Max {
			return fmt.Errorf("content type %s: field %s has min > max", t.ID, f.Name)
		}
		if f.Pattern != "" {
			if f.Kind != KindText && f.Kind != KindURL {
				return fmt.Errorf("content type %s: field %s: pattern applies to text and url only", t.ID, f.Name)
			}
			re, err := regexp.Compile(`^(?:` + f.Pattern + `)$`)
			if err != nil {
				return fmt.Errorf("content type %s: field %s: pattern: %w", t.ID, f.Name, err)
			}
			f.pattern = re
		}
		switch f.Kind {
		case KindSelect, KindMultiSelect:
			if len(f.Options) == 0 {
				return fmt.Errorf("content type %s: field %s needs options", t.ID, f.Name)
			}
			values := map[string]bool{}
			for _, o := range f.Options {
				if o.Value == "" || o.Label == "" || values[o.Value] {
					return fmt.Errorf("content type %s: field %s has an empty or repeated option", t.ID, f.Name)
				}
				values[o.Value] = true
			}
		case KindReference, KindChildren:
			if !typeIDPattern.MatchString(f.Target) {
				return fmt.Errorf("content type %s: field %s needs a target type", t.ID, f.Name)
			}
		}
		if f.Computed && f.Required {
			return fmt.Errorf("content type %s: field %s cannot be both computed and required", t.ID, f.Name)
		}
		if f.Many && f.Kind != KindReference {
			return fmt.Errorf("content type %s: field %s: many applies to references only", t.ID, f.Name)
		}
		if f.Sortable && !sortableKind(f.Kind) {
			return fmt.Errorf("content type %s: field %s of kind %s cannot be sortable", t.ID, f.Name, f.Kind)
		}
		if f.Filterable && !filterableKind(f) {
			return fmt.Errorf("content type %s: field %s of kind %s cannot be filterable", t.ID, f.Name, f.Kind)
		}
		if f.Searchable && !searchableKind(f.Kind) {
			return fmt.Errorf("content type %s: field %s of kind %s cannot be searchable", t.ID, f.Name, f.Kind)
		}
	}
	if t.List.PageSize == 0 {
		t.List.PageSize = 20
	}
	if t.List.PageSize < 1 || t.List.PageSize > MaxPageSize {
		return fmt.Errorf("content type %s: page size must be 1..%d", t.ID, MaxPageSize)
	}
	if t.List.DefaultSort.Field == "" {
		t.List.DefaultSort = Sort{Field: SortPublishedAt, Desc: true}
	}
	if t.List.DefaultSort.Field != SortPublishedAt && t.List.DefaultSort.Field != SortTitle {
		f, ok := t.Field(t.List.DefaultSort.Field)
		if !ok || !f.Sortable {
			return fmt.Errorf("content type %s: default sort %q is not a sortable field", t.ID, t.List.DefaultSort.Field)
		}
	}
	return nil
}

func sortableKind(k FieldKind) bool {
	switch k {
	case KindText, KindNumber, KindBoolean, KindSelect, KindDate, KindDateTime:
		return true
	}
	return false
}

func filterableKind(f *Field) bool {
	switch f.Kind {
	case KindSelect, KindMultiSelect, KindTags, KindBoolean, KindNumber, KindDate, KindDateTime, KindReference, KindText:
		return true
	}
	return false
}

func searchableKind(k FieldKind) bool {
	switch k {
	case KindText, KindLongText, KindTags, KindSelect, KindMultiSelect:
		return true
	}
	return false
}

// Registry holds the content types known to this server. Types are
// registered at start (from plugin manifests); reads are concurrent.
type Registry struct {
	mu     sync.RWMutex
	types  map[string]*Type
	owners map[string]string // type id → the plugin that declared it ("" for the core's tests)
	own    map[string]bool   // type ids a feature serves through its own API only
	writes map[string]bool   // type ids members write through the feature's API only
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{types: map[string]*Type{}, owners: map[string]string{}, own: map[string]bool{}, writes: map[string]bool{}}
}

// ServeOwnAPI marks the type id (registered now or later) as read only
// through its feature's own API: the generic public list and detail
// (/api/content/{type}) answer 404 for it. Community posts are: their feed
// hides blocked members and moderated posts, which the generic reads do not
// know about.
func (r *Registry) ServeOwnAPI(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.own[id] = true
}

// OwnAPI reports whether the type id is read only through its feature's API.
func (r *Registry) OwnAPI(id string) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.own[id]
}

// ServeMembersWrites marks the type id as written only through its
// feature's own API, by members (community posts): the backoffice's generic
// writes (create, edit, workflow actions, restore, bulk) refuse it, and
// moderation goes through core/moderation. It implies ServeOwnAPI.
func (r *Registry) ServeMembersWrites(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.own[id] = true
	r.writes[id] = true
}

// WriteOwnAPI reports whether the type id is written only through its
// feature's API (ServeMembersWrites).
func (r *Registry) WriteOwnAPI(id string) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.writes[id]
}

// Register validates t and adds it. A type id may be registered once.
func (r *Registry) Register(t Type) error { return r.register(t, "", false) }

// RegisterFrom adds (or, when owner registered it before, replaces: a
// restarted plugin may have been upgraded) a type declared by the plugin
// owner. A type id declared by another plugin is refused, so two plugins
// can never serve one type.
func (r *Registry) RegisterFrom(owner string, t Type) error { return r.register(t, owner, true) }

func (r *Registry) register(t Type, owner string, replace bool) error {
	t.Fields = slices.Clone(t.Fields)
	if err := t.Validate(); err != nil {
		return err
	}
	// Reference targets may be registered after t (a course's lessons come
	// from the same plugin), so they are checked when an item is written.
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.types[t.ID]; dup && !(replace && r.owners[t.ID] == owner) {
		return fmt.Errorf("content type %s is already registered by %q", t.ID, r.owners[t.ID])
	}
	for id, other := range r.types {
		if id != t.ID && t.Route != "" && other.Route == t.Route {
			return fmt.Errorf("content type %s: route %s is already served by type %s", t.ID, t.Route, id)
		}
	}
	r.types[t.ID] = &t
	r.owners[t.ID] = owner
	if t.Private {
		r.own[t.ID] = true
	}
	return nil
}

// Owner returns the plugin that declared the type id ("" when none did).
func (r *Registry) Owner(id string) string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.owners[id]
}

// Get returns the type called id. The result must not be modified.
func (r *Registry) Get(id string) (*Type, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	t, ok := r.types[id]
	return t, ok
}

// Types returns every registered type, by id.
func (r *Registry) Types() []*Type {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]*Type, 0, len(r.types))
	for _, t := range r.types {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}
