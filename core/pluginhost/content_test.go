package pluginhost_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/pluginhost"
)

// The news plugin, a real process, declares its type and takes part in
// writes: the core registers the type from the manifest, drops what an
// editor sends for the computed reading time, stores the plugin's value and
// shows the plugin's field errors.
func TestContentPluginDeclaresItsTypeAndAnswersHooks(t *testing.T) {
	reg := content.NewRegistry()
	h := start(t, install(t, "noticias", "fixture"), pluginhost.Options{ContentTypes: reg})
	news, ok := reg.Get("noticias")
	if !ok {
		t.Fatalf("the news type was not registered; logs:\n%s", h.logs.String())
	}
	if news.Route != "/noticias-veterinarias" || news.Singular != "Notícia" || reg.Owner("noticias") != "noticias" {
		t.Fatalf("registered type: %+v (owner %q)", news, reg.Owner("noticias"))
	}
	if f, ok := news.Field("reading_minutes"); !ok || !f.Computed {
		t.Fatalf("reading time not declared as computed: %+v", f)
	}
	// A content plugin is not a tool: it stays out of the tools catalogue.
	editor := h.newUser(t, core.RoleEditor)
	var catalogue struct{ Tools []struct{ ID string } }
	h.call(editor, "GET", "/api/tools", nil).decode(t, &catalogue)
	if len(catalogue.Tools) != 1 {
		t.Fatalf("catalogue: %+v", catalogue)
	}
	for _, tool := range catalogue.Tools {
		if tool.ID == "noticias" {
			t.Fatal("the news plugin is listed as a tool")
		}
	}

	store := content.New(h.pool, reg, content.Options{Hooks: h.m.ContentHooks()})
	actor := content.Actor{UserID: editor.UserID, Channel: content.ChannelBackoffice}
	body := strings.Repeat("O Conselho Federal publicou uma resolução sobre telemedicina veterinária. ", 50) // 450 words
	in := content.Input{Title: "Nova resolução sobre telemedicina", Summary: "O que muda para clínicas.", Fields: map[string]any{
		"body": body, "category": "legislacao", "source_url": "https://www.cfmv.gov.br/", "reading_minutes": 99,
	}}
	_, _, err := store.Create(t.Context(), actor, "noticias", in, "")
	var e *core.Error
	if !errors.As(err, &e) || e.Code != core.EINVALID || e.Fields["source_name"] != "Informe o nome da fonte junto com o link." {
		t.Fatalf("the plugin's field error: %v", err)
	}
	in.Fields["source_name"] = "CFMV"
	it, _, err := store.Create(t.Context(), actor, "noticias", in, "")
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]any
	if err := json.Unmarshal(it.Fields, &fields); err != nil {
		t.Fatal(err)
	}
	if fields["reading_minutes"] != 3.0 {
		t.Fatalf("reading time %v, want the plugin's 3 (not the editor's 99)", fields["reading_minutes"])
	}
}
