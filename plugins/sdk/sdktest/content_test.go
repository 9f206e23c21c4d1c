package sdktest_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/vetclube/vetclube/plugins/sdk"
	"github.com/vetclube/vetclube/plugins/sdk/sdktest"
)

// The hooks receive the item after its wire round trip: numbers come back as
// JSON numbers and every media asset arrives under its field name.
func TestContentHooksSeeTheWireItem(t *testing.T) {
	host := sdktest.New(t)
	var seen sdk.ContentItem
	tool := sdk.Tool{Content: sdk.ContentHooks{
		BeforeTransition: func(_ context.Context, h *sdk.Host, it sdk.ContentItem, to string) (string, error) {
			if h != host.Host {
				t.Errorf("hook got another host")
			}
			seen = it
			if it.Media["video_asset"].State != sdk.MediaReady {
				return "não pronto", nil
			}
			return "", nil
		},
	}}
	asset := sdk.MediaAsset{ID: "0b8f0f44-3c1e-4f59-9d0e-6f7c1d2a9e10", Kind: "video", State: sdk.MediaProcessing,
		ProgressPercent: 42, DurationSeconds: 61.5, Error: ""}
	item := sdk.ContentItem{ID: "i1", Type: "videos", Status: "rascunho", Version: 3, Title: "Aula",
		Fields: map[string]any{"video_asset": asset.ID, "n": 7}, Media: map[string]sdk.MediaAsset{"video_asset": asset}}
	refusal, err := host.BeforeTransition(context.Background(), tool, item, "em_revisao")
	if err != nil || refusal != "não pronto" {
		t.Fatalf("refusal %q, err %v", refusal, err)
	}
	if !reflect.DeepEqual(seen.Media, item.Media) || seen.Fields["n"] != float64(7) || seen.Version != 3 || seen.Title != "Aula" {
		t.Fatalf("hook saw %+v", seen)
	}
	asset.State, asset.ProgressPercent = sdk.MediaReady, 100
	item.Media["video_asset"] = asset
	if refusal, err := host.BeforeTransition(context.Background(), tool, item, "publicado"); err != nil || refusal != "" {
		t.Fatalf("ready asset refused: %q, %v", refusal, err)
	}
	item.Media = nil
	if _, err := host.BeforeTransition(context.Background(), tool, item, "publicado"); err != nil || seen.Media != nil {
		t.Fatalf("no media: %+v, %v", seen.Media, err)
	}
	if c, err := host.ValidateContent(context.Background(), tool, item); err != nil || c.Errors != nil {
		t.Fatalf("a tool without a ValidateContent hook must accept: %+v, %v", c, err)
	}
}
