package content

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/vetclube/vetclube/core"
)

// MediaInfo is an uploaded file of the media library as content hooks see
// it: enough for a plugin to refuse a move while a video is still being
// processed.
type MediaInfo struct {
	ID              string
	Kind            string // video, image or document
	State           string // enviando, processando, pronto or erro
	ProgressPercent int
	DurationSeconds float64
	Error           string // pt-BR reason when State is erro
}

// MediaLookup finds media assets by id in one query (core/media implements
// it); ids it does not know are absent from the answer.
type MediaLookup interface {
	Lookup(ctx context.Context, ids []string) (map[string]MediaInfo, error)
}

// MsgMediaUnavailable is what an editor reads when the assets an item points
// at cannot be read: the write or move is not made, since the plugin's gate
// could not see them.
const MsgMediaUnavailable = "A biblioteca de mídia está indisponível no momento. Nada foi alterado; tente novamente em instantes."

// MediaHooks are Hooks that see, before ValidateContent and BeforeTransition,
// the media asset each of the item's video and file fields points at
// (Item.Media, Input.Media, keyed by field name). AfterPublish is passed
// through as is: it is told after the fact and gates nothing.
type MediaHooks struct {
	Hooks
	types *Registry
	media MediaLookup
}

// WithMedia wraps h (NoHooks when nil) so that its hooks see the items'
// media assets, looked up through media; with media nil it returns h.
func WithMedia(h Hooks, types *Registry, media MediaLookup) Hooks {
	if h == nil {
		h = NoHooks{}
	}
	if media == nil {
		return h
	}
	return &MediaHooks{Hooks: h, types: types, media: media}
}

// ValidateContent fills in.Media, then asks the wrapped hooks.
func (m *MediaHooks) ValidateContent(ctx context.Context, t *Type, in Input) (Check, error) {
	media, err := m.assets(ctx, t, in.Fields)
	if err != nil {
		return Check{}, err
	}
	in.Media = media
	return m.Hooks.ValidateContent(ctx, t, in)
}

// BeforeTransition fills it.Media, then asks the wrapped hooks.
func (m *MediaHooks) BeforeTransition(ctx context.Context, it Item, to Status) error {
	t, ok := m.types.Get(it.Type)
	if ok && hasMediaFields(t) && len(it.Fields) > 0 {
		var fields map[string]any
		if err := json.Unmarshal(it.Fields, &fields); err != nil {
			return fmt.Errorf("content: media of item %s: decode fields: %w", it.ID, err)
		}
		media, err := m.assets(ctx, t, fields)
		if err != nil {
			return err
		}
		it.Media = media
	}
	return m.Hooks.BeforeTransition(ctx, it, to)
}

// assets looks up, in one query, the assets the video and file fields of t
// in fields point at. A file field may hold a storage key instead of an
// asset id: only values that are uuids are looked up.
func (m *MediaHooks) assets(ctx context.Context, t *Type, fields map[string]any) (map[string]MediaInfo, error) {
	if t == nil || len(fields) == 0 {
		return nil, nil
	}
	byField := map[string]string{}
	var ids []string
	for _, f := range t.Fields {
		if f.Kind != KindVideo && f.Kind != KindFile {
			continue
		}
		v, _ := fields[f.Name].(string)
		if len(v) != 36 || uuid.Validate(v) != nil {
			continue
		}
		v = strings.ToLower(v)
		byField[f.Name] = v
		ids = append(ids, v)
	}
	if len(ids) == 0 {
		return nil, nil
	}
	found, err := m.media.Lookup(ctx, ids)
	if err != nil {
		return nil, &core.Error{Code: core.EUNAVAILABLE, Message: MsgMediaUnavailable, Err: fmt.Errorf("content: look up media: %w", err)}
	}
	out := make(map[string]MediaInfo, len(byField))
	for field, id := range byField {
		if a, ok := found[id]; ok {
			out[field] = a
		}
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

func hasMediaFields(t *Type) bool {
	for _, f := range t.Fields {
		if f.Kind == KindVideo || f.Kind == KindFile {
			return true
		}
	}
	return false
}
