package sdktest_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/vetclube/vetclube/plugins/sdk"
	"github.com/vetclube/vetclube/plugins/sdk/sdktest"
)

// limitHandler is a plugin route that refuses a new patient at the limit.
func limitHandler(host *sdk.Host) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		used, _ := strconv.Atoi(r.URL.Query().Get("used"))
		lim, err := host.CheckLimit(r.Context(), r.URL.Query().Get("name"), used)
		if err != nil {
			sdk.WriteHostError(w, err, "Não foi possível verificar seu plano.")
			return
		}
		if !lim.Allowed {
			sdk.WriteLimit(w, lim)
			return
		}
		sdk.WriteJSON(w, 201, lim)
	})
}

func TestFakeHostLimits(t *testing.T) {
	host := sdktest.New(t)
	host.SetLimit("patients", 10)
	h := limitHandler(host.Host)
	do := func(q string, u sdk.User) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, host.As(httptest.NewRequest("POST", "/?"+q, nil), u))
		return rec
	}
	if rec := do("name=patients&used=9", sdktest.User("u1")); rec.Code != 201 {
		t.Fatalf("within: %d %s", rec.Code, rec.Body)
	}
	rec := do("name=patients&used=10", sdktest.User("u1"))
	var body struct {
		Error struct {
			Message string
			Upgrade bool
		}
	}
	_ = json.Unmarshal(rec.Body.Bytes(), &body)
	if rec.Code != 403 || !body.Error.Upgrade || body.Error.Message != "Você atingiu o limite de 10 pacientes do teste gratuito. Assine o Premium para ter pacientes ilimitados." {
		t.Fatalf("at the limit: %d %s", rec.Code, rec.Body)
	}
	// A premium member (by subscription or SetPremium) is unlimited.
	if rec := do("name=patients&used=99", sdk.User{ID: "u2", Subscription: "premium"}); rec.Code != 201 {
		t.Fatalf("premium user: %d %s", rec.Code, rec.Body)
	}
	host.SetPremium(true)
	if rec := do("name=patients&used=99", sdktest.User("u1")); rec.Code != 201 {
		t.Fatalf("SetPremium: %d %s", rec.Code, rec.Body)
	}
	// An undeclared name fails like the core's PermissionDenied (500).
	if rec := do("name=simulados&used=0", sdktest.User("u1")); rec.Code != 500 {
		t.Fatalf("undeclared: %d %s", rec.Code, rec.Body)
	}
	if n := len(host.LimitChecks()); n != 4 {
		t.Errorf("recorded %d checks, want 4", n)
	}
}

func TestLimitReasons(t *testing.T) {
	for _, tc := range []struct {
		name  string
		limit int
		want  string
	}{
		{"simulados", 3, "Você atingiu o limite de 3 simulados do teste gratuito. Assine o Premium para ter simulados ilimitados."},
		{"courses", 1, "Você atingiu o limite de 1 curso do teste gratuito. Assine o Premium para ter todos os cursos."},
		{"patients", 0, "O teste gratuito não inclui pacientes. Assine o Premium para ter pacientes ilimitados."},
		{"rockets", 4, "Você atingiu o limite do teste gratuito. Assine o Premium para continuar."},
	} {
		if got := sdk.LimitReason(tc.name, tc.limit); got != tc.want {
			t.Errorf("%s %d: %q", tc.name, tc.limit, got)
		}
	}
}

func TestFakeHostFiles(t *testing.T) {
	host := sdktest.New(t)
	id := host.AddFile("u1", sdk.File{Kind: sdk.FilePDF, ContentType: "application/pdf", Name: "exame.pdf", Data: []byte("%PDF-1.4")})
	ctx := host.Context(t.Context(), sdktest.User("u1"))
	f, err := host.Host.File(ctx, id)
	if err != nil || f.Name != "exame.pdf" || f.Size != 8 || string(f.Data) != "%PDF-1.4" {
		t.Fatalf("own file: %+v %v", f, err)
	}
	other := host.Context(t.Context(), sdktest.User("u2"))
	if _, err := host.Host.File(other, id); !errors.Is(err, sdk.ErrNotFound) {
		t.Fatalf("another member's file: %v", err)
	}
	if deleted, err := host.Host.DeleteFile(other, id); err != nil || deleted {
		t.Fatalf("another member deleted it: %v %v", deleted, err)
	}
	if deleted, err := host.Host.DeleteFile(ctx, id); err != nil || !deleted || host.HasFile(id) {
		t.Fatalf("delete: %v %v", deleted, err)
	}
	if _, err := host.Host.File(ctx, id); !errors.Is(err, sdk.ErrNotFound) {
		t.Fatalf("deleted file: %v", err)
	}
}
