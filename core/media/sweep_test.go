package media_test

import (
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/media"
)

// startUpload creates an upload and sends its first half; it returns the
// asset id and the tus files (data file, .info).
func (e *env) startUpload(name string, data []byte) (id, bin, info string) {
	e.t.Helper()
	res := e.create(name, "video/mp4", int64(len(data)))
	if res.Status != http.StatusCreated {
		e.t.Fatalf("create %s: %d %s", name, res.Status, res.Body)
	}
	loc := res.Header.Get("Location")
	if r := e.patch(loc, 0, data[:len(data)/2]); r.Status != http.StatusNoContent {
		e.t.Fatalf("first half of %s: %d %s", name, r.Status, r.Body)
	}
	u, _ := url.Parse(loc)
	bin = filepath.Join(e.srv.Env["DATA_DIR"], "media-incoming", filepath.Base(u.Path))
	return res.Header.Get(media.AssetIDHeader), bin, bin + ".info"
}

// age makes an asset's row and files look last touched ago.
func (e *env) age(id string, ago time.Duration, files ...string) {
	e.t.Helper()
	if id != "" {
		if _, err := e.srv.App.Pool.Exec(e.ctx, `UPDATE media_assets SET updated_at = now() - make_interval(secs => $2) WHERE id = $1`,
			id, ago.Seconds()); err != nil {
			e.t.Fatal(err)
		}
	}
	at := time.Now().Add(-ago)
	for _, f := range files {
		if err := os.Chtimes(f, at, at); err != nil {
			e.t.Fatal(err)
		}
	}
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func TestSweepRemovesAbandonedUploadsOnly(t *testing.T) {
	e := newEnv(t)
	video := sampleVideo(t)
	day := media.AbandonedAfter

	abandoned, aBin, aInfo := e.startUpload("abandonado.mp4", video)
	e.age(abandoned, day+time.Hour, aBin, aInfo)

	// Its row is old, but a chunk arrived a minute ago: a slow upload.
	slow, sBin, sInfo := e.startUpload("lento.mp4", video)
	e.age(slow, day+time.Hour, sInfo)
	e.age("", time.Minute, sBin)

	recent, rBin, _ := e.startUpload("recente.mp4", video)

	// Every byte arrived but the server failed to move the asset on: it
	// is finished, never thrown away.
	complete, cBin, cInfo := e.startUpload("completo.mp4", video)
	if err := os.WriteFile(cBin, video, 0o644); err != nil {
		t.Fatal(err)
	}
	e.age(complete, day+time.Hour, cBin, cInfo)

	// An old failed asset is not an upload in progress.
	failedID, _ := e.upload("ruim.mp4", "video/mp4", []byte("not a video at all"))
	e.age(failedID, 10*day)

	incoming := filepath.Join(e.srv.Env["DATA_DIR"], "media-incoming")
	orphan := filepath.Join(incoming, "0123456789abcdef0123456789abcdef")
	freshOrphan := filepath.Join(incoming, "fedcba9876543210fedcba9876543210")
	for _, f := range []string{orphan, orphan + ".info", freshOrphan} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e.age("", day+time.Hour, orphan, orphan+".info")

	n, err := e.svc.SweepAbandoned(e.ctx, day)
	if err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Errorf("swept %d assets, want 1", n)
	}
	if r := e.staff.Do("GET", "/api/admin/media/"+abandoned, nil); r.Status != http.StatusNotFound {
		t.Errorf("abandoned asset still answers %d", r.Status)
	}
	if exists(aBin) || exists(aInfo) {
		t.Errorf("tus files of the abandoned upload remain")
	}
	for _, id := range []string{slow, recent} {
		if a := e.get(id); a.State != media.StateUploading {
			t.Errorf("live upload %s is %s", a.OriginalName, a.State)
		}
	}
	if !exists(sBin) || !exists(sInfo) || !exists(rBin) {
		t.Errorf("files of a live upload were removed")
	}
	if a := e.get(complete); a.State != media.StateProcessing {
		t.Errorf("complete upload is %s %q, want processando", a.State, a.Error)
	}
	if calls := e.proc.calls(); len(calls) != 1 || calls[0] != complete+"#1" {
		t.Errorf("processing starts %v, want [%s#1]", calls, complete)
	}
	if a := e.get(failedID); a.State != media.StateFailed {
		t.Errorf("failed asset is %s", a.State)
	}
	if exists(orphan) || exists(orphan+".info") {
		t.Errorf("old files of no upload remain")
	}
	if !exists(freshOrphan) {
		t.Errorf("a fresh incoming file was removed")
	}

	// The slow upload finishes normally after the sweep.
	u, _ := url.Parse(e.staff.URLFor(media.UploadsPath + filepath.Base(sBin)))
	if r := e.patch(u.String(), int64(len(video)/2), video[len(video)/2:]); r.Status != http.StatusNoContent {
		t.Fatalf("rest of the slow upload: %d %s", r.Status, r.Body)
	}
	if a := e.get(slow); a.State != media.StateProcessing {
		t.Errorf("slow upload ended %s", a.State)
	}
}

func TestDeleteIsRefusedWhileProcessing(t *testing.T) {
	e := newEnv(t)
	id, res := e.upload("aula.mp4", "video/mp4", sampleVideo(t))
	if res.Status != http.StatusNoContent {
		t.Fatalf("upload: %d %s", res.Status, res.Body)
	}
	r := e.staff.Do("DELETE", "/api/admin/media/"+id, nil)
	if r.Status != http.StatusConflict || r.ErrorMessage() != "Aguarde o processamento terminar para excluir este vídeo." {
		t.Fatalf("delete while processando: %d %s", r.Status, r.Body)
	}
	if a := e.get(id); a.State != media.StateProcessing {
		t.Fatalf("after the refused delete: %s", a.State)
	}
	if _, err := e.svc.Source(e.ctx, id); err != nil {
		t.Fatalf("original gone after the refused delete: %v", err)
	}
	// Processing that wrote nothing for a day is stuck (its workflow is
	// gone): the video may go.
	stuck, _ := e.upload("parada.mp4", "video/mp4", sampleVideo(t))
	e.age(stuck, media.ProcessingStuckAfter-time.Hour)
	if r := e.staff.Do("DELETE", "/api/admin/media/"+stuck, nil); r.Status != http.StatusConflict {
		t.Errorf("delete of a video processando for 23 h: %d %s", r.Status, r.Body)
	}
	if r := e.staff.Do("POST", "/api/admin/media/"+stuck+"/retry", nil); r.Status != http.StatusConflict {
		t.Errorf("retry of a video processando for 23 h: %d %s", r.Status, r.Body)
	}
	e.age(stuck, media.ProcessingStuckAfter+time.Hour)
	// A stuck video may also be retried: a new attempt starts.
	r = e.staff.Do("POST", "/api/admin/media/"+stuck+"/retry", nil)
	if r.Status != http.StatusAccepted {
		t.Fatalf("retry of a stuck video: %d %s", r.Status, r.Body)
	}
	if a := e.get(stuck); a.State != media.StateProcessing || a.Attempt != 2 {
		t.Fatalf("after retrying a stuck video: %s attempt %d", a.State, a.Attempt)
	}
	e.age(stuck, media.ProcessingStuckAfter+time.Hour)
	if r := e.staff.Do("DELETE", "/api/admin/media/"+stuck, nil); r.Status != http.StatusNoContent {
		t.Errorf("delete of a stuck video: %d %s", r.Status, r.Body)
	}
	// Once processing has ended (here in erro), the video may go.
	if err := e.svc.Failed(e.ctx, id, "O processamento do vídeo falhou."); err != nil {
		t.Fatal(err)
	}
	if r := e.staff.Do("DELETE", "/api/admin/media/"+id, nil); r.Status != http.StatusNoContent {
		t.Fatalf("delete in erro: %d %s", r.Status, r.Body)
	}
	if _, err := os.Stat(filepath.Join(e.srv.Env["DATA_DIR"], "media-originals", "media", id)); !os.IsNotExist(err) {
		t.Errorf("original of the deleted video remains: %v", err)
	}
}

// A PATCH running when the sweep comes (after 24 h of silence the client
// resumes: its connection is open, the files still look old) keeps its
// upload: the sweep leaves it, and the rest of the file completes it.
func TestSweepLeavesAnUploadWhoseChunkIsArriving(t *testing.T) {
	e := newEnv(t)
	video := sampleVideo(t)
	day := media.AbandonedAfter
	res := e.create("retomado.mp4", "video/mp4", int64(len(video)))
	if res.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", res.Status, res.Body)
	}
	id, loc := res.Header.Get(media.AssetIDHeader), res.Header.Get("Location")
	half := len(video) / 2
	if r := e.patch(loc, 0, video[:half]); r.Status != http.StatusNoContent {
		t.Fatalf("first half: %d %s", r.Status, r.Body)
	}
	u, _ := url.Parse(loc)
	bin := filepath.Join(e.srv.Env["DATA_DIR"], "media-incoming", filepath.Base(u.Path))

	// The second half's PATCH starts and sends a few bytes, then waits.
	body, feed := io.Pipe()
	req, _ := http.NewRequest("PATCH", loc, body)
	req.ContentLength = int64(len(video) - half)
	req.Header.Set("Tus-Resumable", "1.0.0")
	req.Header.Set("Upload-Offset", strconv.Itoa(half))
	req.Header.Set("Content-Type", "application/offset+octet-stream")
	answer := make(chan apptest.Response, 1)
	go func() { answer <- e.staff.Send(req) }()
	if _, err := feed.Write(video[half : half+10]); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		if st, err := os.Stat(bin); err == nil && st.Size() == int64(half+10) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the running PATCH's first bytes never reached the file")
		}
		time.Sleep(20 * time.Millisecond)
	}
	e.age(id, day+time.Hour, bin, bin+".info")

	if n, err := e.svc.SweepAbandoned(e.ctx, day); err != nil || n != 0 {
		t.Fatalf("sweep removed %d (%v) while a chunk was arriving", n, err)
	}
	if _, err := feed.Write(video[half+10:]); err != nil {
		t.Fatal(err)
	}
	feed.Close()
	if r := <-answer; r.Status != http.StatusNoContent {
		t.Fatalf("second half: %d %s", r.Status, r.Body)
	}
	if a := e.get(id); a.State != media.StateProcessing || a.SizeBytes != int64(len(video)) {
		t.Fatalf("resumed upload: %s %d", a.State, a.SizeBytes)
	}
}
