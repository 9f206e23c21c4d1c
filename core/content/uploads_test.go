package content_test

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/storage"
)

func upload(t *testing.T, h http.Handler, kind, filename string, data []byte) (int, map[string]any) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile("file", filename)
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(data)
	mw.Close()
	req := httptest.NewRequest("POST", "/api/admin/content/uploads?kind="+kind, &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var out map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &out)
	return rec.Code, out
}

func TestUploadsKeepPixelsAndDocumentsOnly(t *testing.T) {
	dir := t.TempDir()
	store, err := storage.NewDisk(dir, "/uploads/")
	if err != nil {
		t.Fatal(err)
	}
	now := func() time.Time { return time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC) }
	h := content.HandleUpload(slog.New(slog.NewTextHandler(os.Stderr, nil)), content.NewUploads(store, nil, now))

	// A 3000×1500 photo with a trailing payload: stored re-encoded, at most
	// 1920 px wide, payload gone.
	img := image.NewRGBA(image.Rect(0, 0, 3000, 1500))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.RGBA{240, 240, 230, 255}), image.Point{}, draw.Src)
	for x := 0; x < 3000; x += 7 {
		img.Set(x, x%1500, color.RGBA{200, 30, 30, 255})
	}
	var photo bytes.Buffer
	if err := png.Encode(&photo, img); err != nil {
		t.Fatal(err)
	}
	photo.WriteString("<script>alert(1)</script>")
	code, out := upload(t, h, "image", "capa.png", photo.Bytes())
	key, _ := out["key"].(string)
	if code != http.StatusCreated || !strings.HasPrefix(key, "content/2026/11/") || !strings.HasSuffix(key, ".jpg") || out["url"] != "/uploads/"+key {
		t.Fatalf("image upload: %d %v", code, out)
	}
	stored, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(key)))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := jpeg.DecodeConfig(bytes.NewReader(stored))
	if err != nil || cfg.Width != 1920 || cfg.Height != 960 || bytes.Contains(stored, []byte("<script>")) {
		t.Fatalf("stored image %dx%d (%v), payload kept: %v", cfg.Width, cfg.Height, err, bytes.Contains(stored, []byte("<script>")))
	}

	pdf := []byte("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")
	if code, out := upload(t, h, "file", "protocolo.pdf", pdf); code != http.StatusCreated || !strings.HasSuffix(out["key"].(string), ".pdf") || out["content_type"] != "application/pdf" {
		t.Fatalf("pdf upload: %d %v", code, out)
	}

	refused := []struct {
		kind, name string
		data       []byte
		msg        string
	}{
		{"file", "instalador.exe", []byte("MZ\x90\x00\x03binary"), content.MsgUploadFileType},
		{"file", "pagina.pdf", []byte("<html><body>not a pdf</body></html>"), content.MsgUploadFileType},
		{"image", "capa.png", []byte("not an image at all"), ""},
		{"image", "vazio.png", nil, content.MsgUploadMissing},
		{"video", "aula.mp4", []byte("x"), content.MsgUploadKind},
		{"file", "grande.pdf", append([]byte("%PDF-1.7\n"), make([]byte, content.MaxUploadBytes)...), content.MsgUploadTooLarge},
	}
	for _, c := range refused {
		code, out := upload(t, h, c.kind, c.name, c.data)
		e, _ := out["error"].(map[string]any)
		msg, _ := e["message"].(string)
		if code != http.StatusUnprocessableEntity || msg == "" || (c.msg != "" && msg != c.msg) {
			t.Errorf("%s %s: %d %v", c.kind, c.name, code, out)
		}
	}
}
