package media_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/media"
)

// readyStream makes a ready video whose stream has one rendition of two
// small segments, and returns its id and its master playlist's key.
func (e *env) readyStream() (string, string) {
	e.t.Helper()
	id, res := e.upload("aula.mp4", "video/mp4", sampleVideo(e.t))
	if res.Status != http.StatusNoContent {
		e.t.Fatalf("upload: %d %s", res.Status, res.Body)
	}
	if err := e.svc.SetProbe(e.ctx, id, media.Probe{DurationSeconds: 2, Width: 320, Height: 240}); err != nil {
		e.t.Fatal(err)
	}
	dir := filepath.Join(e.t.TempDir(), "360p")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "index.m3u8"), []byte("#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-PLAYLIST-TYPE:VOD\n"+
		"#EXTINF:1.0,\nseg_000.ts\n#EXTINF:1.0,\nseg_001.ts\n#EXT-X-ENDLIST\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "seg_000.ts"), []byte(strings.Repeat("G", 188)), 0o644)
	os.WriteFile(filepath.Join(dir, "seg_001.ts"), []byte(strings.Repeat("H", 188)), 0o644)
	if err := e.svc.SaveRendition(e.ctx, id, media.RenditionResult{Name: "360p", Width: 320, Height: 240, BandwidthBps: 400_000,
		Playlist: "360p/index.m3u8"}, dir); err != nil {
		e.t.Fatal(err)
	}
	if err := e.svc.Ready(e.ctx, id); err != nil {
		e.t.Fatal(err)
	}
	var key string
	if err := e.srv.App.Pool.QueryRow(e.ctx, `SELECT master_key FROM media_assets WHERE id = $1`, id).Scan(&key); err != nil {
		e.t.Fatal(err)
	}
	return id, key
}

func (e *env) secret() []byte {
	e.t.Helper()
	s, err := content.PreviewSecret(e.ctx, e.srv.App.Pool)
	if err != nil {
		e.t.Fatal(err)
	}
	return s
}

// A video's stream is served only by a signed address: its permanent
// /uploads/ addresses answer 404 to anyone; the signed one serves the
// master, the variant playlist and the segments below the same token (the
// playlists' relative addresses carry it), for the member's browser only
// (Cache-Control private, never longer than the token lives). A tampered,
// forged or expired token is refused with a pt-BR message, and a token
// opens no file outside its stream's folder.
func TestStreamServedOnlyBySignedAddress(t *testing.T) {
	e := newEnv(t)
	id, key := e.readyStream()
	base := strings.TrimSuffix(key, "master.m3u8")
	visitor := e.srv.Client(t)
	for _, k := range []string{key, base + "360p/index.m3u8", base + "360p/seg_000.ts"} {
		if r := visitor.Do("GET", "/uploads/"+k, nil); r.Status != http.StatusNotFound {
			t.Errorf("GET /uploads/%s: %d, want 404", k, r.Status)
		}
		if _, err := os.Stat(filepath.Join(e.srv.Env["DATA_DIR"], "uploads", filepath.FromSlash(k))); err == nil {
			t.Errorf("%s is in the public store", k)
		}
	}

	streams := e.srv.App.Streams
	member := "7d7c6a53-3d0e-4a3c-9d0b-2f0f2f8e1c11"
	u := streams.MediaURL(key, member, 2)
	if !strings.HasPrefix(u, media.StreamPath) || !strings.HasSuffix(u, "/master.m3u8") || strings.Contains(u, id) {
		t.Fatalf("signed address %s", u)
	}
	dir := strings.TrimSuffix(u, "master.m3u8")
	lifetime := media.StreamLifetime(2)
	for _, f := range []struct{ file, ctype, body string }{
		{"master.m3u8", "application/vnd.apple.mpegurl", "360p/index.m3u8"},
		{"360p/index.m3u8", "application/vnd.apple.mpegurl", "\nseg_000.ts\n"},
		{"360p/seg_001.ts", "video/mp2t", strings.Repeat("H", 188)},
	} {
		r := visitor.Do("GET", dir+f.file, nil)
		if r.Status != http.StatusOK || r.Header.Get("Content-Type") != f.ctype || !strings.Contains(string(r.Body), f.body) {
			t.Fatalf("GET %s: %d %s %q", f.file, r.Status, r.Header.Get("Content-Type"), r.Body)
		}
		cc := r.Header.Get("Cache-Control")
		age, err := strconv.Atoi(strings.TrimPrefix(cc, "private, max-age="))
		if !strings.HasPrefix(cc, "private, max-age=") || err != nil || age <= 0 || time.Duration(age)*time.Second > lifetime {
			t.Errorf("GET %s: Cache-Control %q, want private for at most %s", f.file, cc, lifetime)
		}
	}

	refused := func(addr string, status int, msg string) {
		t.Helper()
		r := visitor.Do("GET", addr, nil)
		if r.Status != status || (msg != "" && r.ErrorMessage() != msg) || strings.Contains(string(r.Body), "EXTM3U") {
			t.Errorf("GET %s: %d %q, want %d %q", addr, r.Status, r.ErrorMessage(), status, msg)
		}
	}
	token := strings.Split(strings.TrimPrefix(u, media.StreamPath), "/")[0]
	flip := func(s string, i int) string {
		b := []byte(s)
		if b[i] == 'A' {
			b[i] = 'B'
		} else {
			b[i] = 'A'
		}
		return string(b)
	}
	// The signature, then the payload, changed.
	refused(media.StreamPath+flip(token, len(token)-2)+"/master.m3u8", http.StatusForbidden, media.MsgStreamInvalid)
	refused(media.StreamPath+flip(token, 3)+"/master.m3u8", http.StatusForbidden, media.MsgStreamInvalid)
	refused(media.StreamPath+"nada/master.m3u8", http.StatusForbidden, media.MsgStreamInvalid)
	// Signed with another key.
	other, err := media.NewStreams([]byte(strings.Repeat("x", 32)), nil)
	if err != nil {
		t.Fatal(err)
	}
	refused(other.MediaURL(key, member, 2), http.StatusForbidden, media.MsgStreamInvalid)
	// Expired: signed an hour long, two hours ago.
	past, err := media.NewStreams(e.secret(), func() time.Time { return time.Now().Add(-2 * time.Hour) })
	if err != nil {
		t.Fatal(err)
	}
	refused(past.URL(key, member, time.Hour), http.StatusForbidden, media.MsgStreamExpired)
	// No way out of the stream's folder: the asset's original sits two levels up.
	if r := visitor.Do("GET", dir+"..%2F..%2Foriginal.mp4", nil); r.Status < 400 || r.Status >= 500 {
		t.Errorf("escape: %d", r.Status)
	}
	// Another asset's token opens only that asset's folder.
	_, key2 := e.readyStream()
	u2 := streams.MediaURL(key2, member, 2)
	if r := visitor.Do("GET", u2, nil); r.Status != http.StatusOK || strings.Contains(string(r.Body), base) {
		t.Errorf("second stream: %d", r.Status)
	}
	if r := visitor.Do("GET", strings.TrimSuffix(u2, "master.m3u8")+"360p/index.m3u8", nil); r.Status != http.StatusOK {
		t.Errorf("second stream's variant: %d", r.Status)
	}
}

// A document (a lesson's material file) is kept private too: its /uploads/
// address answers 404 and staff reading the library get a signed address.
func TestDocumentServedOnlyBySignedAddress(t *testing.T) {
	e := newEnv(t)
	pdf := []byte("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n")
	up := e.contentUpload("file", "apostila.pdf", pdf)
	if up.URL != "" {
		t.Errorf("a material's upload names a public URL: %s", up.URL)
	}
	if r := e.srv.Client(t).Do("GET", "/uploads/"+up.Key, nil); r.Status != http.StatusNotFound {
		t.Fatalf("GET /uploads/%s: %d, want 404", up.Key, r.Status)
	}
	id, res := e.upload("Protocolo.pdf", "application/pdf", pdf)
	if res.Status != http.StatusNoContent {
		t.Fatalf("pdf upload: %d %s", res.Status, res.Body)
	}
	a := e.get(id)
	if !strings.HasPrefix(a.URL, media.StreamPath) || !strings.HasSuffix(a.URL, "/original.pdf") {
		t.Fatalf("document address %q", a.URL)
	}
	if r := e.srv.Client(t).Do("GET", "/uploads/media/"+id+"/original.pdf", nil); r.Status != http.StatusNotFound {
		t.Errorf("GET /uploads/ of the library's PDF: %d", r.Status)
	}
	r := e.srv.Client(t).Do("GET", a.URL, nil)
	if r.Status != http.StatusOK || r.Header.Get("Content-Type") != "application/pdf" || string(r.Body) != string(pdf) ||
		!strings.HasPrefix(r.Header.Get("Cache-Control"), "private, max-age=") {
		t.Errorf("signed PDF: %d %s %s", r.Status, r.Header.Get("Content-Type"), r.Header.Get("Cache-Control"))
	}
}

// Streams and documents stored in the public store before they were kept
// private are moved at start: served under /uploads/ before, not after, and
// then by signed address.
func TestProtectedFilesStoredBeforeAreMoved(t *testing.T) {
	e := newEnv(t)
	id, key := e.readyStream()
	prefix := strings.TrimSuffix(key, "/master.m3u8")
	data := e.srv.Env["DATA_DIR"]
	pub := filepath.Join(data, "uploads", filepath.FromSlash(prefix))
	os.MkdirAll(filepath.Dir(pub), 0o755)
	if err := os.Rename(filepath.Join(data, "media-originals", filepath.FromSlash(prefix)), pub); err != nil {
		t.Fatal(err)
	}
	if _, err := e.srv.App.Pool.Exec(e.ctx, `UPDATE media_assets SET files_private = false WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	seg := strings.TrimSuffix(key, "master.m3u8") + "360p/seg_000.ts"
	if r := e.srv.Client(t).Do("GET", "/uploads/"+seg, nil); r.Status != http.StatusOK {
		t.Fatalf("as stored before: %d", r.Status)
	}
	n, err := e.svc.MoveProtectedFiles(e.ctx)
	if err != nil || n != 1 {
		t.Fatalf("moved %d: %v", n, err)
	}
	for _, k := range []string{key, seg, strings.TrimSuffix(key, "master.m3u8") + "360p/index.m3u8"} {
		if r := e.srv.Client(t).Do("GET", "/uploads/"+k, nil); r.Status != http.StatusNotFound {
			t.Errorf("GET /uploads/%s after the move: %d", k, r.Status)
		}
	}
	u := e.srv.App.Streams.MediaURL(key, "", 2)
	if r := e.srv.Client(t).Do("GET", strings.TrimSuffix(u, "master.m3u8")+"360p/seg_000.ts", nil); r.Status != http.StatusOK {
		t.Errorf("signed segment after the move: %d", r.Status)
	}
	if n, err := e.svc.MoveProtectedFiles(e.ctx); err != nil || n != 0 {
		t.Errorf("second run moved %d: %v", n, err)
	}
}
