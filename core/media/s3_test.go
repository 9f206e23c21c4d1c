package media_test

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/minio/minio-go/v7"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/media"
	"github.com/vetclube/vetclube/core/storage/s3fake"
)

// With S3 configured, the library's public files go to the public bucket
// and are addressed under S3_PUBLIC_URL, video originals go only to the
// private bucket and come back as a local file for ffmpeg, and deleting an
// asset empties its folder. The S3 peer is gofakes3 in-process (see
// s3fake): S3 is a paid outside service.
func TestLibraryOnS3(t *testing.T) {
	ctx := context.Background()
	fake := s3fake.Start(t, "publico", "privado")
	srv := apptest.Start(t, fake.Env("publico", "privado"))
	proc := &recordingProcessing{}
	srv.App.Media.SetProcessing(proc)
	staff, _ := srv.SignedIn(t, "editora@vetclube.test", core.RoleEditor)
	e := &env{t: t, srv: srv, svc: srv.App.Media, proc: proc, staff: staff, ctx: ctx}
	base := fake.URL + "/publico/"
	s3 := fake.Client(t)

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
	// 64×48 is read from the stored file, downloaded back from S3.
	if a.State != media.StateReady || a.Width != 64 || a.Height != 48 || !strings.HasPrefix(a.URL, base+"media/"+id+"/") {
		t.Fatalf("image asset: %+v, want its URL under %s", a, base)
	}
	key := strings.TrimPrefix(a.URL, base)
	info, err := s3.StatObject(ctx, "publico", key, minio.StatObjectOptions{})
	// An opaque picture is kept as a JPEG of its pixels.
	if err != nil || info.ContentType != "image/jpeg" || info.Size == 0 {
		t.Fatalf("object %s: %q %d %v", key, info.ContentType, info.Size, err)
	}
	if cc := fake.UploadHeader("/publico/" + key).Get("Cache-Control"); cc != "public, max-age=31536000, immutable" {
		t.Errorf("uploaded with Cache-Control %q", cc)
	}
	got, err := http.Get(a.URL)
	if err != nil {
		t.Fatal(err)
	}
	var body bytes.Buffer
	body.ReadFrom(got.Body)
	got.Body.Close()
	if got.StatusCode != http.StatusOK || got.Header.Get("Content-Type") != "image/jpeg" || int64(body.Len()) != info.Size ||
		!bytes.HasPrefix(body.Bytes(), []byte{0xFF, 0xD8, 0xFF}) {
		t.Errorf("GET %s: %d %q", a.URL, got.StatusCode, got.Header.Get("Content-Type"))
	}
	// Addresses saved as /uploads/<key> (the media_public view's) lead to S3.
	var fileURL string
	if err := srv.App.Pool.QueryRow(ctx, `SELECT file_url FROM media_public WHERE id = $1`, id).Scan(&fileURL); err != nil {
		t.Fatal(err)
	}
	if r := staff.Do("GET", fileURL, nil); r.Status != http.StatusFound || r.Header.Get("Location") != a.URL {
		t.Errorf("GET %s: %d to %q, want 302 to %s", fileURL, r.Status, r.Header.Get("Location"), a.URL)
	}

	// A video's original is kept only in the private bucket.
	video := sampleVideo(t)
	src := filepath.Join(t.TempDir(), "aula.mp4")
	if err := os.WriteFile(src, video, 0o600); err != nil {
		t.Fatal(err)
	}
	vid, err := srv.App.Media.Import(ctx, src, "aula.mp4", "")
	if err != nil {
		t.Fatal(err)
	}
	if calls := proc.calls(); len(calls) != 1 || calls[0] != vid+"#1" {
		t.Errorf("processing started %v", calls)
	}
	orig := "media/" + vid + "/original.mp4"
	if info, err := s3.StatObject(ctx, "privado", orig, minio.StatObjectOptions{}); err != nil || info.Size != int64(len(video)) {
		t.Fatalf("private original: %d %v", info.Size, err)
	}
	if _, err := s3.StatObject(ctx, "publico", orig, minio.StatObjectOptions{}); minio.ToErrorResponse(err).Code != "NoSuchKey" {
		t.Errorf("original in the public bucket: %v", err)
	}
	source, err := srv.App.Media.Source(ctx, vid)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(source.Path); err != nil || !bytes.Equal(b, video) {
		t.Errorf("local copy of the original at %s: %d bytes, %v", source.Path, len(b), err)
	}

	if res := staff.Do("DELETE", "/api/admin/media/"+id, nil); res.Status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", res.Status, res.Body)
	}
	for obj := range s3.ListObjects(ctx, "publico", minio.ListObjectsOptions{Prefix: "media/" + id + "/", Recursive: true}) {
		t.Errorf("left after delete: %s %v", obj.Key, obj.Err)
	}
}
