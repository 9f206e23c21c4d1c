package storage_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"

	"github.com/vetclube/vetclube/core/storage"
	"github.com/vetclube/vetclube/core/storage/s3fake"
)

type fakeS3 struct{ *s3fake.Server }

func newFakeS3(t *testing.T, buckets ...string) fakeS3 { return fakeS3{s3fake.Start(t, buckets...)} }

func (f fakeS3) store(t *testing.T, bucket, publicURL string) *storage.S3 {
	t.Helper()
	s, err := storage.NewS3(context.Background(), storage.S3Options{
		Endpoint: f.Endpoint(), Region: "us-east-1", Bucket: bucket, AccessKeyID: s3fake.AccessKey, SecretAccessKey: s3fake.SecretKey,
		PublicURL: publicURL, CacheDir: t.TempDir(),
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func get(t *testing.T, u, rng string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", u, nil)
	if rng != "" {
		req.Header.Set("Range", rng)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

// Public objects are stored with the types players require and a year's
// cache, are fetched from the public URL (with byte ranges), and URL and
// KeyFromURL invert each other.
func TestS3PutStoresTypeAndCacheAndServesFromThePublicURL(t *testing.T) {
	ctx := context.Background()
	f := newFakeS3(t, "pub")
	base := f.URL + "/pub/"
	s := f.store(t, "pub", base)
	seg := strings.Repeat("0123456789", 100)
	files := map[string]struct{ body, given, want string }{
		"media/a/tok/hls/master.m3u8":       {"#EXTM3U\n", "", "application/vnd.apple.mpegurl"},
		"media/a/tok/hls/360p/seg_00001.ts": {seg, "", "video/mp2t"},
		"media/a/tok/hls/subs/1.vtt":        {"WEBVTT\n", "", "text/vtt; charset=utf-8"},
		"media/a/img/poster-x.jpg":          {"\xff\xd8\xff", "image/jpeg", "image/jpeg"},
	}
	for key, file := range files {
		if err := s.Put(ctx, key, file.given, strings.NewReader(file.body)); err != nil {
			t.Fatal(err)
		}
		u := s.URL(key)
		if u != base+key {
			t.Errorf("URL(%s) = %s", key, u)
		}
		if k, ok := s.KeyFromURL(u); !ok || k != key {
			t.Errorf("KeyFromURL(%s) = %q %v", u, k, ok)
		}
		info, err := f.Client(t).StatObject(ctx, "pub", key, minio.StatObjectOptions{})
		if err != nil || info.ContentType != file.want || info.Size != int64(len(file.body)) {
			t.Errorf("%s stored as %q (%d bytes), %v; want %q", key, info.ContentType, info.Size, err, file.want)
		}
		if cc := f.UploadHeader("/pub/" + key).Get("Cache-Control"); cc != storage.PublicCacheControl {
			t.Errorf("%s uploaded with Cache-Control %q", key, cc)
		}
		res, body := get(t, u, "")
		if res.StatusCode != http.StatusOK || body != file.body || res.Header.Get("Content-Type") != file.want {
			t.Errorf("GET %s: %d %q %q", u, res.StatusCode, res.Header.Get("Content-Type"), body)
		}
	}
	res, body := get(t, s.URL("media/a/tok/hls/360p/seg_00001.ts"), "bytes=100-199")
	if res.StatusCode != http.StatusPartialContent || body != seg[100:200] {
		t.Errorf("range: %d %q", res.StatusCode, body)
	}
	for _, u := range []string{"/uploads/media/a/img/poster-x.jpg", "https://cdn.example.com/pub/x.jpg", base + "../etc/passwd", base} {
		if k, ok := s.KeyFromURL(u); ok {
			t.Errorf("KeyFromURL(%s) = %q, want false", u, k)
		}
	}
	if err := s.Put(ctx, "../escape", "text/plain", strings.NewReader("x")); err == nil {
		t.Error("an invalid key was stored")
	}
}

// PutFile moves a local file into the bucket; LocalPath brings it back as
// a file; Delete and DeletePrefix remove objects and their local copies,
// DeletePrefix only below its folder.
func TestS3PutFileLocalPathDeleteAndDeletePrefix(t *testing.T) {
	ctx := context.Background()
	f := newFakeS3(t, "priv")
	s := f.store(t, "priv", "")
	src := filepath.Join(t.TempDir(), "upload.bin")
	if err := os.WriteFile(src, []byte("original bytes"), 0o600); err != nil {
		t.Fatal(err)
	}
	key := "media/v1/original.mp4"
	if err := s.PutFile(ctx, key, "video/mp4", src); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(src); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("source still there after PutFile: %v", err)
	}
	if cc := f.UploadHeader("/priv/" + key).Get("Cache-Control"); cc != "" {
		t.Errorf("private object uploaded with Cache-Control %q", cc)
	}
	if u := s.URL(key); u != "s3://priv/"+key {
		t.Errorf("private URL %q", u)
	} else if k, ok := s.KeyFromURL(u); !ok || k != key {
		t.Errorf("KeyFromURL(%s) = %q %v", u, k, ok)
	}
	p, err := s.LocalPath(key)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(p); err != nil || string(b) != "original bytes" {
		t.Fatalf("local copy %q, %v", b, err)
	}
	// Another machine (an empty cache) downloads it.
	other := f.store(t, "priv", "")
	q, err := other.LocalPath(key)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(q); err != nil || string(b) != "original bytes" || q == p {
		t.Fatalf("downloaded copy %s %q, %v", q, b, err)
	}
	if _, err := s.LocalPath("media/v1/missing.mp4"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("missing key: %v, want ErrNotFound", err)
	}
	if err := s.Delete(ctx, key); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Client(t).StatObject(ctx, "priv", key, minio.StatObjectOptions{}); minio.ToErrorResponse(err).Code != "NoSuchKey" {
		t.Errorf("object after Delete: %v", err)
	}
	if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("local copy after Delete: %v", err)
	}
	if err := s.Delete(ctx, key); err != nil {
		t.Errorf("deleting a missing key: %v", err)
	}

	// More objects than one listing page would hold are all removed.
	var keys []string
	for i := range 1005 {
		keys = append(keys, fmt.Sprintf("media/x/hls/seg_%04d.ts", i))
	}
	for _, k := range keys {
		if err := s.Put(ctx, k, "", strings.NewReader("s")); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Put(ctx, "media/xy/keep.jpg", "image/jpeg", strings.NewReader("k")); err != nil {
		t.Fatal(err)
	}
	cached, err := s.LocalPath(keys[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := s.DeletePrefix(ctx, "media/x"); err != nil {
		t.Fatal(err)
	}
	var left []string
	for obj := range f.Client(t).ListObjects(ctx, "priv", minio.ListObjectsOptions{Recursive: true}) {
		if obj.Err != nil {
			t.Fatal(obj.Err)
		}
		left = append(left, obj.Key)
	}
	if len(left) != 1 || left[0] != "media/xy/keep.jpg" {
		t.Errorf("after DeletePrefix(media/x): %d objects left %.3q", len(left), left)
	}
	if _, err := os.Stat(cached); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("local copy after DeletePrefix: %v", err)
	}
	if err := s.DeletePrefix(ctx, "media/none"); err != nil {
		t.Errorf("empty prefix: %v", err)
	}
	if err := s.DeletePrefix(ctx, "../"); err == nil {
		t.Error("an invalid prefix was accepted")
	}
}

// A file larger than one part (a video original, a long HLS rendition's
// segment set is many small files) goes up as a multipart upload: the parts
// join into the same bytes, with the type and the public cache of a
// single-request upload.
func TestS3LargeFilesGoUpInParts(t *testing.T) {
	ctx := context.Background()
	f := newFakeS3(t, "pub")
	s := f.store(t, "pub", f.URL+"/pub/")
	data := make([]byte, 17<<20+123) // minio-go sends parts of 16 MiB
	for i := range data {
		data[i] = byte(i*31 + i/4096)
	}
	src := filepath.Join(t.TempDir(), "grande.mp4")
	if err := os.WriteFile(src, data, 0o600); err != nil {
		t.Fatal(err)
	}
	key := "media/big/original.mp4"
	if err := s.PutFile(ctx, key, "video/mp4", src); err != nil {
		t.Fatal(err)
	}
	if n := f.Parts("/pub/" + key); n < 2 {
		t.Fatalf("%d parts sent, want a multipart upload", n)
	}
	if cc := f.UploadHeader("/pub/" + key).Get("Cache-Control"); cc != storage.PublicCacheControl {
		t.Errorf("multipart upload started with Cache-Control %q", cc)
	}
	obj, err := f.Client(t).GetObject(ctx, "pub", key, minio.GetObjectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(obj)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(data) || string(got) != string(data) {
		t.Fatalf("stored %d bytes, differing from the %d sent", len(got), len(data))
	}
	if info, err := obj.Stat(); err != nil || info.ContentType != "video/mp4" {
		t.Errorf("stored type %q, %v", info.ContentType, err)
	}
	// Put (an unknown length, spooled first) takes the same path.
	if err := s.Put(ctx, "media/big/copy.mp4", "", strings.NewReader(string(data))); err != nil {
		t.Fatal(err)
	}
	if n := f.Parts("/pub/media/big/copy.mp4"); n < 2 {
		t.Errorf("Put of a large body: %d parts", n)
	}
}

func TestS3RefusesAMissingBucket(t *testing.T) {
	f := newFakeS3(t, "pub")
	_, err := storage.NewS3(context.Background(), storage.S3Options{Endpoint: f.Endpoint(), Region: "us-east-1",
		Bucket: "nope", AccessKeyID: s3fake.AccessKey, SecretAccessKey: s3fake.SecretKey, CacheDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("err %v, want one naming the bucket", err)
	}
}

// /uploads/ keeps serving the files on disk and sends the browser to the
// object store for the others, whose bytes and ranges S3 then serves.
func TestS3DiskThenRedirect(t *testing.T) {
	ctx := context.Background()
	f := newFakeS3(t, "pub")
	s := f.store(t, "pub", f.URL+"/pub/")
	d, err := storage.NewDisk(t.TempDir(), "/uploads/")
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Put(ctx, "avatars/u/old.jpg", "image/jpeg", strings.NewReader("old")); err != nil {
		t.Fatal(err)
	}
	seg := strings.Repeat("abcdefghij", 50)
	if err := s.Put(ctx, "media/a/tok/hls/360p/seg_00001.ts", "", strings.NewReader(seg)); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(storage.DiskThenRedirect(d, s))
	defer srv.Close()
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

	res, err := noFollow.Get(srv.URL + "/uploads/avatars/u/old.jpg")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK || res.Header.Get("Cache-Control") != storage.PublicCacheControl {
		t.Errorf("file on disk: %d %q", res.StatusCode, res.Header.Get("Cache-Control"))
	}
	res, err = noFollow.Get(srv.URL + "/uploads/media/a/tok/hls/360p/seg_00001.ts")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if want := s.URL("media/a/tok/hls/360p/seg_00001.ts"); res.StatusCode != http.StatusFound || res.Header.Get("Location") != want {
		t.Errorf("file in S3: %d %q, want 302 to %s", res.StatusCode, res.Header.Get("Location"), want)
	}
	res, body := get(t, srv.URL+"/uploads/media/a/tok/hls/360p/seg_00001.ts", "bytes=10-19")
	if res.StatusCode != http.StatusPartialContent || body != seg[10:20] || res.Header.Get("Content-Type") != "video/mp2t" {
		t.Errorf("followed: %d %q %q", res.StatusCode, res.Header.Get("Content-Type"), body)
	}
	for _, p := range []string{"/uploads/../etc/passwd", "/uploads/", "/outro/x.jpg"} {
		res, err := noFollow.Get(srv.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", p, res.StatusCode)
		}
	}
}

// Local copies unused for CacheMaxAge are removed when a download happens;
// recent ones stay.
func TestS3PrunesStaleLocalCopies(t *testing.T) {
	ctx := context.Background()
	f := newFakeS3(t, "priv")
	cache := t.TempDir()
	s, err := storage.NewS3(ctx, storage.S3Options{Endpoint: f.Endpoint(), Region: "us-east-1", Bucket: "priv",
		AccessKeyID: s3fake.AccessKey, SecretAccessKey: s3fake.SecretKey, CacheDir: cache, CacheMaxAge: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	stale, fresh := filepath.Join(cache, "media", "old", "original.mp4"), filepath.Join(cache, "media", "new", "original.mp4")
	for _, p := range []string{stale, fresh} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-2 * time.Hour)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	if err := s.Put(ctx, "media/v/original.mp4", "video/mp4", strings.NewReader("v")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.LocalPath("media/v/original.mp4"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("stale copy kept: %v", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("fresh copy removed: %v", err)
	}
}
