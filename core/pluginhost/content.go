package pluginhost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/plugins/proto/pluginpb"
)

// ContentTypes is where content plugins' types are registered
// (content.Registry): a plugin may declare its own types again after a
// restart, never another plugin's.
type ContentTypes interface {
	RegisterFrom(owner string, t content.Type) error
	Owner(typeID string) string
}

// msgContentUnavailable is what an editor reads when the plugin that checks a
// content type's writes cannot answer: the write is not made.
const msgContentUnavailable = "O serviço que valida este tipo de conteúdo está indisponível no momento. Nada foi salvo; tente novamente em instantes."

// registerContentTypes reads a content plugin's declared types and registers
// them; any refused declaration refuses the plugin, so a type is either
// served whole or not at all.
func (m *Manager) registerContentTypes(man *pluginpb.Manifest) error {
	if man.Kind != "content" && len(man.ContentTypes) == 0 {
		return nil // a tool may declare content types; a content plugin must
	}
	if man.Kind != "content" && man.Kind != "tool" {
		return fmt.Errorf("plugin %s of kind %q declares content types", man.Id, man.Kind)
	}
	if m.opts.ContentTypes == nil {
		return fmt.Errorf("plugin %s declares content types but this server has no content platform", man.Id)
	}
	var types []content.Type
	if err := json.Unmarshal(man.ContentTypes, &types); err != nil {
		return fmt.Errorf("plugin %s: content types: %w", man.Id, err)
	}
	if len(types) == 0 && man.Kind == "content" {
		return fmt.Errorf("plugin %s of kind content declares no content type", man.Id)
	}
	for _, t := range types {
		if err := m.opts.ContentTypes.RegisterFrom(man.Id, t); err != nil {
			return fmt.Errorf("plugin %s: %w", man.Id, err)
		}
	}
	return nil
}

// ContentHooks returns the content store's hooks: each call goes to the
// plugin that declared the item's type, when it implements that hook. Types
// no plugin declared (the core's tests) accept every write. The hooks fail
// closed: a plugin that cannot answer (not loaded, crashed, hung) refuses
// the write or the move with a pt-BR message rather than let it through
// unchecked; only AfterPublish, told after the fact, just logs.
func (m *Manager) ContentHooks() content.Hooks { return contentHooks{m} }

type contentHooks struct{ m *Manager }

// owner returns the plugin serving typeID; call is false when there is
// nothing to call (no plugin declared the type, or its plugin does not
// implement hook). A type whose plugin is not loaded — refused after it
// declared the type, say — answers an unavailable error: its plugin's
// rules cannot be checked, so nothing is written.
func (h contentHooks) owner(typeID string, hook pluginpb.Hook) (p *plugin, call bool, err error) {
	if h.m.opts.ContentTypes == nil {
		return nil, false, nil
	}
	id := h.m.opts.ContentTypes.Owner(typeID)
	if id == "" {
		return nil, false, nil
	}
	p, ok := h.m.plugin(id)
	if !ok {
		return nil, false, unavailable(fmt.Errorf("content type %s: plugin %s is not loaded", typeID, id))
	}
	p.mu.Lock()
	implemented := p.hooks[hook]
	p.mu.Unlock()
	return p, implemented, nil
}

func itemPB(it content.Item) *pluginpb.ContentItem {
	return &pluginpb.ContentItem{Id: it.ID, Type: it.Type, Status: string(it.Status), Version: int32(it.Version),
		Slug: it.Slug, Title: it.Title, Summary: it.Summary, Fields: it.Fields, AuthorId: it.AuthorID, Published: it.Published,
		Media: mediaPB(it.Media)}
}

// mediaPB is the wire form of the assets an item's fields point at (filled
// by content.MediaHooks), keyed by field name.
func mediaPB(media map[string]content.MediaInfo) map[string]*pluginpb.MediaAsset {
	if len(media) == 0 {
		return nil
	}
	out := make(map[string]*pluginpb.MediaAsset, len(media))
	for field, a := range media {
		out[field] = &pluginpb.MediaAsset{Id: a.ID, Kind: a.Kind, State: a.State, ProgressPercent: int32(a.ProgressPercent),
			DurationSeconds: a.DurationSeconds, Error: a.Error}
	}
	return out
}

func unavailable(err error) error {
	return &core.Error{Code: core.EUNAVAILABLE, Message: msgContentUnavailable, Err: err}
}

// hookFailed logs a failed hook call and, when the plugin hung past the
// call's deadline or its process went away, asks for a restart, as a tool
// call does (Handle); a stuck plugin would otherwise fail every later write.
func hookFailed(ctx context.Context, p *plugin, hook string, err error, attrs ...any) {
	p.log.Warn(hook+" hook failed", append(attrs, "err", err)...)
	if errors.Is(ctx.Err(), context.DeadlineExceeded) || status.Code(err) == codes.DeadlineExceeded || status.Code(err) == codes.Unavailable {
		p.requestRestart()
	}
}

func (h contentHooks) ValidateContent(ctx context.Context, t *content.Type, in content.Input) (content.Check, error) {
	p, call, err := h.owner(t.ID, pluginpb.Hook_HOOK_VALIDATE_CONTENT)
	if err != nil || !call {
		return content.Check{}, err
	}
	fields, err := json.Marshal(in.Fields)
	if err != nil {
		return content.Check{}, fmt.Errorf("encode fields: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, h.m.opts.CallTimeout)
	defer cancel()
	c, done, err := p.use(ctx)
	defer done()
	if err != nil {
		return content.Check{}, unavailable(err)
	}
	res, err := c.ValidateContent(ctx, &pluginpb.ValidateContentRequest{Type: t.ID, Item: &pluginpb.ContentItem{
		Type: t.ID, Slug: in.Slug, Title: in.Title, Summary: in.Summary, Fields: fields, Media: mediaPB(in.Media)}})
	if err != nil {
		hookFailed(ctx, p, "validate content", err, "type", t.ID)
		return content.Check{}, unavailable(err)
	}
	check := content.Check{}
	if len(res.FieldErrors) > 0 {
		check.Errors = content.FieldErrors(maps.Clone(res.FieldErrors))
	}
	if len(res.Computed) > 0 {
		if err := json.Unmarshal(res.Computed, &check.Computed); err != nil {
			return content.Check{}, fmt.Errorf("plugin %s: computed fields: %w", baseName(p.path), err)
		}
	}
	return check, nil
}

// BeforeTransition asks the plugin whether it may move to the state to. A
// plugin that cannot answer refuses the move (503, pt-BR message): this is
// a gate, and letting a move through unchecked could publish what the
// plugin would have held back.
func (h contentHooks) BeforeTransition(ctx context.Context, it content.Item, to content.Status) error {
	p, call, err := h.owner(it.Type, pluginpb.Hook_HOOK_BEFORE_TRANSITION)
	if err != nil || !call {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, h.m.opts.CallTimeout)
	defer cancel()
	c, done, err := p.use(ctx)
	defer done()
	if err != nil {
		return unavailable(err)
	}
	res, err := c.BeforeTransition(ctx, &pluginpb.BeforeTransitionRequest{Item: itemPB(it), To: string(to)})
	if err != nil {
		hookFailed(ctx, p, "before transition", err, "type", it.Type, "item", it.ID, "to", to)
		return unavailable(err)
	}
	if res.Refusal != "" {
		return core.Errorf(core.ECONFLICT, "%s", res.Refusal)
	}
	return nil
}

// AfterPublish tells the plugin after the publish committed; a failure is
// logged (the publish stands).
func (h contentHooks) AfterPublish(ctx context.Context, it content.Item) {
	p, call, err := h.owner(it.Type, pluginpb.Hook_HOOK_AFTER_PUBLISH)
	if err != nil {
		h.m.log.Warn("after publish hook not called", "type", it.Type, "item", it.ID, "err", err)
		return
	}
	if !call {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), h.m.opts.CallTimeout)
	defer cancel()
	c, done, err := p.use(ctx)
	defer done()
	if err != nil {
		p.log.Warn("after publish hook not called: plugin unavailable", "type", it.Type, "item", it.ID, "version", it.Version, "err", err)
		return
	}
	if _, err := c.AfterPublish(ctx, &pluginpb.AfterPublishRequest{Item: itemPB(it)}); err != nil {
		hookFailed(ctx, p, "after publish", err, "type", it.Type, "item", it.ID, "version", it.Version)
	}
}
