package content_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/content"
)

// assetLibrary answers media lookups from a map and records each call.
type assetLibrary struct {
	mu     sync.Mutex
	assets map[string]content.MediaInfo
	calls  [][]string
	err    error
}

func (l *assetLibrary) Lookup(_ context.Context, ids []string) (map[string]content.MediaInfo, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls = append(l.calls, slices.Sorted(slices.Values(ids)))
	if l.err != nil {
		return nil, l.err
	}
	out := map[string]content.MediaInfo{}
	for _, id := range ids {
		if a, ok := l.assets[id]; ok {
			out[id] = a
		}
	}
	return out, nil
}

// videoGate stands in for a plugin that holds a video back until its asset
// is processed, and records the media each hook saw.
type videoGate struct {
	content.NoHooks
	mu        sync.Mutex
	validated map[string]content.MediaInfo
	moved     map[string]content.MediaInfo
}

func (g *videoGate) ValidateContent(_ context.Context, _ *content.Type, in content.Input) (content.Check, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.validated = in.Media
	return content.Check{}, nil
}

func (g *videoGate) BeforeTransition(_ context.Context, it content.Item, _ content.Status) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.moved = it.Media
	if a, ok := it.Media["video"]; ok && a.State != "pronto" {
		return core.Errorf(core.ECONFLICT, "O vídeo ainda está sendo processado (%d %%).", a.ProgressPercent)
	}
	return nil
}

func TestMediaHooksShowTheAssetsToThePlugin(t *testing.T) {
	f := newFixture(t)
	const video, unknown = "6f1d2c3b-4a59-4e8f-9b0a-1c2d3e4f5a6b", "00000000-0000-4000-8000-000000000001"
	lib := &assetLibrary{assets: map[string]content.MediaInfo{
		video: {ID: video, Kind: "video", State: "processando", ProgressPercent: 42, DurationSeconds: 0},
	}}
	gate := &videoGate{}
	store := content.New(f.pool, f.store.Types(), content.Options{Now: f.now,
		Hooks: content.WithMedia(gate, f.store.Types(), lib)})

	in := newsInput("Vídeo enviado")
	in.Fields["video"] = video
	in.Fields["material"] = "content/apostila.pdf" // a storage key, not an asset: never looked up
	it, _, err := store.Create(f.ctx, f.editor(), "noticias", in, "")
	if err != nil {
		t.Fatal(err)
	}
	if gate.validated["video"].State != "processando" || len(gate.validated) != 1 {
		t.Fatalf("ValidateContent saw %+v", gate.validated)
	}
	_, err = store.Publish(f.ctx, f.editor(), it.ID, it.Version)
	if code(err) != core.ECONFLICT || core.ErrorMessage(err) != "O vídeo ainda está sendo processado (42 %)." {
		t.Fatalf("publish while processing: %v", err)
	}
	if len(lib.calls) != 2 || !slices.Equal(lib.calls[1], []string{video}) {
		t.Fatalf("one lookup per hook, of the video only: %v", lib.calls)
	}

	lib.mu.Lock()
	lib.assets[video] = content.MediaInfo{ID: video, Kind: "video", State: "pronto", ProgressPercent: 100, DurationSeconds: 95}
	lib.mu.Unlock()
	if _, err := store.Publish(f.ctx, f.editor(), it.ID, it.Version); err != nil {
		t.Fatalf("publish when ready: %v", err)
	}
	if gate.moved["video"].DurationSeconds != 95 {
		t.Fatalf("BeforeTransition saw %+v", gate.moved)
	}

	// An id the library does not know reaches the plugin as no asset.
	in = newsInput("Vídeo apagado")
	in.Fields["video"] = unknown
	it2, _, err := store.Create(f.ctx, f.editor(), "noticias", in, "")
	if err != nil || gate.validated != nil {
		t.Fatalf("unknown asset: %v, %+v", err, gate.validated)
	}

	// A library that cannot answer refuses the move: the gate could not look.
	lib.mu.Lock()
	lib.err = errors.New("connection refused")
	lib.mu.Unlock()
	if _, err := store.Publish(f.ctx, f.editor(), it2.ID, it2.Version); code(err) != core.EUNAVAILABLE ||
		core.ErrorMessage(err) != content.MsgMediaUnavailable {
		t.Fatalf("lookup failure: %v", err)
	}
	// Items without media fields filled never call the library.
	calls := len(lib.calls)
	plain := f.create(t, newsInput("Sem vídeo"))
	if _, err := store.Publish(f.ctx, f.editor(), plain.ID, plain.Version); err != nil || len(lib.calls) != calls {
		t.Fatalf("item without media: %v, %d lookups", err, len(lib.calls)-calls)
	}
}
