package media

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/httpx"
)

func TestUploadGateKeepsSweepAndChunksApart(t *testing.T) {
	g := newUploadGate()
	first, second := g.enter("a"), g.enter("a")
	if !first || !second {
		t.Fatal("two PATCHes on one upload were turned away")
	}
	if g.trySweep("a") {
		t.Fatal("the sweep took an upload receiving chunks")
	}
	g.leave("a")
	if g.trySweep("a") {
		t.Fatal("the sweep took an upload while a second PATCH still ran")
	}
	g.leave("a")
	if !g.trySweep("a") {
		t.Fatal("the sweep could not take an idle upload")
	}
	if g.enter("a") {
		t.Fatal("a PATCH entered an upload being swept")
	}
	if g.trySweep("a") {
		t.Fatal("two sweeps held one upload")
	}
	if !g.enter("b") {
		t.Fatal("another upload was turned away")
	}
	g.doneSweep("a")
	if !g.enter("a") {
		t.Fatal("a PATCH was turned away after the sweep let go")
	}
}

// A chunk for an upload the sweep holds is turned away with 423 and the
// reason in pt-BR, before tusd sees it.
func TestPatchDuringSweepIsAnsweredLocked(t *testing.T) {
	s := &Service{gate: newUploadGate(), incoming: t.TempDir(), log: slog.New(slog.DiscardHandler)}
	h, err := s.UploadHandler()
	if err != nil {
		t.Fatal(err)
	}
	if !s.gate.trySweep("abc123") {
		t.Fatal("the sweep could not take an idle upload")
	}
	req := httptest.NewRequest("PATCH", UploadsPath+"abc123", strings.NewReader("bytes"))
	req.Header.Set("Tus-Resumable", "1.0.0")
	req.Header.Set("Upload-Offset", "0")
	req.Header.Set("Content-Type", "application/offset+octet-stream")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var body httpx.ErrorBody
	_ = json.Unmarshal(rec.Body.Bytes(), &body)
	if rec.Code != http.StatusLocked || body.Error.Code != core.ELOCKED || body.Error.Message != MsgUploadExpiring {
		t.Fatalf("PATCH during the sweep: %d %s", rec.Code, rec.Body)
	}
	if s.gate.busy["abc123"] != 0 {
		t.Fatal("a turned-away PATCH left the upload marked busy")
	}
}
