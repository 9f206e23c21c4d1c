package main

import (
	"testing"

	"github.com/vetclube/vetclube/plugins/sdk"
)

func TestManifestDeclaresPublishOnCreatePosts(t *testing.T) {
	p := Plugin()
	if err := p.Manifest.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(p.Manifest.ContentTypes) != 1 {
		t.Fatalf("types: %+v", p.Manifest.ContentTypes)
	}
	ct := p.Manifest.ContentTypes[0]
	if ct.ID != "posts" || ct.Plural != "Publicações" || ct.Workflow != sdk.WorkflowPublishOnCreate || ct.Route != "" {
		t.Fatalf("type: %+v", ct)
	}
	fields := map[string]sdk.ContentField{}
	for _, f := range ct.Fields {
		fields[f.Name] = f
	}
	if f := fields["content"]; f.Kind != sdk.ContentLongText || f.Max == nil || *f.Max != 5000 || f.Required {
		t.Fatalf("content field: %+v", f)
	}
	if f := fields["media"]; f.Max == nil || *f.Max != 10 {
		t.Fatalf("media field: %+v", f)
	}
}
