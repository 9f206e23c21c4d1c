package main

import (
	"context"
	"testing"
	"time"

	"github.com/vetclube/vetclube/plugins/sdk"
	"github.com/vetclube/vetclube/plugins/sdk/sdktest"
)

func TestManifestIsValid(t *testing.T) {
	if err := Plugin().Manifest.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(States) != 27 {
		t.Fatalf("%d UFs, want 27", len(States))
	}
}

// The core's read model of this plugin's content is filled by a trigger
// that reads the published fields by name; every name it reads must be one
// this plugin declares.
func TestProjectionReadsDeclaredFields(t *testing.T) {
	sdktest.CheckProjection(t, "../../migrations", "job_listings_sync", Plugin().Manifest.ContentTypes)
}

func TestValidate(t *testing.T) {
	check := func(fields map[string]any) map[string]string {
		t.Helper()
		c, err := Validate(context.Background(), nil, sdk.ContentItem{Type: TypeID, Fields: fields})
		if err != nil {
			t.Fatal(err)
		}
		return c.Errors
	}
	for _, tc := range []struct {
		fields map[string]any
		field  string
		want   string
	}{
		{map[string]any{"salary_min": 5000.0, "salary_max": 4000.0, "apply_kind": "vetclube"}, "salary_max", MsgSalaryRange},
		{map[string]any{"salary_min": 5000.5, "apply_kind": "vetclube"}, "salary_min", MsgSalaryWhole},
		{map[string]any{"apply_kind": "link", "apply_value": "http://clinica.com.br/vagas"}, "apply_value", MsgApplyLink},
		{map[string]any{"apply_kind": "link", "apply_value": "javascript:alert(1)"}, "apply_value", MsgApplyLink},
		{map[string]any{"apply_kind": "link", "apply_value": "https://user:pw@clinica.com.br"}, "apply_value", MsgApplyLink},
		{map[string]any{"apply_kind": "email", "apply_value": "rh@clinica"}, "apply_value", MsgApplyEmail},
		{map[string]any{"apply_kind": "email", "apply_value": "RH <rh@clinica.com.br>"}, "apply_value", MsgApplyEmail},
		{map[string]any{"apply_kind": "vetclube", "apply_value": "https://x.com"}, "apply_value", MsgApplyNoValue},
	} {
		if got := check(tc.fields)[tc.field]; got != tc.want {
			t.Errorf("%v: %s = %q, want %q", tc.fields, tc.field, got, tc.want)
		}
	}
	for _, ok := range []map[string]any{
		{"salary_min": 4000.0, "salary_max": 4000.0, "apply_kind": "vetclube"},
		{"apply_kind": "vetclube"},
		{"apply_kind": "link", "apply_value": "https://clinica.com.br/vagas?id=3"},
		{"apply_kind": "email", "apply_value": "rh@clinica.com.br"},
	} {
		if errs := check(ok); errs != nil {
			t.Errorf("%v refused: %v", ok, errs)
		}
	}
}

func TestBeforeTransitionRefusesAClosedJob(t *testing.T) {
	defer func(n func() time.Time) { now = n }(now)
	// 2026-12-10 23:30 in Brasília is 2026-12-11 02:30 UTC.
	now = func() time.Time { return time.Date(2026, 12, 11, 2, 30, 0, 0, time.UTC) }
	item := func(day string) sdk.ContentItem {
		return sdk.ContentItem{Type: TypeID, Fields: map[string]any{"closes_at": day}}
	}
	ctx := context.Background()
	if r, _ := BeforeTransition(ctx, nil, item("2026-12-10"), "publicado"); r != "" {
		t.Fatalf("closing day still running refused: %q", r)
	}
	if r, _ := BeforeTransition(ctx, nil, item("2026-12-09"), "publicado"); r != MsgClosesInPast {
		t.Fatalf("closed job published: %q", r)
	}
	if r, _ := BeforeTransition(ctx, nil, item("2026-12-09"), "agendado"); r != MsgClosesInPast {
		t.Fatalf("closed job scheduled: %q", r)
	}
	if r, _ := BeforeTransition(ctx, nil, item("2026-12-09"), "rascunho"); r != "" {
		t.Fatalf("unpublishing refused: %q", r)
	}
	end, err := ClosesAt("2026-12-10")
	if err != nil || !end.Equal(time.Date(2026, 12, 11, 3, 0, 0, 0, time.UTC)) {
		t.Fatalf("closes at %v %v", end, err)
	}
}
