package storage_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vetclube/vetclube/core/storage"
)

func TestDiskPutServeDelete(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	d, err := storage.NewDisk(dir, "/uploads/")
	if err != nil {
		t.Fatal(err)
	}
	key := "avatars/u1/abc.png"
	if err := d.Put(ctx, key, "image/png", strings.NewReader("png bytes")); err != nil {
		t.Fatal(err)
	}
	url := d.URL(key)
	if url != "/uploads/avatars/u1/abc.png" {
		t.Fatalf("URL = %q", url)
	}
	if got, ok := d.KeyFromURL(url); !ok || got != key {
		t.Fatalf("KeyFromURL(%q) = %q, %v", url, got, ok)
	}
	if _, ok := d.KeyFromURL("https://lh3.googleusercontent.com/a/photo.jpg"); ok {
		t.Fatal("an external URL must not map to a key")
	}

	rec := httptest.NewRecorder()
	d.ServeHTTP(rec, httptest.NewRequest("GET", url, nil))
	if rec.Code != http.StatusOK || rec.Body.String() != "png bytes" {
		t.Fatalf("GET %s: %d %q", url, rec.Code, rec.Body.String())
	}
	if ct := rec.Header().Get("Content-Type"); ct != "image/png" {
		t.Errorf("Content-Type %q", ct)
	}
	if cc := rec.Header().Get("Cache-Control"); !strings.Contains(cc, "max-age=31536000") {
		t.Errorf("Cache-Control %q, want a year", cc)
	}

	if err := d.Delete(ctx, key); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "avatars", "u1")); !os.IsNotExist(err) {
		t.Errorf("empty directory left behind: %v", err)
	}
	if err := d.Delete(ctx, key); err != nil {
		t.Errorf("deleting a missing key: %v", err)
	}
	rec = httptest.NewRecorder()
	d.ServeHTTP(rec, httptest.NewRequest("GET", url, nil))
	if rec.Code != http.StatusNotFound {
		t.Errorf("GET deleted file: %d", rec.Code)
	}
}

func TestDiskRefusesEscapes(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	dir := filepath.Join(root, "uploads")
	d, err := storage.NewDisk(dir, "/uploads/")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "secret.txt"), []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"../secret.txt", "/etc/passwd", "a/../../secret.txt", ".hidden", "a\\b", ""} {
		if err := d.Put(ctx, key, "text/plain", strings.NewReader("x")); err == nil {
			t.Errorf("Put(%q) accepted", key)
		}
		if err := d.Delete(ctx, key); err == nil {
			t.Errorf("Delete(%q) accepted", key)
		}
	}
	for _, p := range []string{"/uploads/../secret.txt", "/uploads/%2e%2e/secret.txt", "/uploads/", "/uploads/avatars"} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", "/", nil)
		req.URL.Path = p
		d.ServeHTTP(rec, req)
		body, _ := io.ReadAll(rec.Body)
		if rec.Code != http.StatusNotFound || strings.Contains(string(body), "secret") {
			t.Errorf("GET %s: %d %q", p, rec.Code, body)
		}
	}
}

func TestDiskPutFailureLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	d, err := storage.NewDisk(dir, "/uploads/")
	if err != nil {
		t.Fatal(err)
	}
	err = d.Put(context.Background(), "avatars/x.jpg", "image/jpeg", io.MultiReader(strings.NewReader("half"), failingReader{}))
	if err == nil {
		t.Fatal("Put with a failing body succeeded")
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "avatars"))
	if len(entries) != 0 {
		t.Errorf("left %d files behind after a failed upload", len(entries))
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, io.ErrUnexpectedEOF }
