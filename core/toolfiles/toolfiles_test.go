package toolfiles_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/jpeg"
	"image/png"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/httpx"
	"github.com/vetclube/vetclube/core/imaging/imagingtest"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
	"github.com/vetclube/vetclube/core/storage"
	"github.com/vetclube/vetclube/core/toolfiles"
)

type env struct {
	pool *pgxpool.Pool
	svc  *toolfiles.Service
	dir  string
	mux  http.Handler
}

func newEnv(t *testing.T, quota int64) *env {
	t.Helper()
	pool := pgtest.New(t)
	dir := t.TempDir()
	disk, err := storage.NewDisk(dir, "/never-served/")
	if err != nil {
		t.Fatal(err)
	}
	svc := toolfiles.New(pool, toolfiles.Options{Store: disk, QuotaBytes: quota})
	// The gate: tools "prontuario" and "outra" exist; anything else is 404.
	gate := func(r *http.Request, id string) error {
		if id != "prontuario" && id != "outra" {
			return core.Errorf(core.ENOTFOUND, "Ferramenta não encontrada.")
		}
		return nil
	}
	r := chi.NewRouter()
	r.Handle("POST /api/tools/{id}/files", toolfiles.HandleUpload(nil, svc, gate))
	r.Handle("GET /api/tools/{id}/files", toolfiles.HandleList(nil, svc, gate))
	r.Handle("GET /api/tools/{id}/files/{fileId}", toolfiles.HandleGet(nil, svc, gate))
	r.Handle("DELETE /api/tools/{id}/files/{fileId}", toolfiles.HandleDelete(nil, svc, gate))
	_ = httpx.RequestID
	return &env{pool: pool, svc: svc, dir: dir, mux: r}
}

func (e *env) user(t *testing.T) core.Principal {
	t.Helper()
	var id string
	if err := e.pool.QueryRow(context.Background(), `INSERT INTO users (email) VALUES ($1) RETURNING id::text`,
		fmt.Sprintf("tf%d@exemplo.com.br", time.Now().UnixNano())).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return core.Principal{UserID: id, Roles: []string{core.RoleUser}}
}

func (e *env) do(p core.Principal, method, path string, body []byte, contentType string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, bytes.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req = req.WithContext(core.WithPrincipal(req.Context(), p))
	rec := httptest.NewRecorder()
	e.mux.ServeHTTP(rec, req)
	return rec
}

func multipartBody(t *testing.T, field, name string, data []byte) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, err := mw.CreateFormFile(field, name)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = fw.Write(data)
	_ = mw.Close()
	return buf.Bytes(), mw.FormDataContentType()
}

func (e *env) upload(t *testing.T, p core.Principal, tool, name string, data []byte) *httptest.ResponseRecorder {
	body, ct := multipartBody(t, "file", name, data)
	return e.do(p, "POST", "/api/tools/"+tool+"/files", body, ct)
}

type fileJSON struct {
	ID, Kind, ContentType, Name string
	Size                        int64
}

func decodeFile(t *testing.T, rec *httptest.ResponseRecorder) fileJSON {
	t.Helper()
	var f struct {
		ID          string `json:"id"`
		Kind        string `json:"kind"`
		ContentType string `json:"content_type"`
		Name        string `json:"name"`
		Size        int64  `json:"size"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &f); err != nil {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	return fileJSON{f.ID, f.Kind, f.ContentType, f.Name, f.Size}
}

func message(rec *httptest.ResponseRecorder) string {
	var e struct{ Error struct{ Message string } }
	_ = json.Unmarshal(rec.Body.Bytes(), &e)
	return e.Error.Message
}

// photoWithExif is a real JPEG with an APP1 Exif segment (a GPS-like
// marker) and an HTML payload after its end: a polyglot.
func photoWithExif(t *testing.T) []byte {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, imagingtest.Photo(64, 48), nil); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	exif := append([]byte("Exif\x00\x00"), []byte("GPSLatitude -23.5505 SEGREDO-DO-CELULAR")...)
	seg := append([]byte{0xFF, 0xE1, byte((len(exif) + 2) >> 8), byte(len(exif) + 2)}, exif...)
	out := append(append(append([]byte{}, b[:2]...), seg...), b[2:]...)
	return append(out, []byte("<html><script>alert(1)</script></html>")...)
}

func pdfDoc(extra string) []byte {
	return []byte("%PDF-1.4\n1 0 obj << /Type /Catalog " + extra + ">> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")
}

func TestUploadReadDeleteAndHostileFiles(t *testing.T) {
	e := newEnv(t, 0)
	ana, bia := e.user(t), e.user(t)

	// An image: decoded and encoded again, EXIF and trailing payload gone.
	rec := e.upload(t, ana, "prontuario", "../../etc/Raio X\u200b.jpg", photoWithExif(t))
	if rec.Code != 201 {
		t.Fatalf("photo: %d %s", rec.Code, rec.Body)
	}
	photo := decodeFile(t, rec)
	if photo.Kind != "image" || photo.ContentType != "image/jpeg" || photo.Name != "Raio X.jpg" {
		t.Fatalf("photo: %+v", photo)
	}
	rec = e.do(ana, "GET", "/api/tools/prontuario/files/"+photo.ID, nil, "")
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "image/jpeg" || rec.Header().Get("X-Content-Type-Options") != "nosniff" ||
		!strings.Contains(rec.Header().Get("Content-Security-Policy"), "sandbox") {
		t.Fatalf("get photo: %d %v", rec.Code, rec.Header())
	}
	stored := rec.Body.Bytes()
	if bytes.Contains(stored, []byte("Exif")) || bytes.Contains(stored, []byte("SEGREDO")) || bytes.Contains(stored, []byte("<script")) {
		t.Error("metadata or payload survived the re-encoding")
	}
	if _, err := jpeg.Decode(bytes.NewReader(stored)); err != nil {
		t.Errorf("stored image does not decode: %v", err)
	}
	// Nothing is written under a public path: only the private store's dir.
	var onDisk []string
	_ = filepath.Walk(e.dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			onDisk = append(onDisk, strings.TrimPrefix(p, e.dir))
		}
		return nil
	})
	if len(onDisk) != 1 || !strings.HasPrefix(onDisk[0], "/tool-files/prontuario/"+ana.UserID+"/") {
		t.Errorf("stored as %v", onDisk)
	}

	// A PNG with transparency stays PNG.
	var pngBuf bytes.Buffer
	img := imagingtest.Photo(10, 10)
	img.Pix[3] = 0
	_ = png.Encode(&pngBuf, img)
	if rec := e.upload(t, ana, "prontuario", "a.png", pngBuf.Bytes()); rec.Code != 201 || decodeFile(t, rec).ContentType != "image/png" {
		t.Fatalf("png: %d %s", rec.Code, rec.Body)
	}

	// A PDF is kept as sent.
	rec = e.upload(t, ana, "prontuario", "exame.pdf", pdfDoc(""))
	if rec.Code != 201 {
		t.Fatalf("pdf: %d %s", rec.Code, rec.Body)
	}
	exam := decodeFile(t, rec)
	rec = e.do(ana, "GET", "/api/tools/prontuario/files/"+exam.ID, nil, "")
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/pdf" || !strings.HasPrefix(rec.Header().Get("Content-Disposition"), "attachment") || !bytes.Equal(rec.Body.Bytes(), pdfDoc("")) {
		t.Fatalf("get pdf: %d %v", rec.Code, rec.Header())
	}

	// Hostile uploads: each refused with its pt-BR message, nothing stored.
	big := append([]byte("%PDF-1.4\n"), bytes.Repeat([]byte("0"), toolfiles.MaxFileBytes)...)
	for _, tc := range []struct {
		name   string
		data   []byte
		status int
		msg    string
	}{
		{"pagina.html", []byte("<html><script>alert(1)</script></html>"), 422, toolfiles.MsgUnsupported},
		{"foto.jpg", []byte("<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>"), 422, toolfiles.MsgUnsupported},
		{"anim.gif", []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;"), 422, toolfiles.MsgUnsupported},
		{"zip.pdf", []byte("PK\x03\x04 not a pdf"), 422, toolfiles.MsgUnsupported},
		{"js.pdf", pdfDoc("/OpenAction << /S /JavaScript /JS (app.alert(1)) >> "), 422, toolfiles.MsgActivePDF},
		{"anexo.pdf", pdfDoc("/Names << /EmbeddedFiles 2 0 R >> "), 422, toolfiles.MsgActivePDF},
		{"cortado.pdf", []byte("%PDF-1.4\n1 0 obj << >> endobj\n"), 422, toolfiles.MsgBadPDF},
		{"falso.jpg", append([]byte{0xFF, 0xD8, 0xFF, 0xE0}, []byte("not really a jpeg")...), 422, "O arquivo enviado não é uma imagem válida."},
		{"gigante.jpg", imagingtest.JPEG(60000, 60000, false), 422, ""},
		{"vazio.pdf", nil, 422, toolfiles.MsgEmpty},
		{"grande.pdf", big, 413, toolfiles.MsgTooLarge},
	} {
		rec := e.upload(t, ana, "prontuario", tc.name, tc.data)
		if rec.Code != tc.status || (tc.msg != "" && message(rec) != tc.msg) || message(rec) == "" {
			t.Errorf("%s: %d %s", tc.name, rec.Code, rec.Body)
		}
	}
	// Not multipart, or the wrong field.
	if rec := e.do(ana, "POST", "/api/tools/prontuario/files", []byte(`{"file":"x"}`), "application/json"); rec.Code != 422 {
		t.Errorf("json body: %d %s", rec.Code, rec.Body)
	}
	body, ct := multipartBody(t, "arquivo", "a.pdf", pdfDoc(""))
	if rec := e.do(ana, "POST", "/api/tools/prontuario/files", body, ct); rec.Code != 422 || message(rec) != toolfiles.MsgEmpty {
		t.Errorf("wrong field: %d %s", rec.Code, rec.Body)
	}

	// Another member, another tool, path tricks, unknown tool: 404 alike.
	for _, tc := range []struct {
		who  core.Principal
		path string
	}{
		{bia, "/api/tools/prontuario/files/" + exam.ID},
		{ana, "/api/tools/outra/files/" + exam.ID},
		{ana, "/api/tools/inexistente/files/" + exam.ID},
		{ana, "/api/tools/prontuario/files/..%2F..%2Fetc%2Fpasswd"},
		{ana, "/api/tools/prontuario/files/" + strings.ToUpper(exam.ID) + "x"},
		{ana, "/api/tools/prontuario/files/00000000-0000-0000-0000-000000000000"},
	} {
		if rec := e.do(tc.who, "GET", tc.path, nil, ""); rec.Code != 404 {
			t.Errorf("GET %s: %d %s", tc.path, rec.Code, rec.Body)
		}
		if rec := e.do(tc.who, "DELETE", tc.path, nil, ""); rec.Code != 404 {
			t.Errorf("DELETE %s: %d %s", tc.path, rec.Code, rec.Body)
		}
	}
	// Lists are the member's own.
	var list struct{ Items []fileJSON }
	rec = e.do(bia, "GET", "/api/tools/prontuario/files", nil, "")
	_ = json.Unmarshal(rec.Body.Bytes(), &list)
	if rec.Code != 200 || len(list.Items) != 0 {
		t.Errorf("bia's list: %d %s", rec.Code, rec.Body)
	}
	rec = e.do(ana, "GET", "/api/tools/prontuario/files", nil, "")
	_ = json.Unmarshal(rec.Body.Bytes(), &list)
	if rec.Code != 200 || len(list.Items) != 3 {
		t.Errorf("ana's list: %d %s", rec.Code, rec.Body)
	}

	// The owner deletes: the row and the bytes go.
	if rec := e.do(ana, "DELETE", "/api/tools/prontuario/files/"+photo.ID, nil, ""); rec.Code != 204 {
		t.Fatalf("delete: %d %s", rec.Code, rec.Body)
	}
	if rec := e.do(ana, "GET", "/api/tools/prontuario/files/"+photo.ID, nil, ""); rec.Code != 404 {
		t.Errorf("deleted file still served: %d", rec.Code)
	}
	if _, err := os.Stat(filepath.Join(e.dir, onDisk[0])); !os.IsNotExist(err) {
		t.Errorf("deleted file's bytes remain: %v", err)
	}
	// The service as the host API uses it: scoped to member and plugin.
	if _, _, err := e.svc.Read(context.Background(), "outra", ana.UserID, exam.ID); core.ErrorCode(err) != core.ENOTFOUND {
		t.Errorf("another plugin read it: %v", err)
	}
	if ok, err := e.svc.Delete(context.Background(), "prontuario", bia.UserID, exam.ID); ok || err != nil {
		t.Errorf("another member deleted it: %v %v", ok, err)
	}
}

// The quota per member and tool holds under concurrent uploads.
func TestQuotaPerMemberAndTool(t *testing.T) {
	doc := pdfDoc("")
	e := newEnv(t, int64(len(doc))*3)
	ana := e.user(t)
	codes := make(chan int, 6)
	for range 6 {
		go func() { codes <- e.upload(t, ana, "prontuario", "a.pdf", doc).Code }()
	}
	created, refused := 0, 0
	for range 6 {
		switch <-codes {
		case 201:
			created++
		case 403:
			refused++
		}
	}
	if created != 3 || refused != 3 {
		t.Fatalf("created %d, refused %d", created, refused)
	}
	rec := e.upload(t, ana, "prontuario", "a.pdf", doc)
	if rec.Code != 403 || !strings.HasPrefix(message(rec), "Você atingiu o espaço de ") {
		t.Errorf("over quota: %d %s", rec.Code, rec.Body)
	}
	// Another tool has its own space.
	if rec := e.upload(t, ana, "outra", "a.pdf", doc); rec.Code != 201 {
		t.Errorf("other tool: %d %s", rec.Code, rec.Body)
	}
}
