// Command contentfixture is a content plugin built only by the host's tests.
// It declares a video lesson type and implements every content hook through
// the SDK, so the tests drive BeforeTransition and AfterPublish over gRPC
// through a real process: BeforeTransition refuses to publish or schedule a
// lesson whose video is still processing, and AfterPublish records each
// publish it is told about in the plugin's key-value store, where the tests
// count them. Boolean fields make a hook hang, crash the process or fail, to
// test what the host does when the plugin cannot answer. Its id is set at
// build time with -ldflags -X main.pluginID=...; -X main.clashRoute=/path
// adds a second type served at that path, which the tests make collide with
// a type already registered.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/vetclube/vetclube/plugins/sdk"
)

var (
	pluginID   = "fixture-content"
	clashRoute = ""
)

// typeID is the video lesson type.
const typeID = "aulas-em-video"

// msgProcessing is the refusal editors read while the video is processing.
const msgProcessing = "O vídeo ainda está sendo processado."

// publicationsKey is the key-value entry listing the publishes AfterPublish
// was told about for one item.
func publicationsKey(itemID string) string { return "publicacoes/" + itemID }

// publication is one AfterPublish call as recorded (the tests decode the same JSON).
type publication struct {
	ID        string `json:"id"`
	Version   int    `json:"version"`
	Status    string `json:"status"`
	Published bool   `json:"published"`
	Title     string `json:"title"`
}

func main() {
	types := []sdk.ContentType{{
		ID: typeID, Singular: "Aula em vídeo", Plural: "Aulas em vídeo", Icon: "video",
		Fields: []sdk.ContentField{
			{Name: "video_url", Label: "Link do vídeo", Kind: sdk.ContentURL},
			{Name: "processing", Label: "Vídeo em processamento", Kind: sdk.ContentBoolean},
			// Test switches: what the hooks do instead of answering.
			{Name: "hang", Label: "Travar o gancho (teste)", Kind: sdk.ContentBoolean},
			{Name: "crash", Label: "Derrubar o plugin (teste)", Kind: sdk.ContentBoolean},
			{Name: "fail_after_publish", Label: "Falhar depois de publicar (teste)", Kind: sdk.ContentBoolean},
		},
		List:     sdk.ContentList{DefaultSort: sdk.ContentSort{Field: "published_at", Desc: true}},
		Workflow: sdk.WorkflowEditorial,
	}}
	if clashRoute != "" {
		types = append(types, sdk.ContentType{
			ID: typeID + "-extra", Singular: "Aula extra", Plural: "Aulas extras", Icon: "video", Route: clashRoute,
			List: sdk.ContentList{DefaultSort: sdk.ContentSort{Field: "published_at", Desc: true}},
		})
	}
	sdk.Serve(sdk.Tool{
		Manifest: sdk.Manifest{
			ID: pluginID, Name: "Conteúdo de teste " + pluginID, Description: "Usado pelos testes do host.",
			Version: "0.1.0", MinCoreVersion: "1.0.0", Kind: sdk.KindContent, Icon: "video",
			ContentTypes: types,
		},
		Content: sdk.ContentHooks{
			ValidateContent:  validate,
			BeforeTransition: beforeTransition,
			AfterPublish:     afterPublish,
		},
	})
}

func validate(context.Context, *sdk.Host, sdk.ContentItem) (sdk.ContentCheck, error) {
	return sdk.ContentCheck{}, nil
}

func beforeTransition(_ context.Context, _ *sdk.Host, it sdk.ContentItem, to string) (string, error) {
	switch {
	case it.Fields["crash"] == true:
		os.Exit(3)
	case it.Fields["hang"] == true:
		select {} // ignores the host's deadline, as a stuck plugin would
	}
	// A lesson goes public (now or at its moment) only with a playable video.
	if (to == "publicado" || to == "agendado") && it.Fields["processing"] == true {
		return msgProcessing, nil
	}
	return "", nil
}

// afterPublish appends the publish to the item's entry with a
// compare-and-set loop, so a call is never lost nor counted twice.
func afterPublish(ctx context.Context, host *sdk.Host, it sdk.ContentItem) error {
	if it.Fields["fail_after_publish"] == true {
		return errors.New("fixture told to fail after publish")
	}
	key := publicationsKey(it.ID)
	for range 100 {
		old, found, err := host.KVGet(ctx, key)
		if err != nil {
			return err
		}
		var list []publication
		if found {
			if err := json.Unmarshal(old, &list); err != nil {
				return fmt.Errorf("decode %s: %w", key, err)
			}
		} else {
			old = nil
		}
		list = append(list, publication{ID: it.ID, Version: it.Version, Status: it.Status, Published: it.Published, Title: it.Title})
		b, err := json.Marshal(list)
		if err != nil {
			return fmt.Errorf("encode %s: %w", key, err)
		}
		ok, err := host.KVCompareAndSet(ctx, key, old, b, 0)
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
	}
	return fmt.Errorf("record %s: too many concurrent writers", key)
}
