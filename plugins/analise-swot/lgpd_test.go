package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/vetclube/vetclube/plugins/sdk"
)

// A member's export holds their analyses and nobody else's; deleting them
// erases theirs only, and a second run changes nothing.
func TestExportAndDeleteAMembersAnalyses(t *testing.T) {
	k := newKit(t)
	for _, who := range []struct{ id, title string }{{anaID, "Clínica da Ana"}, {biaID, "Clínica da Bia"}} {
		if r := k.do(who.id, "POST", "/analyses", map[string]any{"title": who.title, "quadrants": map[string]any{"strengths": []string{"Equipe"}}}); r.status != 201 {
			t.Fatalf("create: %d %s", r.status, r.body)
		}
	}
	tool := sdk.Tool{Manifest: Manifest, ExportUser: exportUser, DeleteUser: deleteUser}
	ctx := context.Background()
	files, implemented, err := k.host.ExportUser(ctx, tool, anaID)
	if err != nil || !implemented || len(files) != 1 {
		t.Fatalf("export: %v %v %+v", err, implemented, files)
	}
	var got struct{ Analises []Analysis }
	if err := json.Unmarshal(files[0].Data, &got); err != nil || len(got.Analises) != 1 || got.Analises[0].Title != "Clínica da Ana" {
		t.Fatalf("export %s: %v", files[0].Data, err)
	}
	if strings.Contains(string(files[0].Data), "Bia") {
		t.Fatal("another member's analysis in the export")
	}
	for range 2 {
		if implemented, err := k.host.DeleteUser(ctx, tool, anaID); err != nil || !implemented {
			t.Fatalf("delete: %v %v", err, implemented)
		}
	}
	var list struct{ Analyses []Analysis }
	k.do(anaID, "GET", "/analyses", nil).decode(t, &list)
	if len(list.Analyses) != 0 {
		t.Fatalf("ana still has %+v", list.Analyses)
	}
	k.do(biaID, "GET", "/analyses", nil).decode(t, &list)
	if len(list.Analyses) != 1 {
		t.Fatalf("bia's analysis went too: %+v", list.Analyses)
	}
}
