package main

import (
	"context"
	"testing"

	"github.com/vetclube/vetclube/plugins/sdk"
	"github.com/vetclube/vetclube/plugins/sdk/catalog"
	"github.com/vetclube/vetclube/plugins/sdk/sdktest"
)

func TestManifestIsValid(t *testing.T) {
	if err := Plugin().Manifest.Validate(); err != nil {
		t.Fatal(err)
	}
}

func validate(t *testing.T, typ string, fields map[string]any) sdk.ContentCheck {
	t.Helper()
	c, err := Validate(context.Background(), nil, sdk.ContentItem{Type: typ, Fields: fields})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestLessonValidation(t *testing.T) {
	c := validate(t, LessonType, map[string]any{"duration": "1:02:03", "video_source": "youtube", "youtube_url": "https://www.youtube.com/watch?v=dQw4w9WgXcQ"})
	if c.Errors != nil || c.Computed["duration_seconds"] != float64(3723) {
		t.Fatalf("valid lesson: %+v", c)
	}
	c = validate(t, LessonType, map[string]any{"youtube_url": "https://example.com/watch?v=abc", "vimeo_url": "https://vimeo.com/channels/x",
		"video_source": "stream", "materials": "Apostila | https://exemplo.com/a.pdf\nsem endereço", "external_link_title": "Leia"})
	want := map[string]string{"youtube_url": catalog.MsgYouTubeURL, "vimeo_url": catalog.MsgVimeoURL, "stream_url": catalog.MsgSourceMissing,
		"materials": MsgMaterialsFormat, "external_link_url": MsgExternalLinkURL}
	for f, msg := range want {
		if c.Errors[f] != msg {
			t.Errorf("%s: got %q, want %q", f, c.Errors[f], msg)
		}
	}
	if c.Computed["duration_seconds"] != float64(0) {
		t.Errorf("no duration: %v", c.Computed)
	}
}

func TestCourseAndCategoryValidation(t *testing.T) {
	c := validate(t, CourseType, map[string]any{"price": 100.0, "original_price": 50.0, "total_ratings": 3.5})
	if c.Errors["original_price"] != MsgOriginalPrice || c.Errors["total_ratings"] != catalog.MsgWholeNumber {
		t.Fatalf("course: %+v", c)
	}
	if c := validate(t, CategoryType, map[string]any{"hidden": true}); c.Computed["is_active"] != false {
		t.Fatalf("hidden category: %+v", c)
	}
	if c := validate(t, CategoryType, map[string]any{}); c.Computed["is_active"] != true {
		t.Fatalf("category: %+v", c)
	}
}

func TestBeforeTransition(t *testing.T) {
	refuse := func(typ string, f map[string]any, to string) string {
		r, err := BeforeTransition(context.Background(), nil, sdk.ContentItem{Type: typ, Fields: f}, to)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := refuse(LessonType, map[string]any{"body": "  "}, "publicado"); r != MsgLessonNothing {
		t.Errorf("empty lesson: %q", r)
	}
	if r := refuse(LessonType, map[string]any{"body": "Texto"}, "publicado"); r != "" {
		t.Errorf("text lesson: %q", r)
	}
	if r := refuse(LessonType, map[string]any{"vimeo_url": "https://vimeo.com/123456"}, "publicado"); r != "" {
		t.Errorf("vimeo lesson: %q", r)
	}
	if r := refuse(LessonType, map[string]any{"video_source": "upload", "youtube_url": "https://youtu.be/dQw4w9WgXcQ"}, "publicado"); r != sdk.MsgVideoChoose {
		t.Errorf("chosen source empty: %q", r)
	}
	if r := refuse(LessonType, map[string]any{"video_source": "vimeo", "youtube_url": "https://youtu.be/dQw4w9WgXcQ"}, "publicado"); r != MsgLessonNothing {
		t.Errorf("chosen source empty: %q", r)
	}
	if r := refuse(LessonType, map[string]any{}, "em_revisao"); r != "" {
		t.Errorf("review is not gated: %q", r)
	}
	if r := refuse(ModuleType, map[string]any{"lessons": []any{}}, "publicado"); r != MsgModuleWithoutAny {
		t.Errorf("empty module: %q", r)
	}
	if r := refuse(ModuleType, map[string]any{"lessons": []any{"x"}}, "publicado"); r != "" {
		t.Errorf("module: %q", r)
	}
}

// A lesson with an uploaded video moves to review, approval, scheduling or
// publication only once the video is processed; the refusal says why.
func TestLessonUploadWaitsForItsVideo(t *testing.T) {
	ctx := context.Background()
	host := sdktest.New(t)
	tool := Plugin()
	const id = "7a0c9a55-1f3e-4c1b-8f6e-2b9d3c4e5f60"
	lesson := func(a *sdk.MediaAsset) sdk.ContentItem {
		it := sdk.ContentItem{ID: "l1", Type: LessonType, Status: "rascunho",
			Fields: map[string]any{"video_source": "upload", "video_asset": id, "body": "Texto da aula"}}
		if a != nil {
			it.Media = map[string]sdk.MediaAsset{"video_asset": *a}
		}
		return it
	}
	cases := []struct {
		name  string
		asset *sdk.MediaAsset
		want  string
	}{
		{"processing", &sdk.MediaAsset{ID: id, Kind: "video", State: "processando", ProgressPercent: 7},
			"O vídeo ainda está sendo processado (7 %). Envie para revisão quando estiver pronto."},
		{"uploading", &sdk.MediaAsset{ID: id, Kind: "video", State: "enviando"}, "O envio do vídeo não terminou."},
		{"failed", &sdk.MediaAsset{ID: id, Kind: "video", State: "erro", Error: "O vídeo não pôde ser lido"},
			"O processamento do vídeo falhou: O vídeo não pôde ser lido. Tente novamente na biblioteca de mídia."},
		{"missing", nil, sdk.MsgVideoChoose},
		{"ready", &sdk.MediaAsset{ID: id, Kind: "video", State: "pronto", ProgressPercent: 100}, ""},
	}
	for _, c := range cases {
		for _, to := range []string{"em_revisao", "aprovado", "agendado", "publicado"} {
			if got, err := host.BeforeTransition(ctx, tool, lesson(c.asset), to); err != nil || got != c.want {
				t.Errorf("%s → %s: %q (%v), want %q", c.name, to, got, err, c.want)
			}
		}
	}
	if got, _ := host.BeforeTransition(ctx, tool, lesson(&sdk.MediaAsset{ID: id, Kind: "video", State: "processando"}), "rascunho"); got != "" {
		t.Errorf("back to draft refused: %q", got)
	}
	// With no source chosen, an asset alone makes the lesson an upload (as
	// core/courses reads it); a YouTube address before it does not.
	inferred := lesson(&sdk.MediaAsset{ID: id, Kind: "video", State: "processando", ProgressPercent: 50})
	delete(inferred.Fields, "video_source")
	if got, _ := host.BeforeTransition(ctx, tool, inferred, "em_revisao"); got != sdk.MsgVideoProcessing(50) {
		t.Errorf("inferred upload: %q", got)
	}
	inferred.Fields["youtube_url"] = "https://youtu.be/dQw4w9WgXcQ"
	if got, _ := host.BeforeTransition(ctx, tool, inferred, "em_revisao"); got != "" {
		t.Errorf("youtube first: %q", got)
	}
	// Other lessons and types never wait for media.
	yt := sdk.ContentItem{Type: LessonType, Fields: map[string]any{"video_source": "youtube", "youtube_url": "https://youtu.be/dQw4w9WgXcQ"}}
	if got, _ := host.BeforeTransition(ctx, tool, yt, "em_revisao"); got != "" {
		t.Errorf("youtube lesson: %q", got)
	}
}
