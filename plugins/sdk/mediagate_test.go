package sdk

import "testing"

func TestVideoNotReady(t *testing.T) {
	const id = "3f6c2a9e-8d1b-4c7a-9e2f-1a2b3c4d5e6f"
	item := func(a *MediaAsset) ContentItem {
		it := ContentItem{Fields: map[string]any{"video_asset": id}}
		if a != nil {
			it.Media = map[string]MediaAsset{"video_asset": *a}
		}
		return it
	}
	cases := []struct {
		name string
		it   ContentItem
		want string
	}{
		{"empty field", ContentItem{Fields: map[string]any{"video_asset": " "}}, MsgVideoChoose},
		{"unknown asset", item(nil), MsgVideoChoose},
		{"an image", item(&MediaAsset{ID: id, Kind: "image", State: MediaReady}), MsgVideoChoose},
		{"uploading", item(&MediaAsset{ID: id, Kind: "video", State: MediaUploading}), MsgVideoSending},
		{"processing", item(&MediaAsset{ID: id, Kind: "video", State: MediaProcessing, ProgressPercent: 42}),
			"O vídeo ainda está sendo processado (42 %). Envie para revisão quando estiver pronto."},
		{"failed", item(&MediaAsset{ID: id, Kind: "video", State: MediaFailed, Error: "O arquivo não pôde ser lido como vídeo."}),
			"O processamento do vídeo falhou: O arquivo não pôde ser lido como vídeo. Tente novamente na biblioteca de mídia."},
		{"failed without reason", item(&MediaAsset{ID: id, Kind: "video", State: MediaFailed}),
			"O processamento do vídeo falhou. Tente novamente na biblioteca de mídia."},
		{"unknown state", item(&MediaAsset{ID: id, Kind: "video", State: "arquivado"}), MsgVideoChoose},
		{"ready", item(&MediaAsset{ID: id, Kind: "video", State: MediaReady}), ""},
	}
	for _, c := range cases {
		if got := VideoNotReady(c.it, "video_asset"); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
