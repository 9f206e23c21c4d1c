package pluginhost

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"

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
	if man.Kind != "content" {
		if len(man.ContentTypes) > 0 {
			return fmt.Errorf("plugin %s of kind %q declares content types", man.Id, man.Kind)
		}
		return nil
	}
	if m.opts.ContentTypes == nil {
		return fmt.Errorf("plugin %s declares content types but this server has no content platform", man.Id)
	}
	var types []content.Type
	if err := json.Unmarshal(man.ContentTypes, &types); err != nil {
		return fmt.Errorf("plugin %s: content types: %w", man.Id, err)
	}
	if len(types) == 0 {
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
// no plugin declared (the core's tests) accept every write.
func (m *Manager) ContentHooks() content.Hooks { return contentHooks{m} }

type contentHooks struct{ m *Manager }

// owner returns the client of the plugin serving typeID when it implements
// hook; ok is false when there is nothing to call.
func (h contentHooks) owner(ctx context.Context, typeID string, hook pluginpb.Hook) (*plugin, bool) {
	if h.m.opts.ContentTypes == nil {
		return nil, false
	}
	id := h.m.opts.ContentTypes.Owner(typeID)
	if id == "" {
		return nil, false
	}
	p, ok := h.m.plugin(id)
	if !ok {
		return nil, false
	}
	p.mu.Lock()
	implemented := p.hooks[hook]
	p.mu.Unlock()
	return p, implemented
}

func itemPB(it content.Item) *pluginpb.ContentItem {
	return &pluginpb.ContentItem{Id: it.ID, Type: it.Type, Status: string(it.Status), Version: int32(it.Version),
		Slug: it.Slug, Title: it.Title, Summary: it.Summary, Fields: it.Fields, AuthorId: it.AuthorID, Published: it.Published}
}

func unavailable(err error) error {
	return &core.Error{Code: core.EUNAVAILABLE, Message: msgContentUnavailable, Err: err}
}

func (h contentHooks) ValidateContent(ctx context.Context, t *content.Type, in content.Input) (content.Check, error) {
	p, ok := h.owner(ctx, t.ID, pluginpb.Hook_HOOK_VALIDATE_CONTENT)
	if !ok {
		return content.Check{}, nil
	}
	fields, err := json.Marshal(in.Fields)
	if err != nil {
		return content.Check{}, fmt.Errorf("encode fields: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, h.m.opts.CallTimeout)
	defer cancel()
	c, err := p.waitClient(ctx)
	if err != nil {
		return content.Check{}, unavailable(err)
	}
	res, err := c.ValidateContent(ctx, &pluginpb.ValidateContentRequest{Type: t.ID, Item: &pluginpb.ContentItem{
		Type: t.ID, Slug: in.Slug, Title: in.Title, Summary: in.Summary, Fields: fields}})
	if err != nil {
		p.log.Warn("validate content hook failed", "type", t.ID, "err", err)
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

func (h contentHooks) BeforeTransition(ctx context.Context, it content.Item, to content.Status) error {
	p, ok := h.owner(ctx, it.Type, pluginpb.Hook_HOOK_BEFORE_TRANSITION)
	if !ok {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, h.m.opts.CallTimeout)
	defer cancel()
	c, err := p.waitClient(ctx)
	if err != nil {
		return unavailable(err)
	}
	res, err := c.BeforeTransition(ctx, &pluginpb.BeforeTransitionRequest{Item: itemPB(it), To: string(to)})
	if err != nil {
		p.log.Warn("before transition hook failed", "type", it.Type, "item", it.ID, "err", err)
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
	p, ok := h.owner(ctx, it.Type, pluginpb.Hook_HOOK_AFTER_PUBLISH)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), h.m.opts.CallTimeout)
	defer cancel()
	c, err := p.waitClient(ctx)
	if err == nil {
		_, err = c.AfterPublish(ctx, &pluginpb.AfterPublishRequest{Item: itemPB(it)})
	}
	if err != nil {
		p.log.Warn("after publish hook failed", "type", it.Type, "item", it.ID, "err", err)
	}
}
