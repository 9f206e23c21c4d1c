package media_test

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/media"
)

// contentUpload sends a file as the backoffice's image and file fields do,
// and expects it kept.
func (e *env) contentUpload(kind, filename string, data []byte) content.Upload {
	e.t.Helper()
	r := e.sendContentUpload(kind, filename, data)
	if r.Status != http.StatusCreated {
		e.t.Fatalf("upload %s: %d %s", filename, r.Status, r.Body)
	}
	var up content.Upload
	r.JSON(e.t, &up)
	return up
}

func (e *env) sendContentUpload(kind, filename string, data []byte) apptest.Response {
	e.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile("file", filename)
	if err != nil {
		e.t.Fatal(err)
	}
	fw.Write(data)
	mw.Close()
	req, _ := http.NewRequest("POST", e.staff.URLFor("/api/admin/content/uploads?kind="+kind), &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return e.staff.Send(req)
}

// assetOfKey is the library asset a field value media/<id>/… names.
func assetOfKey(t *testing.T, key string) string {
	t.Helper()
	parts := strings.Split(key, "/")
	if len(parts) != 3 || parts[0] != "media" {
		t.Fatalf("field value %q is not a library key", key)
	}
	return parts[1]
}

// An image or a material attached to a content field lands in the media
// library: listed with its size, where it is used, and kept while used.
func TestContentFieldUploadsJoinTheLibrary(t *testing.T) {
	e := newEnv(t)
	if err := e.srv.App.Content.Registry.Register(content.Type{ID: "media-noticia", Singular: "Notícia", Plural: "Notícias",
		Fields: []content.Field{{Name: "capa", Label: "Capa", Kind: content.KindImage}, {Name: "anexo", Label: "Anexo", Kind: content.KindFile}}}); err != nil {
		t.Fatal(err)
	}
	img := image.NewRGBA(image.Rect(0, 0, 64, 48))
	for x := range 64 {
		img.Set(x, x%48, color.RGBA{200, 30, 30, 255})
	}
	var pic bytes.Buffer
	if err := png.Encode(&pic, img); err != nil {
		t.Fatal(err)
	}
	cover := e.contentUpload("image", "capa da notícia.png", pic.Bytes())
	doc := e.contentUpload("file", "protocolo.pdf", []byte("%PDF-1.4\n1 0 obj<<>>endobj\n%%EOF\n"))
	if !strings.HasPrefix(cover.URL, "/uploads/media/") || cover.URL != "/uploads/"+cover.Key {
		t.Fatalf("cover: %+v", cover)
	}
	coverID, docID := assetOfKey(t, cover.Key), assetOfKey(t, doc.Key)
	if _, err := os.Stat(filepath.Join(e.srv.Env["DATA_DIR"], "uploads", filepath.FromSlash(cover.Key))); err != nil {
		t.Fatalf("stored cover: %v", err)
	}

	c := e.get(coverID)
	if c.Kind != media.KindImage || c.State != media.StateReady || c.OriginalName != "capa da notícia.png" ||
		c.SizeBytes != int64(cover.Size) || c.Width != 64 || c.Height != 48 || c.URL != cover.URL ||
		len(c.Pictures) != 1 || c.Pictures[0] != (media.Picture{Key: cover.Key, URL: cover.URL, Role: "image"}) {
		t.Fatalf("cover asset: %+v", c)
	}
	d := e.get(docID)
	if d.Kind != media.KindDocument || d.State != media.StateReady || d.OriginalName != "protocolo.pdf" || d.MIMEType != "application/pdf" ||
		len(d.Pictures) != 0 {
		t.Fatalf("material asset: %+v", d)
	}

	actor := content.Actor{UserID: e.staffID, Channel: content.ChannelAPI}
	item, _, err := e.srv.App.Content.Store.Create(e.ctx, actor, "media-noticia",
		content.Input{Title: "Vacinação em felinos", Fields: map[string]any{"capa": cover.Key, "anexo": doc.Key}}, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{coverID, docID} {
		if a := e.get(id); len(a.UsedIn) != 1 || a.UsedIn[0] != (media.Use{Type: "media-noticia", ID: item.ID, Title: "Vacinação em felinos"}) {
			t.Fatalf("used_in of %s: %+v", a.OriginalName, a.UsedIn)
		}
		if r := e.staff.Do("DELETE", "/api/admin/media/"+id, nil); r.Status != http.StatusConflict ||
			r.ErrorMessage() != "Este arquivo está em uso em: Vacinação em felinos." {
			t.Errorf("delete of a used upload: %d %s", r.Status, r.Body)
		}
	}

	// The library's kind filter finds the image among the uploads.
	var images []media.Asset
	e.staff.Do("GET", "/api/admin/media?kind=image", nil).JSON(t, &images)
	if len(images) != 1 || images[0].ID != coverID {
		t.Fatalf("image filter: %+v", images)
	}
}

// What an image or file field keeps is checked first: an image is decoded
// and encoded again at most 1920 px wide, so whatever trailed its pixels is
// gone; a material must be a PDF or an Office document by its bytes; every
// refusal is a pt-BR 422 and keeps nothing.
func TestContentFieldUploadsKeepPixelsAndDocumentsOnly(t *testing.T) {
	e := newEnv(t)
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
	up := e.contentUpload("image", "capa.png", photo.Bytes())
	if !strings.HasSuffix(up.Key, ".jpg") || up.ContentType != "image/jpeg" {
		t.Fatalf("image upload: %+v", up)
	}
	stored, err := os.ReadFile(filepath.Join(e.srv.Env["DATA_DIR"], "uploads", filepath.FromSlash(up.Key)))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := jpeg.DecodeConfig(bytes.NewReader(stored))
	if err != nil || cfg.Width != 1920 || cfg.Height != 960 || bytes.Contains(stored, []byte("<script>")) {
		t.Fatalf("stored image %dx%d (%v), payload kept: %v", cfg.Width, cfg.Height, err, bytes.Contains(stored, []byte("<script>")))
	}
	if a := e.get(assetOfKey(t, up.Key)); a.Width != 1920 || a.Height != 960 || a.SizeBytes != int64(len(stored)) {
		t.Fatalf("image asset: %+v", a)
	}

	if up := e.contentUpload("file", "protocolo.pdf", []byte("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")); !strings.HasSuffix(up.Key, ".pdf") || up.ContentType != "application/pdf" {
		t.Fatalf("pdf upload: %+v", up)
	}

	var before []media.Asset
	e.staff.Do("GET", "/api/admin/media", nil).JSON(t, &before)
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
		r := e.sendContentUpload(c.kind, c.name, c.data)
		if msg := r.ErrorMessage(); r.Status != http.StatusUnprocessableEntity || msg == "" || (c.msg != "" && msg != c.msg) {
			t.Errorf("%s %s: %d %s", c.kind, c.name, r.Status, r.Body)
		}
	}
	var after []media.Asset
	e.staff.Do("GET", "/api/admin/media", nil).JSON(t, &after)
	if len(after) != len(before) {
		t.Errorf("refused uploads left %d assets in the library", len(after)-len(before))
	}
}
