package media_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

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

// On S3 a stream lives in the private bucket only. Its playlists come
// through the stream endpoint, rewritten so each segment is a presigned
// address of the private bucket expiring with the token (the player reads
// the bytes from the object store, never through the app); the variant
// playlists stay relative, so they come back with the token; a segment
// asked of the endpoint answers a redirect to its presigned address. The
// public bucket holds nothing of it.
func TestStreamsOnS3(t *testing.T) {
	ctx := context.Background()
	fake := s3fake.Start(t, "publico", "privado")
	srv := apptest.Start(t, fake.Env("publico", "privado"))
	proc := &recordingProcessing{}
	srv.App.Media.SetProcessing(proc)
	staff, staffID := srv.SignedIn(t, "editora@vetclube.test", core.RoleEditor)
	e := &env{t: t, srv: srv, svc: srv.App.Media, proc: proc, staff: staff, staffID: staffID, ctx: ctx}
	s3 := fake.Client(t)

	_, key := e.readyStream()
	prefix := strings.TrimSuffix(key, "master.m3u8")
	for _, k := range []string{key, prefix + "360p/index.m3u8", prefix + "360p/seg_000.ts"} {
		if _, err := s3.StatObject(ctx, "privado", k, minio.StatObjectOptions{}); err != nil {
			t.Errorf("%s not in the private bucket: %v", k, err)
		}
		if _, err := s3.StatObject(ctx, "publico", k, minio.StatObjectOptions{}); minio.ToErrorResponse(err).Code != "NoSuchKey" {
			t.Errorf("%s in the public bucket: %v", k, err)
		}
	}

	visitor := srv.Client(t)
	u := srv.App.Streams.MediaURL(key, staffID, 2)
	master := visitor.Do("GET", u, nil)
	if master.Status != http.StatusOK || !strings.Contains(string(master.Body), "\n360p/index.m3u8\n") ||
		!strings.HasPrefix(master.Header.Get("Cache-Control"), "private, max-age=") {
		t.Fatalf("master: %d %v\n%s", master.Status, master.Header, master.Body)
	}
	dir := strings.TrimSuffix(u, "master.m3u8")
	variant := visitor.Do("GET", dir+"360p/index.m3u8", nil)
	if variant.Status != http.StatusOK || variant.Header.Get("Content-Type") != "application/vnd.apple.mpegurl" {
		t.Fatalf("variant: %d %v", variant.Status, variant.Header)
	}
	var segs []string
	for _, line := range strings.Split(string(variant.Body), "\n") {
		if line != "" && !strings.HasPrefix(line, "#") {
			segs = append(segs, line)
		}
	}
	want := fake.URL + "/privado/" + prefix + "360p/seg_000.ts?"
	if len(segs) != 2 || !strings.HasPrefix(segs[0], want) || !strings.Contains(segs[0], "X-Amz-Signature=") {
		t.Fatalf("segments of the rewritten playlist: %q, want presigned addresses %s…", segs, want)
	}
	got, err := http.Get(segs[0])
	if err != nil {
		t.Fatal(err)
	}
	var body bytes.Buffer
	body.ReadFrom(got.Body)
	got.Body.Close()
	if got.StatusCode != http.StatusOK || body.String() != strings.Repeat("G", 188) {
		t.Errorf("presigned segment: %d %d bytes", got.StatusCode, body.Len())
	}
	if r := visitor.Do("GET", dir+"360p/seg_001.ts", nil); r.Status != http.StatusFound ||
		!strings.HasPrefix(r.Header.Get("Location"), fake.URL+"/privado/"+prefix+"360p/seg_001.ts?") {
		t.Errorf("segment through the endpoint: %d %q", r.Status, r.Header.Get("Location"))
	}
	// Neither the public bucket nor /uploads/ has it.
	if r, err := http.Get(fake.URL + "/publico/" + key); err != nil || r.StatusCode == http.StatusOK {
		t.Errorf("public bucket address: %v %v", r, err)
	}
	// The pages may fetch the presigned addresses.
	if csp := visitor.Do("GET", "/healthz", nil).Header.Get("Content-Security-Policy"); !strings.Contains(csp, "connect-src 'self' "+fake.URL) {
		t.Errorf("CSP without the private bucket's origin: %s", csp)
	}
}

// With S3 configured, uploads in progress live in the private bucket under
// tus/ (tusd's S3 store), so an upload begun on one instance resumes and
// finishes on another that shares nothing with the first but the database
// and the bucket: a first PATCH of more than one S3 part on instance A, the
// offset read and the rest sent on instance B. The finished file is stored
// as the original and nothing is left under tus/ or in either instance's
// incoming directory. The sweep removes an abandoned upload's objects too.
func TestResumableUploadsOnS3(t *testing.T) {
	ctx := context.Background()
	fake := s3fake.Start(t, "publico", "privado")
	a := apptest.Start(t, fake.Env("publico", "privado"))
	b := apptest.StartOn(t, a.DBURL, fake.Env("publico", "privado"))
	for _, srv := range []*apptest.Server{a, b} {
		srv.App.Media.SetProcessing(&recordingProcessing{})
	}
	staff, _ := a.SignedIn(t, "editora@vetclube.test", core.RoleEditor)
	e := &env{t: t, srv: a, svc: a.App.Media, staff: staff, ctx: ctx}
	onB := &env{t: t, srv: b, svc: b.App.Media, staff: staff.ForServer(b), ctx: ctx}
	s3 := fake.Client(t)
	tusObjects := func() []string {
		var keys []string
		for obj := range s3.ListObjects(ctx, "privado", minio.ListObjectsOptions{Prefix: "tus/", Recursive: true}) {
			if obj.Err != nil {
				t.Fatal(obj.Err)
			}
			keys = append(keys, obj.Key)
		}
		return keys
	}

	// A video of 6.5 MiB: one 5 MiB part and a remainder kept as .part.
	video := append(sampleVideo(t), bytes.Repeat([]byte{0}, 6<<20+512<<10)...)
	res := e.create("aula-longa.mp4", "video/mp4", int64(len(video)))
	if res.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", res.Status, res.Body)
	}
	id, loc := res.Header.Get(media.AssetIDHeader), res.Header.Get("Location")
	token := loc[strings.LastIndex(loc, "/")+1:]
	if strings.Contains(token, "+") || !strings.HasPrefix(loc, a.URL+media.UploadsPath) {
		t.Fatalf("upload address %q names more than the upload's token", loc)
	}
	first := 5<<20 + 300<<10
	if r := e.patch(loc, 0, video[:first]); r.Status != http.StatusNoContent {
		t.Fatalf("first chunk on A: %d %s", r.Status, r.Body)
	}
	if keys := tusObjects(); !slices.Contains(keys, "tus/"+token+".info") {
		t.Fatalf("objects under tus/ after the first chunk: %v", keys)
	}
	if n := fake.Parts("/privado/tus/" + token); n != 1 {
		t.Errorf("%d S3 parts sent for the first chunk, want 1", n)
	}
	locB := strings.Replace(loc, a.URL, b.URL, 1)
	head := onB.head(locB)
	if head.Status != http.StatusOK || head.Header.Get("Upload-Offset") != strconv.Itoa(first) {
		t.Fatalf("offset read on B: %d %q, want %d", head.Status, head.Header.Get("Upload-Offset"), first)
	}
	done := onB.patch(locB, int64(first), video[first:])
	if done.Status != http.StatusNoContent || done.Header.Get(media.AssetStateHeader) != string(media.StateProcessing) {
		t.Fatalf("rest on B: %d %q %s", done.Status, done.Header.Get(media.AssetStateHeader), done.Body)
	}
	orig := "media/" + id + "/original.mp4"
	obj, err := s3.GetObject(ctx, "privado", orig, minio.GetObjectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	stored, err := io.ReadAll(obj)
	if err != nil || !bytes.Equal(stored, video) {
		t.Fatalf("stored original: %d bytes (%v), want the %d uploaded", len(stored), err, len(video))
	}
	if keys := tusObjects(); len(keys) != 0 {
		t.Errorf("left under tus/ after the upload finished: %v", keys)
	}
	for _, srv := range []*apptest.Server{a, b} {
		entries, _ := os.ReadDir(filepath.Join(srv.Env["DATA_DIR"], "media-incoming"))
		for _, en := range entries {
			t.Errorf("left in %s's incoming directory: %s", srv.URL, en.Name())
		}
	}
	// Another staff member meets no upload at the same address.
	other, _ := b.SignedIn(t, "outra@vetclube.test", core.RoleEditor)
	if r := (&env{t: t, srv: b, staff: other}).head(locB); r.Status != http.StatusNotFound {
		t.Errorf("someone else's HEAD: %d", r.Status)
	}

	// An upload abandoned half way (on A) and an orphan whose asset is
	// gone are swept (from B): their objects and multipart uploads go.
	res = e.create("esquecida.mp4", "video/mp4", int64(len(video)))
	abandoned, aloc := res.Header.Get(media.AssetIDHeader), res.Header.Get("Location")
	if r := e.patch(aloc, 0, video[:first]); r.Status != http.StatusNoContent {
		t.Fatalf("abandoned upload's chunk: %d %s", r.Status, r.Body)
	}
	res = e.create("orfa.pdf", "application/pdf", 2048)
	orphan := res.Header.Get(media.AssetIDHeader)
	if _, err := a.App.Pool.Exec(ctx, `DELETE FROM media_assets WHERE id = $1`, orphan); err != nil {
		t.Fatal(err)
	}
	if len(tusObjects()) < 2 {
		t.Fatalf("objects of the two uploads: %v", tusObjects())
	}
	// A local copy a stopped finish left on B, and a buffer of tusd's own.
	incomingB := filepath.Join(b.Env["DATA_DIR"], "media-incoming")
	leftover, buffer := filepath.Join(incomingB, "0123abcd"), filepath.Join(incomingB, "tusd-s3-tmp-1")
	for _, f := range []string{leftover, buffer} {
		if err := os.WriteFile(f, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		old := time.Now().Add(-time.Minute)
		if err := os.Chtimes(f, old, old); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(1100 * time.Millisecond) // S3 dates have whole seconds
	removed, err := b.App.Media.SweepAbandoned(ctx, time.Second)
	if err != nil || removed != 1 {
		t.Fatalf("sweep: %d removed, %v", removed, err)
	}
	if keys := tusObjects(); len(keys) != 0 {
		t.Errorf("left under tus/ after the sweep: %v", keys)
	}
	if _, err := os.Stat(leftover); !os.IsNotExist(err) {
		t.Errorf("a finished upload's local copy with no asset outlived the sweep: %v", err)
	}
	if _, err := os.Stat(buffer); err != nil {
		t.Errorf("the sweep took tusd's own buffer: %v", err)
	}
	if r := staff.Do("GET", "/api/admin/media/"+abandoned, nil); r.Status != http.StatusNotFound {
		t.Errorf("abandoned asset after the sweep: %d", r.Status)
	}
	for u := range s3.ListIncompleteUploads(ctx, "privado", "tus/", true) {
		t.Errorf("multipart upload left: %s %v", u.Key, u.Err)
	}
}
