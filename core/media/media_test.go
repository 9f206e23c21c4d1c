package media_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/media"
)

// recordingProcessing stands in for Temporal in these tests only: it
// records which processing attempts the library started.
type recordingProcessing struct {
	mu      sync.Mutex
	starts  []string
	cancels []string
}

func (p *recordingProcessing) Start(_ context.Context, assetID string, attempt int) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.starts = append(p.starts, fmt.Sprintf("%s#%d", assetID, attempt))
	return nil
}

func (p *recordingProcessing) Cancel(_ context.Context, assetID string, attempt int) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cancels = append(p.cancels, fmt.Sprintf("%s#%d", assetID, attempt))
	return nil
}

func (p *recordingProcessing) cancelled() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.cancels...)
}

func (p *recordingProcessing) calls() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.starts...)
}

type env struct {
	t     *testing.T
	srv   *apptest.Server
	svc   *media.Service
	proc  *recordingProcessing
	staff *apptest.Client
	// staffID is the signed-in editor's user id.
	staffID string
	ctx     context.Context
}

func newEnv(t *testing.T) *env {
	t.Helper()
	srv := apptest.Start(t, nil)
	proc := &recordingProcessing{}
	srv.App.Media.SetProcessing(proc)
	staff, staffID := srv.SignedIn(t, "editora@vetclube.test", core.RoleEditor)
	return &env{t: t, srv: srv, svc: srv.App.Media, proc: proc, staff: staff, staffID: staffID, ctx: context.Background()}
}

// sampleVideo is a real two-second H.264 mp4 made by ffmpeg.
func sampleVideo(t *testing.T) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "sample.mp4")
	cmd := exec.Command("ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc=duration=2:size=320x240:rate=15",
		"-pix_fmt", "yuv420p", "-c:v", "libx264", "-preset", "ultrafast", out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v: %s", err, b)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func metadata(pairs ...string) string {
	var parts []string
	for i := 0; i+1 < len(pairs); i += 2 {
		parts = append(parts, pairs[i]+" "+base64.StdEncoding.EncodeToString([]byte(pairs[i+1])))
	}
	return strings.Join(parts, ",")
}

// create sends the tus creation request.
func (e *env) create(name, filetype string, size int64) apptest.Response {
	e.t.Helper()
	req, _ := http.NewRequest("POST", e.staff.URLFor(media.UploadsPath), nil)
	req.Header.Set("Tus-Resumable", "1.0.0")
	req.Header.Set("Upload-Length", strconv.FormatInt(size, 10))
	req.Header.Set("Upload-Metadata", metadata("filename", name, "filetype", filetype))
	return e.staff.Send(req)
}

func (e *env) patch(location string, offset int64, chunk []byte) apptest.Response {
	e.t.Helper()
	req, _ := http.NewRequest("PATCH", location, bytes.NewReader(chunk))
	req.Header.Set("Tus-Resumable", "1.0.0")
	req.Header.Set("Upload-Offset", strconv.FormatInt(offset, 10))
	req.Header.Set("Content-Type", "application/offset+octet-stream")
	return e.staff.Send(req)
}

func (e *env) head(location string) apptest.Response {
	e.t.Helper()
	req, _ := http.NewRequest("HEAD", location, nil)
	req.Header.Set("Tus-Resumable", "1.0.0")
	return e.staff.Send(req)
}

// upload sends a whole file in one PATCH and returns the asset id and the
// PATCH's answer.
func (e *env) upload(name, filetype string, data []byte) (string, apptest.Response) {
	e.t.Helper()
	res := e.create(name, filetype, int64(len(data)))
	if res.Status != http.StatusCreated {
		e.t.Fatalf("create %s: %d %s", name, res.Status, res.Body)
	}
	return res.Header.Get(media.AssetIDHeader), e.patch(res.Header.Get("Location"), 0, data)
}

// interruptedPatch sends a PATCH announcing the whole rest of the file but
// writes only part of it before dropping the connection, as a browser
// losing the network does.
func (e *env) interruptedPatch(location string, offset int64, total, part []byte) {
	e.t.Helper()
	u, _ := url.Parse(location)
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		e.t.Fatal(err)
	}
	var cookies []string
	csrf := ""
	for _, ck := range e.staff.HTTP.Jar.Cookies(u) {
		cookies = append(cookies, ck.Name+"="+ck.Value)
		if ck.Name == "vc_csrf" {
			csrf = ck.Value
		}
	}
	w := bufio.NewWriter(conn)
	fmt.Fprintf(w, "PATCH %s HTTP/1.1\r\nHost: %s\r\nTus-Resumable: 1.0.0\r\nUpload-Offset: %d\r\n"+
		"Content-Type: application/offset+octet-stream\r\nContent-Length: %d\r\nCookie: %s\r\nX-CSRF-Token: %s\r\n\r\n",
		u.Path, u.Host, offset, len(total), strings.Join(cookies, "; "), csrf)
	w.Write(part)
	if err := w.Flush(); err != nil {
		e.t.Fatal(err)
	}
	// Half-close and wait for the server's end: it reads everything sent,
	// meets the body's end early (as when the network drops) and answers or
	// closes, so no byte is still in flight when the connection goes.
	if err := conn.(*net.TCPConn).CloseWrite(); err != nil {
		e.t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	if _, err := io.Copy(io.Discard, conn); err != nil {
		e.t.Fatalf("waiting for the server to end the interrupted PATCH: %v", err)
	}
	conn.Close()
}

func (e *env) get(id string) media.Asset {
	e.t.Helper()
	res := e.staff.Do("GET", "/api/admin/media/"+id, nil)
	if res.Status != http.StatusOK {
		e.t.Fatalf("GET asset %s: %d %s", id, res.Status, res.Body)
	}
	var a media.Asset
	res.JSON(e.t, &a)
	return a
}

func TestInterruptedUploadResumesAndStartsProcessing(t *testing.T) {
	e := newEnv(t)
	video := sampleVideo(t)
	res := e.create("Aula de suturas.mp4", "video/mp4", int64(len(video)))
	if res.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", res.Status, res.Body)
	}
	id, loc := res.Header.Get(media.AssetIDHeader), res.Header.Get("Location")
	if id == "" || loc == "" {
		t.Fatalf("creation answered asset %q, location %q", id, loc)
	}
	if a := e.get(id); a.State != media.StateUploading || a.OriginalName != "Aula de suturas.mp4" || a.SizeBytes != int64(len(video)) {
		t.Fatalf("after creation: %+v", a)
	}

	half := len(video) / 2
	e.interruptedPatch(loc, 0, video, video[:half])
	// The dropped request may still hold the upload's lock for a moment:
	// HEAD waits for it and then reports what was kept.
	var offset int64 = -1
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		h := e.head(loc)
		if h.Status == http.StatusOK {
			offset, _ = strconv.ParseInt(h.Header.Get("Upload-Offset"), 10, 64)
			if offset == int64(half) {
				break
			}
		}
	}
	if offset != int64(half) {
		t.Fatalf("offset after the drop: %d, want %d", offset, half)
	}
	if a := e.get(id); a.State != media.StateUploading {
		t.Fatalf("a half upload is %s", a.State)
	}
	if calls := e.proc.calls(); len(calls) != 0 {
		t.Fatalf("processing started before the upload ended: %v", calls)
	}

	fin := e.patch(loc, offset, video[offset:])
	if fin.Status != http.StatusNoContent {
		t.Fatalf("final PATCH: %d %s", fin.Status, fin.Body)
	}
	if got := fin.Header.Get(media.AssetStateHeader); got != string(media.StateProcessing) {
		t.Errorf("final PATCH state header %q", got)
	}
	a := e.get(id)
	if a.State != media.StateProcessing || a.Attempt != 1 || a.MIMEType != "video/mp4" || a.Kind != media.KindVideo {
		t.Fatalf("after the upload: %+v", a)
	}
	if calls := e.proc.calls(); len(calls) != 1 || calls[0] != id+"#1" {
		t.Fatalf("processing starts %v, want [%s#1]", calls, id)
	}
	// The original is whole, in the private store, and not served.
	src, err := e.svc.Source(e.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(src.Path)
	if err != nil || !bytes.Equal(got, video) {
		t.Fatalf("stored original differs (%d bytes, %v)", len(got), err)
	}
	if !strings.HasSuffix(src.Path, filepath.FromSlash("media/"+id+"/original.mp4")) {
		t.Errorf("original at %s", src.Path)
	}
	if r := e.staff.Do("GET", "/uploads/media/"+id+"/original.mp4", nil); r.Status != http.StatusNotFound {
		t.Errorf("video original served publicly: %d", r.Status)
	}
	incoming, _ := os.ReadDir(filepath.Join(e.srv.Env["DATA_DIR"], "media-incoming"))
	if len(incoming) != 0 {
		t.Errorf("incoming files left: %v", incoming)
	}
	// The upload is over: tus no longer knows it, but its asset is found by
	// its upload id.
	if h := e.head(loc); h.Status != http.StatusNotFound {
		t.Errorf("HEAD after completion: %d", h.Status)
	}
	var byUpload media.Asset
	r := e.staff.Do("GET", strings.TrimPrefix(loc, e.srv.URL), nil)
	r.JSON(t, &byUpload)
	if r.Status != http.StatusOK || byUpload.ID != id {
		t.Errorf("GET by upload id: %d %s", r.Status, r.Body)
	}
}

func TestTusProtocolErrorsAreAnsweredInPortuguese(t *testing.T) {
	e := newEnv(t)
	res := e.create("aula.mp4", "video/mp4", 100)
	loc := res.Header.Get("Location")
	if r := e.patch(loc, 10, []byte("x")); r.Status != http.StatusConflict ||
		r.ErrorMessage() != "A posição do envio não confere. Consulte o progresso e continue de onde parou." {
		t.Errorf("wrong offset: %d %s", r.Status, r.Body)
	}
	req, _ := http.NewRequest("POST", e.staff.URLFor(media.UploadsPath), nil)
	req.Header.Set("Upload-Length", "10")
	if r := e.staff.Send(req); r.Status != http.StatusPreconditionFailed || r.ErrorMessage() != "Envio retomável: informe o cabeçalho Tus-Resumable: 1.0.0." {
		t.Errorf("no Tus-Resumable: %d %s", r.Status, r.Body)
	}
	if r := e.patch(e.staff.URLFor(media.UploadsPath+"0123456789abcdef0123456789abcdef"), 0, []byte("x")); r.Status != http.StatusNotFound ||
		r.ErrorMessage() != "Envio não encontrado. Comece o envio de novo." {
		t.Errorf("unknown upload: %d %s", r.Status, r.Body)
	}
	// Cancelling an upload removes its asset.
	id := res.Header.Get(media.AssetIDHeader)
	req, _ = http.NewRequest("DELETE", loc, nil)
	req.Header.Set("Tus-Resumable", "1.0.0")
	if r := e.staff.Send(req); r.Status != http.StatusNoContent {
		t.Fatalf("terminate: %d %s", r.Status, r.Body)
	}
	if r := e.staff.Do("GET", "/api/admin/media/"+id, nil); r.Status != http.StatusNotFound {
		t.Errorf("asset of a cancelled upload: %d", r.Status)
	}
}

func TestWrongBytesUnderAVideoNameEndInErro(t *testing.T) {
	e := newEnv(t)
	png := append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{7}, 5000)...)
	id, res := e.upload("aula.mp4", "video/mp4", png)
	if res.Status != http.StatusUnprocessableEntity || res.ErrorMessage() != media.MsgNotVideo ||
		!strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("PATCH of png bytes as mp4: %d %q", res.Status, res.Body)
	}
	a := e.get(id)
	if a.State != media.StateFailed || a.Error != media.MsgNotVideo {
		t.Fatalf("asset: %s %q", a.State, a.Error)
	}
	if calls := e.proc.calls(); len(calls) != 0 {
		t.Errorf("processing started for a non-video: %v", calls)
	}
	incoming, _ := os.ReadDir(filepath.Join(e.srv.Env["DATA_DIR"], "media-incoming"))
	if len(incoming) != 0 {
		t.Errorf("temporary file kept: %v", incoming)
	}
	// Nothing was kept to process again.
	if r := e.staff.Do("POST", "/api/admin/media/"+id+"/retry", nil); r.Status != http.StatusConflict || r.ErrorMessage() != media.MsgRetryNoSource {
		t.Errorf("retry of a refused upload: %d %s", r.Status, r.Body)
	}
}

func TestCreationRefusesTooLargeAndUnknownFiles(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		name, filetype string
		size           int64
		status         int
		msg            string
	}{
		{"foto.png", "image/png", media.MaxImageBytes + 1, http.StatusRequestEntityTooLarge, media.MsgImageTooLarge},
		{"aula.mp4", "video/mp4", media.MaxVideoBytes + 1, http.StatusRequestEntityTooLarge, media.MsgVideoTooLarge},
		{"apostila.pdf", "application/pdf", media.MaxDocumentBytes + 1, http.StatusRequestEntityTooLarge, media.MsgPDFTooLarge},
		{"setup.exe", "application/x-msdownload", 10, http.StatusBadRequest, media.MsgBadExtension},
		{"aula.mp4", "image/png", 10, http.StatusBadRequest, "O tipo informado (image/png) não corresponde à extensão do arquivo."},
	}
	for _, c := range cases {
		res := e.create(c.name, c.filetype, c.size)
		if res.Status != c.status || res.ErrorMessage() != c.msg {
			t.Errorf("%s (%d bytes): %d %q, want %d %q", c.name, c.size, res.Status, res.Body, c.status, c.msg)
		}
		if res.Header.Get(media.AssetIDHeader) != "" {
			t.Errorf("%s: an asset was created", c.name)
		}
	}
	list, total, err := e.svc.List(e.ctx, media.Query{})
	if err != nil || total != 0 || len(list) != 0 {
		t.Errorf("refused uploads left assets: %d %v", total, err)
	}
	// Only content staff may upload.
	member, _ := e.srv.SignedIn(t, "membro@vetclube.test")
	req, _ := http.NewRequest("POST", member.URLFor(media.UploadsPath), nil)
	req.Header.Set("Tus-Resumable", "1.0.0")
	req.Header.Set("Upload-Length", "10")
	req.Header.Set("Upload-Metadata", metadata("filename", "a.png"))
	if r := member.Send(req); r.Status != http.StatusForbidden {
		t.Errorf("member upload: %d", r.Status)
	}
}

func TestImagesAndPDFsAreReadyOnceChecked(t *testing.T) {
	e := newEnv(t)
	img := filepath.Join(t.TempDir(), "p.png")
	if b, err := exec.Command("ffmpeg", "-v", "error", "-f", "lavfi", "-i", "color=c=red:size=64x48", "-frames:v", "1", img).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v %s", err, b)
	}
	pngBytes, _ := os.ReadFile(img)
	id, res := e.upload("Capa.png", "image/png", pngBytes)
	if res.Status != http.StatusNoContent || res.Header.Get(media.AssetStateHeader) != string(media.StateReady) {
		t.Fatalf("png upload: %d %s %s", res.Status, res.Header.Get(media.AssetStateHeader), res.Body)
	}
	a := e.get(id)
	if a.State != media.StateReady || a.Width != 64 || a.Height != 48 || a.URL == "" || a.PosterURL != a.URL || a.ProgressPercent != 100 {
		t.Fatalf("image asset: %+v", a)
	}
	// An opaque picture is kept as a JPEG of its pixels.
	got := e.staff.Do("GET", a.URL, nil)
	if got.Status != http.StatusOK || got.Header.Get("Content-Type") != "image/jpeg" || a.MIMEType != "image/jpeg" || !bytes.HasPrefix(got.Body, []byte{0xFF, 0xD8, 0xFF}) {
		t.Errorf("GET image: %d %s %s", got.Status, got.Header.Get("Content-Type"), a.MIMEType)
	}
	pdf := []byte("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n")
	pid, res := e.upload("Apostila.pdf", "application/pdf", pdf)
	if res.Status != http.StatusNoContent {
		t.Fatalf("pdf upload: %d %s", res.Status, res.Body)
	}
	if p := e.get(pid); p.State != media.StateReady || p.Kind != media.KindDocument || p.MIMEType != "application/pdf" {
		t.Fatalf("pdf asset: %+v", p)
	}
	if calls := e.proc.calls(); len(calls) != 0 {
		t.Errorf("images and PDFs need no processing: %v", calls)
	}
}

func TestRetryOnlyFromErro(t *testing.T) {
	e := newEnv(t)
	id, res := e.upload("aula.mp4", "video/mp4", sampleVideo(t))
	if res.Status != http.StatusNoContent {
		t.Fatalf("upload: %d %s", res.Status, res.Body)
	}
	r := e.staff.Do("POST", "/api/admin/media/"+id+"/retry", nil)
	if r.Status != http.StatusConflict || r.ErrorMessage() != media.MsgRetryNotFailed {
		t.Fatalf("retry while processando: %d %s", r.Status, r.Body)
	}
	if err := e.svc.Failed(e.ctx, id, "O processamento do vídeo falhou: codec desconhecido."); err != nil {
		t.Fatal(err)
	}
	if a := e.get(id); a.State != media.StateFailed || a.Error != "O processamento do vídeo falhou: codec desconhecido." {
		t.Fatalf("after Failed: %s %q", a.State, a.Error)
	}
	r = e.staff.Do("POST", "/api/admin/media/"+id+"/retry", nil)
	if r.Status != http.StatusAccepted {
		t.Fatalf("retry from erro: %d %s", r.Status, r.Body)
	}
	var a media.Asset
	r.JSON(t, &a)
	if a.State != media.StateProcessing || a.Attempt != 2 || a.Error != "" {
		t.Fatalf("after retry: %+v", a)
	}
	if calls := e.proc.calls(); len(calls) != 2 || calls[1] != id+"#2" {
		t.Fatalf("starts %v, want attempt 2 last", calls)
	}
	if r := e.staff.Do("POST", "/api/admin/media/"+id+"/retry", nil); r.Status != http.StatusConflict {
		t.Errorf("second retry while processando: %d", r.Status)
	}
	if r := e.staff.Do("POST", "/api/admin/media/00000000-0000-4000-8000-000000000000/retry", nil); r.Status != http.StatusNotFound {
		t.Errorf("retry of an unknown asset: %d", r.Status)
	}
}

func TestDeleteIsRefusedWhileContentUsesTheAsset(t *testing.T) {
	e := newEnv(t)
	if err := e.srv.App.Content.Registry.Register(content.Type{ID: "media-aula", Singular: "Aula", Plural: "Aulas",
		Fields: []content.Field{{Name: "video_asset", Label: "Vídeo", Kind: content.KindVideo}, {Name: "material", Label: "Material", Kind: content.KindFile}}}); err != nil {
		t.Fatal(err)
	}
	_, editorID := e.srv.SignedIn(t, "autora@vetclube.test", core.RoleEditor)
	vid, _ := e.upload("aula.mp4", "video/mp4", sampleVideo(t))
	pdf, _ := e.upload("apostila.pdf", "application/pdf", []byte("%PDF-1.4\n%%EOF\n"))
	free, _ := e.upload("sobra.pdf", "application/pdf", []byte("%PDF-1.4\n%%EOF\n"))
	actor := content.Actor{UserID: editorID, Channel: content.ChannelAPI}
	item, _, err := e.srv.App.Content.Store.Create(e.ctx, actor, "media-aula",
		content.Input{Title: "Suturas básicas", Fields: map[string]any{"video_asset": vid, "material": "media/" + pdf + "/original.pdf"}}, "")
	if err != nil {
		t.Fatal(err)
	}

	// Another editor's unshared item is counted for this editor, never named;
	// a revisor sees it.
	if a := e.get(vid); len(a.UsedIn) != 1 || a.UsedIn[0] != (media.Use{Type: "media-aula", Hidden: true}) {
		t.Fatalf("used_in of the video for another editor: %+v", a.UsedIn)
	}
	if r := e.staff.Do("DELETE", "/api/admin/media/"+vid, nil); r.Status != http.StatusConflict ||
		r.ErrorMessage() != "Este arquivo está em uso em: 1 item de outra pessoa." {
		t.Errorf("delete of an asset another editor uses: %d %s", r.Status, r.Body)
	}
	revisor, _ := e.srv.SignedIn(t, "revisora@vetclube.test", "revisor")
	var seen media.Asset
	revisor.Do("GET", "/api/admin/media/"+vid, nil).JSON(t, &seen)
	if len(seen.UsedIn) != 1 || seen.UsedIn[0] != (media.Use{Type: "media-aula", ID: item.ID, Title: "Suturas básicas"}) {
		t.Fatalf("used_in of the video for a revisor: %+v", seen.UsedIn)
	}
	// Shared with this editor, the item is named.
	if err := e.srv.App.Content.Store.Share(e.ctx, actor, item.ID, e.staffID); err != nil {
		t.Fatal(err)
	}
	a := e.get(vid)
	if len(a.UsedIn) != 1 || a.UsedIn[0] != (media.Use{Type: "media-aula", ID: item.ID, Title: "Suturas básicas"}) {
		t.Fatalf("used_in of the video: %+v", a.UsedIn)
	}
	for _, id := range []string{vid, pdf} {
		r := e.staff.Do("DELETE", "/api/admin/media/"+id, nil)
		if r.Status != http.StatusConflict || r.ErrorMessage() != "Este arquivo está em uso em: Suturas básicas." {
			t.Errorf("delete of a used asset: %d %s", r.Status, r.Body)
		}
	}
	if r := e.staff.Do("DELETE", "/api/admin/media/"+free, nil); r.Status != http.StatusNoContent {
		t.Fatalf("delete of an unused asset: %d %s", r.Status, r.Body)
	}
	if r := e.staff.Do("GET", "/api/admin/media/"+free, nil); r.Status != http.StatusNotFound {
		t.Errorf("deleted asset still answers %d", r.Status)
	}
	if _, err := os.Stat(filepath.Join(e.srv.Env["DATA_DIR"], "uploads", "media", free)); !os.IsNotExist(err) {
		t.Errorf("files of the deleted asset remain: %v", err)
	}
	// Once the item points elsewhere and the video's processing has ended
	// (here in erro), it may go.
	if err := e.svc.Failed(e.ctx, vid, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := e.srv.App.Content.Store.Update(e.ctx, actor, item.ID, item.Version,
		content.Input{Title: "Suturas básicas", Fields: map[string]any{"material": "media/" + pdf + "/original.pdf"}}); err != nil {
		t.Fatal(err)
	}
	if r := e.staff.Do("DELETE", "/api/admin/media/"+vid, nil); r.Status != http.StatusNoContent {
		t.Errorf("delete after the item dropped it: %d %s", r.Status, r.Body)
	}
}

func TestListSearchesAndFilters(t *testing.T) {
	e := newEnv(t)
	pdf := []byte("%PDF-1.4\n%%EOF\n")
	e.upload("Anatomia Felina.pdf", "application/pdf", pdf)
	e.upload("Anestesia em cães.pdf", "application/pdf", pdf)
	vid, _ := e.upload("Cirurgia ortopédica.mp4", "video/mp4", sampleVideo(t))
	bad, _ := e.upload("Falso.mp4", "video/mp4", pdf)

	var list []media.Asset
	r := e.staff.Do("GET", "/api/admin/media?q=ANATOMIA", nil)
	r.JSON(t, &list)
	if r.Status != http.StatusOK || len(list) != 1 || list[0].OriginalName != "Anatomia Felina.pdf" {
		t.Fatalf("search: %d %s", r.Status, r.Body)
	}
	r = e.staff.Do("GET", "/api/admin/media?q=caes", nil) // accents ignored
	r.JSON(t, &list)
	if len(list) != 1 || list[0].OriginalName != "Anestesia em cães.pdf" {
		t.Errorf("accent-insensitive search: %s", r.Body)
	}
	r = e.staff.Do("GET", "/api/admin/media?kind=video", nil)
	r.JSON(t, &list)
	if len(list) != 2 || r.Header.Get("X-Total-Count") != "2" || r.Header.Get("Content-Range") != "media 0-1/2" {
		t.Errorf("kind=video: %d rows, %s / %s", len(list), r.Header.Get("X-Total-Count"), r.Header.Get("Content-Range"))
	}
	filter := url.QueryEscape(`{"kind":"video","state":"erro"}`)
	r = e.staff.Do("GET", "/api/admin/media?filter="+filter, nil)
	r.JSON(t, &list)
	if len(list) != 1 || list[0].ID != bad {
		t.Errorf("filter kind+state: %s", r.Body)
	}
	r = e.staff.Do("GET", "/api/admin/media?range=%5B0,1%5D&sort=%5B%22original_name%22,%22ASC%22%5D", nil)
	r.JSON(t, &list)
	if len(list) != 2 || list[0].OriginalName != "Anatomia Felina.pdf" || r.Header.Get("Content-Range") != "media 0-1/4" {
		t.Errorf("page sorted by name: %s %s", r.Header.Get("Content-Range"), r.Body)
	}
	r = e.staff.Do("GET", "/api/admin/media?page=2&per_page=3", nil)
	r.JSON(t, &list)
	if len(list) != 1 || r.Header.Get("Content-Range") != "media 3-3/4" {
		t.Errorf("page 2: %s %d rows", r.Header.Get("Content-Range"), len(list))
	}
	created := e.create("Retomado.pdf", "application/pdf", int64(len(pdf)))
	uploadID := created.Header.Get("Location")[strings.LastIndex(created.Header.Get("Location"), "/")+1:]
	r = e.staff.Do("GET", "/api/admin/media?upload_id="+uploadID, nil)
	r.JSON(t, &list)
	if len(list) != 1 || list[0].ID != created.Header.Get(media.AssetIDHeader) {
		t.Errorf("by upload id: %s", r.Body)
	}
	_ = vid
	if r := e.staff.Do("GET", "/api/admin/media?state=perdido", nil); r.Status != http.StatusUnprocessableEntity && r.Status != http.StatusBadRequest {
		t.Errorf("unknown state: %d", r.Status)
	}
}

func TestProcessingResultsAreServedAsHLS(t *testing.T) {
	e := newEnv(t)
	video := sampleVideo(t)
	id, _ := e.upload("aula.mp4", "video/mp4", video)
	src, err := e.svc.Source(e.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.svc.SetProbe(e.ctx, id, media.Probe{DurationSeconds: 2, Width: 1280, Height: 720, HasAudio: false}); err != nil {
		t.Fatal(err)
	}
	if err := e.svc.SetProgress(e.ctx, id, "360p", 50); err != nil {
		t.Fatal(err)
	}
	if a := e.get(id); a.ProgressPercent != 25 || a.Progress["360p"] != 50 {
		t.Fatalf("progress 360p 50 of two renditions: %d %v", a.ProgressPercent, a.Progress)
	}
	work := t.TempDir()
	rdir := filepath.Join(work, "360p")
	os.MkdirAll(rdir, 0o755)
	if b, err := exec.Command("ffmpeg", "-v", "error", "-i", src.Path, "-c", "copy", "-f", "hls", "-hls_time", "1",
		"-hls_playlist_type", "vod", "-hls_segment_filename", filepath.Join(rdir, "seg_%03d.ts"), filepath.Join(rdir, "index.m3u8")).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg hls: %v %s", err, b)
	}
	if err := e.svc.SaveRendition(e.ctx, id, media.RenditionResult{Name: "360p", Width: 320, Height: 240, BandwidthBps: 400_000,
		Playlist: "360p/index.m3u8"}, rdir); err != nil {
		t.Fatal(err)
	}
	if a := e.get(id); a.ProgressPercent != 50 {
		t.Errorf("one of two renditions done: %d %%", a.ProgressPercent)
	}
	if s, _ := e.svc.Source(e.ctx, id); len(s.DoneRenditions) != 1 || s.DoneRenditions[0] != "360p" {
		t.Errorf("done renditions %v", s.DoneRenditions)
	}
	poster := filepath.Join(work, "poster.jpg")
	if b, err := exec.Command("ffmpeg", "-v", "error", "-i", src.Path, "-frames:v", "1", poster).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg poster: %v %s", err, b)
	}
	thumb := filepath.Join(work, "t1.jpg")
	copyFile(t, poster, thumb)
	if err := e.svc.SaveImages(e.ctx, id, poster, []string{thumb}); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(work, "subs"), 0o755)
	os.WriteFile(filepath.Join(work, "subs", "por.vtt"), []byte("WEBVTT\n\n00:00.000 --> 00:01.500\nOlá\n"), 0o644)
	if err := e.svc.SaveSubtitles(e.ctx, id, []media.SubtitleResult{{Language: "por", Name: "Português", File: "subs/por.vtt"}}, work); err != nil {
		t.Fatal(err)
	}
	if err := e.svc.Ready(e.ctx, id); err != nil {
		t.Fatal(err)
	}
	if err := e.svc.Ready(e.ctx, id); err != nil {
		t.Fatalf("Ready twice: %v", err)
	}
	a := e.get(id)
	if a.State != media.StateReady || a.ProgressPercent != 100 || a.DurationSeconds != 2 || a.HLSURL == "" || a.PosterURL == "" || len(a.ThumbnailURLs) != 1 {
		t.Fatalf("ready asset: %+v", a)
	}
	// An image field may take the poster or a thumbnail: keys under the asset's folder.
	if len(a.Pictures) != 2 || a.Pictures[0].Role != "poster" || a.Pictures[0].URL != a.PosterURL ||
		a.Pictures[1].Role != "thumbnail" || a.Pictures[1].URL != a.ThumbnailURLs[0] ||
		"/uploads/"+a.Pictures[1].Key != a.Pictures[1].URL || !strings.HasPrefix(a.Pictures[1].Key, "media/"+id+"/") {
		t.Errorf("pictures of the video: %+v", a.Pictures)
	}
	// Staff read the stream through a signed address, like members.
	if !strings.HasPrefix(a.HLSURL, media.StreamPath) || !strings.HasSuffix(a.HLSURL, "/master.m3u8") {
		t.Errorf("stream URL not signed: %s", a.HLSURL)
	}
	var viewKey, viewPoster string
	if err := e.srv.App.Pool.QueryRow(e.ctx, `SELECT stream_key, poster_url FROM media_public WHERE id = $1`, id).Scan(&viewKey, &viewPoster); err != nil ||
		!strings.HasPrefix(viewKey, "media/"+id+"/") || !strings.HasSuffix(viewKey, "/hls/master.m3u8") || strings.Count(viewKey, "/") < 4 ||
		viewPoster != a.PosterURL {
		t.Errorf("media_public: %q %q (%v), want the stream's key in its token folder and %q", viewKey, viewPoster, err, a.PosterURL)
	}
	// Its permanent /uploads/ address serves nothing, to anyone.
	for _, k := range []string{viewKey, strings.TrimSuffix(viewKey, "master.m3u8") + "360p/index.m3u8",
		strings.TrimSuffix(viewKey, "master.m3u8") + "360p/seg_000.ts", strings.TrimSuffix(viewKey, "master.m3u8") + "subs/1.vtt"} {
		if r := e.staff.Do("GET", "/uploads/"+k, nil); r.Status != http.StatusNotFound {
			t.Errorf("GET /uploads/%s: %d, want 404", k, r.Status)
		}
	}

	master := e.staff.Do("GET", a.HLSURL, nil)
	if master.Status != http.StatusOK || master.Header.Get("Content-Type") != "application/vnd.apple.mpegurl" ||
		!strings.HasPrefix(master.Header.Get("Cache-Control"), "private, max-age=") {
		t.Fatalf("master: %d %v", master.Status, master.Header)
	}
	if !strings.Contains(string(master.Body), "#EXT-X-STREAM-INF:BANDWIDTH=400000,RESOLUTION=320x240,SUBTITLES=\"subs\"\n360p/index.m3u8") ||
		!strings.Contains(string(master.Body), `URI="subs/1.m3u8"`) {
		t.Errorf("master playlist:\n%s", master.Body)
	}
	base := strings.TrimSuffix(a.HLSURL, "master.m3u8")
	seg := e.staff.Do("GET", base+"360p/seg_000.ts", nil)
	if seg.Status != http.StatusOK || seg.Header.Get("Content-Type") != "video/mp2t" || len(seg.Body) < 100 {
		t.Fatalf("segment: %d %s %d bytes", seg.Status, seg.Header.Get("Content-Type"), len(seg.Body))
	}
	req, _ := http.NewRequest("GET", e.staff.URLFor(base+"360p/seg_000.ts"), nil)
	req.Header.Set("Range", "bytes=10-49")
	part := e.staff.Send(req)
	if part.Status != http.StatusPartialContent || !bytes.Equal(part.Body, seg.Body[10:50]) ||
		part.Header.Get("Content-Range") != fmt.Sprintf("bytes 10-49/%d", len(seg.Body)) {
		t.Errorf("range: %d %q %d bytes", part.Status, part.Header.Get("Content-Range"), len(part.Body))
	}
	vtt := e.staff.Do("GET", base+"subs/1.vtt", nil)
	if vtt.Status != http.StatusOK || vtt.Header.Get("Content-Type") != "text/vtt; charset=utf-8" || !strings.HasPrefix(string(vtt.Body), "WEBVTT") {
		t.Errorf("subtitle: %d %s", vtt.Status, vtt.Header.Get("Content-Type"))
	}
	if p := e.staff.Do("GET", a.PosterURL, nil); p.Status != http.StatusOK || p.Header.Get("Content-Type") != "image/jpeg" {
		t.Errorf("poster: %d %s", p.Status, p.Header.Get("Content-Type"))
	}
}

func TestResumeFinishesAnUploadCompletedBeforeAStop(t *testing.T) {
	e := newEnv(t)
	video := sampleVideo(t)
	res := e.create("aula.mp4", "video/mp4", int64(len(video)))
	id := res.Header.Get(media.AssetIDHeader)
	loc, _ := url.Parse(res.Header.Get("Location"))
	// The bytes arrived but the server stopped before finishing the asset.
	bin := filepath.Join(e.srv.Env["DATA_DIR"], "media-incoming", filepath.Base(loc.Path))
	if err := os.WriteFile(bin, video, 0o644); err != nil {
		t.Fatal(err)
	}
	if a := e.get(id); a.State != media.StateUploading {
		t.Fatalf("state %s", a.State)
	}
	if err := e.svc.Resume(e.ctx); err != nil {
		t.Fatal(err)
	}
	if a := e.get(id); a.State != media.StateProcessing {
		t.Fatalf("after Resume: %s %q", a.State, a.Error)
	}
	// Resume also restarts processing that may have been lost; the
	// workflow id makes a second start of the same attempt a no-op.
	if calls := e.proc.calls(); len(calls) != 1 || calls[0] != id+"#1" {
		t.Fatalf("starts %v", calls)
	}
	if err := e.svc.Resume(e.ctx); err != nil {
		t.Fatal(err)
	}
	if calls := e.proc.calls(); len(calls) != 2 || calls[1] != id+"#1" {
		t.Errorf("second resume starts %v", calls)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	out.Close()
}
