package content_test

import (
	"slices"
	"testing"

	"github.com/vetclube/vetclube/core/content"
)

func TestItemsReferencingAssetSearchesDraftsAndPublishedSnapshots(t *testing.T) {
	f := newFixture(t, content.Type{ID: "aulas", Singular: "Aula", Plural: "Aulas", Fields: []content.Field{
		{Name: "video_asset", Label: "Vídeo", Kind: content.KindVideo},
		{Name: "material", Label: "Material", Kind: content.KindFile},
		{Name: "notes", Label: "Notas", Kind: content.KindText},
	}})
	const asset = "3f6c2a9e-8d1b-4c7a-9e2f-1a2b3c4d5e6f"
	const other = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"
	mk := func(title string, fields map[string]any) content.Item {
		it, _, err := f.store.Create(f.ctx, f.editor(), "aulas", content.Input{Title: title, Fields: fields}, "")
		if err != nil {
			t.Fatalf("create %s: %v", title, err)
		}
		return it
	}
	byVideo := mk("Por vídeo", map[string]any{"video_asset": asset})
	byFile := mk("Por material", map[string]any{"material": "media/" + asset + "/original.pdf"})
	mk("Outro vídeo", map[string]any{"video_asset": other})
	mk("Só no texto", map[string]any{"notes": asset}) // not a media field
	published := mk("Publicada", map[string]any{"video_asset": asset})
	p, err := f.store.Publish(f.ctx, f.editor(), published.ID, published.Version)
	if err != nil {
		t.Fatal(err)
	}
	// The working copy drops the video; readers still see it until republished.
	if _, err := f.store.Update(f.ctx, f.editor(), p.ID, p.Version, content.Input{Title: "Publicada", Fields: map[string]any{}}); err != nil {
		t.Fatal(err)
	}

	refs, err := f.store.ItemsReferencingAsset(f.ctx, asset, "")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range refs {
		if r.Type != "aulas" || r.Title == "" {
			t.Errorf("ref %+v", r)
		}
		ids = append(ids, r.ID)
	}
	want := []string{byFile.ID, byVideo.ID, published.ID}
	slices.Sort(ids)
	slices.Sort(want)
	if !slices.Equal(ids, want) {
		t.Errorf("refs %v, want %v", refs, want)
	}
	none, err := f.store.ItemsReferencingAsset(f.ctx, "00000000-0000-4000-8000-000000000000", "")
	if err != nil || len(none) != 0 {
		t.Errorf("unused asset: %v %v", none, err)
	}

	// A library page asks for all its assets at once: each gets its own.
	const unused = "00000000-0000-4000-8000-000000000000"
	many, err := f.store.ItemsReferencingAssets(f.ctx, []string{asset, other, unused}, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(many[asset]) != 3 || len(many[other]) != 1 || many[other][0].Title != "Outro vídeo" || len(many[unused]) != 0 {
		t.Errorf("batch lookup: %+v", many)
	}
}
