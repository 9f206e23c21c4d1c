package content_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/content"
)

// newsPlugin stands in for the news plugin's hooks: its own rule on the
// source name, a refusal while the cover is still processing, and a record
// of what was published.
type newsPlugin struct {
	mu        sync.Mutex
	published []string
	validated int
}

func (p *newsPlugin) ValidateContent(_ context.Context, t *content.Type, in content.Input) (content.Check, error) {
	p.mu.Lock()
	p.validated++
	p.mu.Unlock()
	if name, _ := in.Fields["source_name"].(string); strings.Contains(strings.ToLower(name), "boato") {
		return content.Check{Errors: content.FieldErrors{"source_name": "Use uma fonte confiável no campo Fonte."}}, nil
	}
	return content.Check{}, nil
}

func (p *newsPlugin) BeforeTransition(_ context.Context, it content.Item, to content.Status) error {
	if to == content.StatusPublished && strings.Contains(string(it.Fields), "processing/") {
		return core.Errorf(core.ECONFLICT, "A imagem de capa ainda está sendo processada.")
	}
	return nil
}

func (p *newsPlugin) AfterPublish(_ context.Context, it content.Item) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.published = append(p.published, it.Title)
}

func TestPluginHooksValidateRefuseAndObserve(t *testing.T) {
	f := newFixture(t)
	plugin := &newsPlugin{}
	store := content.New(f.pool, f.store.Types(), content.Options{Now: f.now, Hooks: plugin})

	in := newsInput("Boato sobre raiva")
	in.Fields["source_name"] = "Blog de boatos"
	_, _, err := store.Create(f.ctx, f.editor(), "noticias", in, "")
	var e *core.Error
	if !asError(err, &e) || e.Code != core.EINVALID || e.Fields["source_name"] != "Use uma fonte confiável no campo Fonte." {
		t.Fatalf("plugin validation on create: %v", err)
	}
	// The plugin sees only input that passed the core's checks.
	before := plugin.validated
	bad := newsInput("")
	if _, _, err := store.Create(f.ctx, f.editor(), "noticias", bad, ""); core.ErrorCode(err) != core.EINVALID || plugin.validated != before {
		t.Fatalf("core errors first: %v (plugin called %d times)", err, plugin.validated-before)
	}

	in.Fields["source_name"] = "CFMV"
	in.Fields["cover"] = "processing/capa.jpg"
	it, _, err := store.Create(f.ctx, f.editor(), "noticias", in, "")
	if err != nil {
		t.Fatal(err)
	}
	in.Fields["source_name"] = "boato"
	if _, err := store.Update(f.ctx, f.editor(), it.ID, it.Version, in); core.ErrorCode(err) != core.EINVALID {
		t.Fatalf("plugin validation on update: %v", err)
	}
	if _, err := store.Update(f.ctx, f.editor(), it.ID, 0, in); core.ErrorCode(err) != core.EINVALID || core.ErrorMessage(err) != content.MsgVersionRequired {
		t.Fatalf("update without a version: %v", err)
	}

	_, err = store.Publish(f.ctx, f.editor(), it.ID, it.Version)
	if core.ErrorCode(err) != core.ECONFLICT || core.ErrorMessage(err) != "A imagem de capa ainda está sendo processada." {
		t.Fatalf("refused publish: %v", err)
	}
	if got, _ := store.Get(f.ctx, it.ID); got.Published || got.Version != it.Version || len(plugin.published) != 0 {
		t.Fatalf("a refused publish changed the item: %+v, published hooks %v", got, plugin.published)
	}

	in.Fields["source_name"] = "CFMV"
	in.Fields["cover"] = "covers/capa.jpg"
	if it, err = store.Update(f.ctx, f.editor(), it.ID, it.Version, in); err != nil {
		t.Fatal(err)
	}
	if it, err = store.Publish(f.ctx, f.editor(), it.ID, it.Version); err != nil || !it.Published {
		t.Fatalf("publish: %+v %v", it, err)
	}
	if len(plugin.published) != 1 || plugin.published[0] != "Boato sobre raiva" {
		t.Fatalf("after publish hook: %v", plugin.published)
	}
}
