package community_test

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	_ "image/jpeg"
	_ "image/png"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/community"
)

func uploaded(t *testing.T, c *apptest.Client, name string, data []byte) community.Media {
	t.Helper()
	r := upload(t, c, name, data)
	if r.Status != http.StatusCreated {
		t.Fatalf("upload %s: %d %s", name, r.Status, r.Body)
	}
	var m community.Media
	r.JSON(t, &m)
	return m
}

// fetch downloads a public URL of the server.
func fetch(t *testing.T, c *apptest.Client, url string) []byte {
	t.Helper()
	r := c.Do("GET", url, nil)
	if r.Status != http.StatusOK {
		t.Fatalf("GET %s: %d", url, r.Status)
	}
	return r.Body
}

// The type comes from the bytes, a big photo is resized to 1600 px with a
// 400 px thumbnail and written again without its EXIF, GIF is accepted as
// a still picture, and anything else is refused with the contract's words.
func TestUploadChecksAndCleansPictures(t *testing.T) {
	e := newEnv(t)
	ana, _ := e.member(t, "ana")

	big := withEXIF(encodeJPEG(t, photo(2400, 1200)), "GPSLatitude-23.5505-segredo")
	m := uploaded(t, ana, "Férias na praia.JPG", big)
	if m.MediaType != "image" || m.MimeType != "image/jpeg" || m.Width == nil || *m.Width != 1600 || *m.Height != 800 ||
		m.ThumbnailURL == nil || m.FileName != "Férias na praia.jpg" || !strings.HasPrefix(m.URL, "/uploads/community/") {
		t.Fatalf("big photo: %+v", m)
	}
	stored := fetch(t, ana, m.URL)
	if int64(len(stored)) != m.FileSize || bytes.Contains(stored, []byte("Exif")) || bytes.Contains(stored, []byte("segredo")) {
		t.Fatalf("stored picture keeps metadata or size differs (%d vs %d)", len(stored), m.FileSize)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(stored))
	if err != nil || format != "jpeg" || cfg.Width != 1600 || cfg.Height != 800 {
		t.Fatalf("stored picture: %v %s %v", cfg, format, err)
	}
	thumb, _, err := image.DecodeConfig(bytes.NewReader(fetch(t, ana, *m.ThumbnailURL)))
	if err != nil || thumb.Width != 400 || thumb.Height != 200 {
		t.Fatalf("thumbnail: %v %v", thumb, err)
	}

	// A small transparent PNG stays PNG, at its size, without a thumbnail.
	small := image.NewNRGBA(image.Rect(0, 0, 120, 80))
	small.Set(3, 3, color.NRGBA{255, 0, 0, 128})
	s := uploaded(t, ana, "logo.png", encodePNG(t, small))
	if s.MimeType != "image/png" || *s.Width != 120 || *s.Height != 80 || s.ThumbnailURL != nil {
		t.Fatalf("small png: %+v", s)
	}

	// GIF: its first frame, as a still picture.
	var g bytes.Buffer
	pal := image.NewPaletted(image.Rect(0, 0, 50, 40), []color.Color{color.Black, color.White})
	if err := gif.EncodeAll(&g, &gif.GIF{Image: []*image.Paletted{pal, pal}, Delay: []int{10, 10}}); err != nil {
		t.Fatal(err)
	}
	if gm := uploaded(t, ana, "anim.gif", g.Bytes()); *gm.Width != 50 || *gm.Height != 40 {
		t.Fatalf("gif: %+v", gm)
	}

	for _, tc := range []struct {
		name string
		data []byte
		msg  string
	}{
		{"foto.jpg", []byte("isto é um texto renomeado para .jpg, não uma imagem"), community.MsgImageType},
		{"pagina.png", []byte("<html><script>alert(1)</script></html>"), community.MsgImageType},
		{"vazio.jpg", nil, community.MsgImageType},
		{"enorme.jpg", append(encodeJPEG(t, photo(8, 8)), make([]byte, 10<<20)...), community.MsgImageTooLarge},
	} {
		r := upload(t, ana, tc.name, tc.data)
		if b := errorOf(t, r); r.Status != http.StatusUnprocessableEntity || b.Error.Message != tc.msg || b.Error.Fields["file"] != tc.msg {
			t.Errorf("%s: %d %s", tc.name, r.Status, r.Body)
		}
	}
	var rows int
	if err := e.srv.App.Pool.QueryRow(e.ctx, `SELECT count(*) FROM post_media`).Scan(&rows); err != nil || rows != 3 {
		t.Fatalf("stored pictures: %d %v", rows, err)
	}
}

// Pictures attach only to their uploader's posts, to one post at a time,
// at most 10, in upload order; an edit can drop and add them.
func TestMediaAttachRules(t *testing.T) {
	e := newEnv(t)
	ana, anaID := e.member(t, "ana")
	bia, _ := e.member(t, "bia")
	pic := func(c *apptest.Client) string {
		t.Helper()
		e.advance(time.Second)
		return uploaded(t, c, "foto.png", encodePNG(t, photo(20, 20))).ID
	}
	a1, a2, a3 := pic(ana), pic(ana), pic(ana)
	b1 := pic(bia)

	// Another member's picture is refused, and nothing is posted.
	r := createPost(t, ana, "", map[string]any{"content": "com a foto da Bia", "media_ids": []string{a1, b1}})
	if b := errorOf(t, r); r.Status != http.StatusUnprocessableEntity || b.Error.Fields["media_ids"] != community.MsgMediaNotFound {
		t.Fatalf("someone else's picture: %d %s", r.Status, r.Body)
	}
	// Pictures only, no text, listed in upload order whatever the request's order.
	r = createPost(t, ana, "", map[string]any{"content": "", "media_ids": []string{a2, a1}})
	var p community.Post
	r.JSON(t, &p)
	if r.Status != http.StatusCreated || len(p.Media) != 2 || p.Media[0].ID != a1 || p.Media[1].ID != a2 || p.Content != "" {
		t.Fatalf("post with pictures: %d %s", r.Status, r.Body)
	}
	// A picture already in a post cannot go into another.
	e.advance(time.Minute)
	if r := createPost(t, ana, "", map[string]any{"content": "de novo", "media_ids": []string{a1}}); r.Status != http.StatusUnprocessableEntity {
		t.Fatalf("picture of another post: %d %s", r.Status, r.Body)
	}
	// An edit drops a1 and adds a3; a1 is free again (and prunable).
	r = ana.Do("PUT", "/api/community/posts/"+p.ID, map[string]any{"content": "agora com texto", "media_ids": []string{a2, a3}})
	r.JSON(t, &p)
	if r.Status != http.StatusOK || len(p.Media) != 2 || p.Media[0].ID != a2 || p.Media[1].ID != a3 || p.EditedAt == nil {
		t.Fatalf("edit pictures: %d %s", r.Status, r.Body)
	}
	// An edit that fails (someone else's picture) changes nothing.
	if r := ana.Do("PUT", "/api/community/posts/"+p.ID, map[string]any{"content": "x", "media_ids": []string{b1}}); r.Status != http.StatusUnprocessableEntity {
		t.Fatalf("edit with bia's picture: %d", r.Status)
	}
	got, err := e.svc().Get(e.ctx, anaID, p.ID)
	if err != nil || got.Content != "agora com texto" || len(got.Media) != 2 {
		t.Fatalf("after a refused edit: %+v %v", got, err)
	}
	// Ten is the most.
	ids := []string{a1}
	for range 9 {
		ids = append(ids, pic(ana))
	}
	e.advance(time.Minute)
	r = createPost(t, ana, "", map[string]any{"content": "dez fotos", "media_ids": ids})
	var ten community.Post
	r.JSON(t, &ten)
	if r.Status != http.StatusCreated || len(ten.Media) != 10 {
		t.Fatalf("ten pictures: %d %s", r.Status, r.Body)
	}
	if r := createPost(t, ana, "", map[string]any{"content": "onze", "media_ids": append(slices.Clone(ids), pic(ana))}); r.ErrorMessage() != community.MsgTooManyMedia {
		t.Fatalf("eleven pictures: %d %s", r.Status, r.Body)
	}

	// A day later, unattached uploads are pruned with their files; attached
	// ones stay.
	e.advance(25 * time.Hour)
	n, err := e.svc().PruneUnattached(e.ctx, e.now().Add(-community.UnattachedTTL))
	if err != nil || n != 2 { // b1 and the eleventh
		t.Fatalf("pruned %d %v", n, err)
	}
	for _, m := range append(got.Media, ten.Media...) {
		if r := ana.Do("GET", m.URL, nil); r.Status != http.StatusOK {
			t.Fatalf("attached picture gone: %s %d", m.URL, r.Status)
		}
	}
}
