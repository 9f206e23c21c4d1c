package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Disk is a Store on the local file system, served by its own ServeHTTP under
// a public URL prefix (the app mounts it at /uploads/).
type Disk struct {
	root   string
	prefix string // public URL prefix, ending in "/"
}

// NewDisk stores files under dir (created when missing) and names them
// publicly as prefix + key.
func NewDisk(dir, prefix string) (*Disk, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("storage: create %s: %w", dir, err)
	}
	if !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	return &Disk{root: dir, prefix: prefix}, nil
}

func (d *Disk) path(key string) (string, error) {
	if !ValidKey(key) {
		return "", fmt.Errorf("storage: invalid key %q", key)
	}
	return filepath.Join(d.root, filepath.FromSlash(key)), nil
}

// Put writes to a temporary file and renames it into place, so a reader
// never sees half a file and a failed upload leaves nothing behind.
func (d *Disk) Put(ctx context.Context, key, contentType string, body io.Reader) error {
	dst, err := d.path(key)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return fmt.Errorf("storage: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".upload-*")
	if err != nil {
		return fmt.Errorf("storage: %w", err)
	}
	defer os.Remove(tmp.Name()) // no-op after a successful rename
	if _, err := io.Copy(tmp, body); err != nil {
		tmp.Close()
		return fmt.Errorf("storage: write %s: %w", key, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("storage: sync %s: %w", key, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("storage: close %s: %w", key, err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("storage: %w", err)
	}
	if err := os.Rename(tmp.Name(), dst); err != nil {
		return fmt.Errorf("storage: store %s: %w", key, err)
	}
	return nil
}

// Delete removes key and any directories it leaves empty.
func (d *Disk) Delete(_ context.Context, key string) error {
	p, err := d.path(key)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("storage: delete %s: %w", key, err)
	}
	// Best effort: a directory still holding files is simply kept.
	for dir := path.Dir(key); dir != "." && dir != "/"; dir = path.Dir(dir) {
		if os.Remove(filepath.Join(d.root, filepath.FromSlash(dir))) != nil {
			break
		}
	}
	return nil
}

// URL is the public address of key.
func (d *Disk) URL(key string) string { return d.prefix + key }

// KeyFromURL inverts URL.
func (d *Disk) KeyFromURL(url string) (string, bool) {
	key, ok := strings.CutPrefix(url, d.prefix)
	if !ok || !ValidKey(key) {
		return "", false
	}
	return key, true
}

// Open returns the stored file for key, or ErrNotFound.
func (d *Disk) Open(key string) (*os.File, error) {
	p, err := d.path(key)
	if err != nil {
		return nil, ErrNotFound
	}
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("storage: open %s: %w", key, err)
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, ErrNotFound
	}
	return f, nil
}

// ServeHTTP serves GET/HEAD prefix+key. Keys are never reused for other
// content, so responses may be cached for a year. Directory listings and
// anything outside the root are 404.
func (d *Disk) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	key, ok := strings.CutPrefix(r.URL.Path, d.prefix)
	if !ok {
		http.NotFound(w, r)
		return
	}
	f, err := d.Open(key)
	if err != nil {
		w.Header().Set("Cache-Control", "no-store")
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		http.Error(w, "erro ao ler arquivo", http.StatusInternalServerError)
		return
	}
	if ct := ContentType(key); ct != "" {
		w.Header().Set("Content-Type", ct)
	}
	w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	// Uploaded bytes are never interpreted as a page, even if a browser is
	// tricked into navigating to one.
	w.Header().Set("Content-Security-Policy", "default-src 'none'; img-src 'self'; sandbox")
	http.ServeContent(w, r, "", st.ModTime(), f)
}

// streamingTypes are the media types of HLS streams and subtitles. The
// system's MIME table may lack them or, for .ts, name TypeScript: players
// such as Safari's refuse a playlist or segment with the wrong type.
var streamingTypes = map[string]string{
	".m3u8": "application/vnd.apple.mpegurl",
	".ts":   "video/mp2t",
	".m4s":  "video/iso.segment",
	".vtt":  "text/vtt; charset=utf-8",
	".mp4":  "video/mp4",
	".pdf":  "application/pdf",
}

// ContentType is the Content-Type key is served with ("" lets
// http.ServeContent sniff it).
func ContentType(key string) string {
	ext := strings.ToLower(path.Ext(key))
	if ct, ok := streamingTypes[ext]; ok {
		return ct
	}
	return mime.TypeByExtension(ext)
}

// PutFile moves the local file src into key: a rename when both are on the
// same file system (a multi-gigabyte video is not copied), a copy and
// delete otherwise.
func (d *Disk) PutFile(ctx context.Context, key, contentType, src string) error {
	dst, err := d.path(key)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return fmt.Errorf("storage: %w", err)
	}
	if err := os.Rename(src, dst); err == nil {
		return os.Chmod(dst, 0o644)
	}
	f, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("storage: open %s: %w", src, err)
	}
	defer f.Close()
	if err := d.Put(ctx, key, contentType, f); err != nil {
		return err
	}
	return os.Remove(src)
}

// LocalPath is the file holding key, for readers that need a path (ffmpeg).
func (d *Disk) LocalPath(key string) (string, error) {
	p, err := d.path(key)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
		return "", ErrNotFound
	} else if err != nil {
		return "", fmt.Errorf("storage: %w", err)
	}
	return p, nil
}

// DeletePrefix removes every key under prefix (a folder such as
// "media/<id>"); a prefix that does not exist is not an error.
func (d *Disk) DeletePrefix(_ context.Context, prefix string) error {
	p, err := d.path(strings.TrimSuffix(prefix, "/"))
	if err != nil {
		return err
	}
	if err := os.RemoveAll(p); err != nil {
		return fmt.Errorf("storage: delete %s: %w", prefix, err)
	}
	return nil
}
