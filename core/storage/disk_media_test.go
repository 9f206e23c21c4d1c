package storage_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vetclube/vetclube/core/storage"
)

// Streams, segments and subtitles are served over real HTTP with the types
// players require, a year's cache and byte ranges.
func TestDiskServesStreamingFilesWithTheirTypesAndRanges(t *testing.T) {
	ctx := context.Background()
	d, err := storage.NewDisk(t.TempDir(), "/uploads/")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(d)
	defer srv.Close()
	seg := strings.Repeat("0123456789", 100)
	files := map[string]struct{ body, ctype string }{
		"media/a/tok/hls/master.m3u8":        {"#EXTM3U\n", "application/vnd.apple.mpegurl"},
		"media/a/tok/hls/360p/seg_00001.ts":  {seg, "video/mp2t"},
		"media/a/tok/hls/360p/seg_00001.m4s": {seg, "video/iso.segment"},
		"media/a/tok/hls/subs/1.vtt":         {"WEBVTT\n", "text/vtt; charset=utf-8"},
		"media/a/img/poster-x.jpg":           {"\xff\xd8\xff", "image/jpeg"},
		"media/b/original.pdf":               {"%PDF-1.4\n", "application/pdf"},
	}
	for key, f := range files {
		if err := d.Put(ctx, key, f.ctype, strings.NewReader(f.body)); err != nil {
			t.Fatal(err)
		}
		res, err := http.Get(srv.URL + d.URL(key))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != f.ctype ||
			res.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
			t.Errorf("%s: %d %q %q", key, res.StatusCode, res.Header.Get("Content-Type"), res.Header.Get("Cache-Control"))
		}
	}
	req, _ := http.NewRequest("GET", srv.URL+"/uploads/media/a/tok/hls/360p/seg_00001.ts", nil)
	req.Header.Set("Range", "bytes=100-199")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	buf := make([]byte, 200)
	n, _ := res.Body.Read(buf)
	if res.StatusCode != http.StatusPartialContent || res.Header.Get("Content-Range") != fmt.Sprintf("bytes 100-199/%d", len(seg)) ||
		string(buf[:n]) != seg[100:200] {
		t.Errorf("range: %d %q %q", res.StatusCode, res.Header.Get("Content-Range"), buf[:n])
	}
}

func TestDiskPutFileLocalPathDeletePrefix(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	d, err := storage.NewDisk(root, "/uploads/")
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(t.TempDir(), "clip.mp4")
	os.WriteFile(src, []byte("video bytes"), 0o600)
	if err := d.PutFile(ctx, "media/x/original.mp4", "video/mp4", src); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(src); !os.IsNotExist(err) {
		t.Errorf("source still there after the move: %v", err)
	}
	p, err := d.LocalPath("media/x/original.mp4")
	if err != nil || p != filepath.Join(root, "media", "x", "original.mp4") {
		t.Fatalf("LocalPath = %q, %v", p, err)
	}
	if b, _ := os.ReadFile(p); string(b) != "video bytes" {
		t.Errorf("moved content %q", b)
	}
	if _, err := d.LocalPath("media/x/none.mp4"); err != storage.ErrNotFound {
		t.Errorf("missing key: %v", err)
	}
	if _, err := d.LocalPath("../etc/passwd"); err == nil {
		t.Error("an escaping key has a local path")
	}
	if err := d.DeletePrefix(ctx, "media/x"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "media", "x")); !os.IsNotExist(err) {
		t.Errorf("prefix not removed: %v", err)
	}
	if err := d.DeletePrefix(ctx, "media/x"); err != nil {
		t.Errorf("deleting a missing prefix: %v", err)
	}
	if err := d.DeletePrefix(ctx, ".."); err == nil {
		t.Error("DeletePrefix accepted an escaping prefix")
	}
}
