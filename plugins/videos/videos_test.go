package main

import (
	"context"
	"testing"

	"github.com/vetclube/vetclube/plugins/sdk"
	"github.com/vetclube/vetclube/plugins/sdk/catalog"
	"github.com/vetclube/vetclube/plugins/sdk/sdktest"
)

func TestValidateAndPublishRules(t *testing.T) {
	ctx := context.Background()
	check := func(typ string, f map[string]any) sdk.ContentCheck {
		t.Helper()
		c, err := Validate(ctx, nil, sdk.ContentItem{Type: typ, Fields: f})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	c := check(VideoType, map[string]any{"video_source": "youtube", "youtube_url": "https://youtu.be/aqz-KE-bpKQ", "duration": "1:02:03"})
	if len(c.Errors) != 0 || c.Computed["duration_seconds"] != float64(3723) {
		t.Fatalf("valid video: %+v", c)
	}
	c = check(VideoType, map[string]any{"video_source": "vimeo", "youtube_url": "https://example.com/v", "stream_url": "http://x/y.m3u8"})
	if c.Errors["youtube_url"] != catalog.MsgYouTubeURL || c.Errors["vimeo_url"] != catalog.MsgSourceMissing || c.Errors["stream_url"] != catalog.MsgStreamURL {
		t.Fatalf("errors: %+v", c.Errors)
	}
	if c := check(CategoryType, map[string]any{"hidden": true}); c.Computed["is_active"] != false {
		t.Fatalf("hidden category active: %+v", c)
	}
	for f, want := range map[string]string{
		"youtube": "",
		"stream":  MsgNothingToPlay,
		"":        MsgNothingToPlay,
	} {
		fields := map[string]any{"video_source": f, "youtube_url": "https://youtu.be/aqz-KE-bpKQ", "video_asset": "x"}
		got, err := BeforeTransition(ctx, nil, sdk.ContentItem{Type: VideoType, Fields: fields}, "publicado")
		if err != nil || got != want {
			t.Fatalf("publish %q: %q, want %q", f, got, want)
		}
	}
}

// An uploaded video moves to review, approval, scheduling or publication
// only once its asset is processed; the refusal says what is missing.
func TestUploadedVideoWaitsForItsAsset(t *testing.T) {
	ctx := context.Background()
	host := sdktest.New(t)
	tool := Plugin()
	const id = "5d7c2f7e-8b1a-4a53-9a51-0c0d7e2f6a11"
	item := func(a *sdk.MediaAsset) sdk.ContentItem {
		it := sdk.ContentItem{ID: "v1", Type: VideoType, Status: "rascunho",
			Fields: map[string]any{"video_source": "upload", "video_asset": id}}
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
		{"processing", &sdk.MediaAsset{ID: id, Kind: "video", State: "processando", ProgressPercent: 42},
			"O vídeo ainda está sendo processado (42 %). Envie para revisão quando estiver pronto."},
		{"uploading", &sdk.MediaAsset{ID: id, Kind: "video", State: "enviando"}, "O envio do vídeo não terminou."},
		{"failed", &sdk.MediaAsset{ID: id, Kind: "video", State: "erro", Error: "O arquivo não é um vídeo válido (mp4, mov, webm ou mkv)."},
			"O processamento do vídeo falhou: O arquivo não é um vídeo válido (mp4, mov, webm ou mkv). Tente novamente na biblioteca de mídia."},
		{"unknown asset", nil, "Escolha o vídeo enviado."},
		{"an image", &sdk.MediaAsset{ID: id, Kind: "image", State: "pronto"}, "Escolha o vídeo enviado."},
		{"ready", &sdk.MediaAsset{ID: id, Kind: "video", State: "pronto", ProgressPercent: 100, DurationSeconds: 95}, ""},
	}
	for _, c := range cases {
		for _, to := range []string{"em_revisao", "aprovado", "agendado", "publicado"} {
			got, err := host.BeforeTransition(ctx, tool, item(c.asset), to)
			if err != nil || got != c.want {
				t.Errorf("%s → %s: %q (%v), want %q", c.name, to, got, err, c.want)
			}
		}
	}
	// Going back to draft or to archive is never held up by the asset.
	for _, to := range []string{"rascunho", "arquivado", "alteracoes_solicitadas"} {
		if got, err := host.BeforeTransition(ctx, tool, item(&sdk.MediaAsset{ID: id, Kind: "video", State: "processando"}), to); err != nil || got != "" {
			t.Errorf("→ %s refused: %q (%v)", to, got, err)
		}
	}
	noAsset := item(nil)
	noAsset.Fields["video_asset"] = ""
	if got, _ := host.BeforeTransition(ctx, tool, noAsset, "em_revisao"); got != sdk.MsgVideoChoose {
		t.Errorf("no asset chosen: %q", got)
	}
	if got := sdk.MsgVideoFailed(""); got != "O processamento do vídeo falhou. Tente novamente na biblioteca de mídia." {
		t.Errorf("failed without a reason: %q", got)
	}
}
