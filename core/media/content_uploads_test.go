package media_test

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/media"
)

// contentUpload sends a file as the backoffice's image and file fields do.
func (e *env) contentUpload(kind, filename string, data []byte) content.Upload {
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
	r := e.staff.Send(req)
	if r.Status != http.StatusCreated {
		e.t.Fatalf("upload %s: %d %s", filename, r.Status, r.Body)
	}
	var up content.Upload
	r.JSON(e.t, &up)
	return up
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
