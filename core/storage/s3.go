package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// PublicCacheControl is stored on every public object: keys are never
// reused for other content, so browsers and CDNs may keep them a year.
const PublicCacheControl = "public, max-age=31536000, immutable"

// S3Options configure an S3 store.
type S3Options struct {
	// Endpoint is the S3 API's host[:port], without scheme.
	Endpoint        string
	Region          string // empty: asked of the server
	Bucket          string
	AccessKeyID     string
	SecretAccessKey string
	UseSSL          bool
	// PublicURL is where the public fetches the bucket's objects (a CDN
	// or the bucket's own public endpoint); URL(key) is PublicURL + key.
	// Empty makes a private store: objects get no public cache header and
	// URL names them as s3://bucket/key, which nothing can fetch.
	PublicURL string
	// CacheDir holds the local copies LocalPath downloads (ffmpeg reads
	// files, not URLs).
	CacheDir string
	// CacheMaxAge is how long a local copy no one asked for is kept (24h
	// when zero).
	CacheMaxAge time.Duration
}

// S3 is a Store on an S3-compatible object store (AWS S3, Cloudflare R2,
// MinIO, …). The public store's objects are served by the object store or
// its CDN, which answer range requests themselves, with the Content-Type
// and Cache-Control stored on each object.
type S3 struct {
	client  *minio.Client
	bucket  string
	base    string // URL prefix, ending in "/"
	public  bool
	cache   string
	maxAge  time.Duration
	pruneMu sync.Mutex
	pruned  time.Time
}

// NewS3 connects to the bucket (it must exist) and prepares the cache
// directory.
func NewS3(ctx context.Context, o S3Options) (*S3, error) {
	if o.Endpoint == "" || o.Bucket == "" || o.CacheDir == "" {
		return nil, errors.New("storage: S3 needs an endpoint, a bucket and a cache directory")
	}
	client, err := minio.New(o.Endpoint, &minio.Options{
		Creds:  credentials.NewStaticV4(o.AccessKeyID, o.SecretAccessKey, ""),
		Secure: o.UseSSL,
		Region: o.Region,
	})
	if err != nil {
		return nil, fmt.Errorf("storage: S3 client: %w", err)
	}
	ok, err := client.BucketExists(ctx, o.Bucket)
	if err != nil {
		return nil, fmt.Errorf("storage: S3 bucket %s: %w", o.Bucket, err)
	}
	if !ok {
		return nil, fmt.Errorf("storage: S3 bucket %s does not exist", o.Bucket)
	}
	if err := os.MkdirAll(o.CacheDir, 0o755); err != nil {
		return nil, fmt.Errorf("storage: create %s: %w", o.CacheDir, err)
	}
	s := &S3{client: client, bucket: o.Bucket, public: o.PublicURL != "", cache: o.CacheDir, maxAge: o.CacheMaxAge}
	if s.maxAge <= 0 {
		s.maxAge = 24 * time.Hour
	}
	s.base = o.PublicURL
	if !s.public {
		s.base = "s3://" + o.Bucket + "/"
	}
	if !strings.HasSuffix(s.base, "/") {
		s.base += "/"
	}
	return s, nil
}

// putOptions are the headers stored on key: its type (from the caller, else
// from its extension, so HLS playlists and segments get the types players
// require) and, for public objects, the year-long cache.
func (s *S3) putOptions(key, ctype string) minio.PutObjectOptions {
	if ctype == "" {
		ctype = ContentType(key)
	}
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	o := minio.PutObjectOptions{ContentType: ctype}
	if s.public {
		o.CacheControl = PublicCacheControl
	}
	return o
}

// Put uploads body. Its length is unknown, so it is spooled to a file
// first: the upload is then one request for a small file and parts sized
// to the file for a large one, instead of the client buffering parts of
// hundreds of MiB in memory. S3 makes an object visible only once
// complete.
func (s *S3) Put(ctx context.Context, key, contentType string, body io.Reader) error {
	if !ValidKey(key) {
		return fmt.Errorf("storage: invalid key %q", key)
	}
	tmp, err := os.CreateTemp(s.cache, ".put-*")
	if err != nil {
		return fmt.Errorf("storage: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := io.Copy(tmp, body); err != nil {
		tmp.Close()
		return fmt.Errorf("storage: read %s: %w", key, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("storage: spool %s: %w", key, err)
	}
	if _, err := s.client.FPutObject(ctx, s.bucket, key, tmp.Name(), s.putOptions(key, contentType)); err != nil {
		return fmt.Errorf("storage: put %s: %w", key, err)
	}
	return nil
}

// PutFile uploads the local file src into key and takes src away. In a
// private store src becomes key's local copy: a video original is read by
// ffmpeg next, which then needs no download when it runs on this machine.
// A public store's files (HLS segments, posters) are not read back, so
// src is removed.
func (s *S3) PutFile(ctx context.Context, key, contentType, src string) error {
	if !ValidKey(key) {
		return fmt.Errorf("storage: invalid key %q", key)
	}
	if _, err := s.client.FPutObject(ctx, s.bucket, key, src, s.putOptions(key, contentType)); err != nil {
		return fmt.Errorf("storage: put %s: %w", key, err)
	}
	// Only a video original is read back (by ffmpeg, next); the private
	// store's other files (protected streams and documents) are served
	// through signed URLs and need no local copy.
	if !s.public && strings.HasPrefix(path.Base(key), "original.") {
		dst := s.cachePath(key)
		if os.MkdirAll(filepath.Dir(dst), 0o755) == nil && os.Rename(src, dst) == nil {
			now := time.Now()
			_ = os.Chtimes(dst, now, now)
			return nil
		}
	}
	if err := os.Remove(src); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("storage: remove %s: %w", src, err)
	}
	return nil
}

// Delete removes key and its local copy; a missing key is not an error.
func (s *S3) Delete(ctx context.Context, key string) error {
	if !ValidKey(key) {
		return fmt.Errorf("storage: invalid key %q", key)
	}
	if err := s.client.RemoveObject(ctx, s.bucket, key, minio.RemoveObjectOptions{}); err != nil && !notFound(err) {
		return fmt.Errorf("storage: delete %s: %w", key, err)
	}
	if err := os.Remove(s.cachePath(key)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("storage: delete local copy of %s: %w", key, err)
	}
	return nil
}

// DeletePrefix removes every object under the folder prefix, and their
// local copies.
func (s *S3) DeletePrefix(ctx context.Context, prefix string) error {
	prefix = strings.TrimSuffix(prefix, "/")
	if !ValidKey(prefix) {
		return fmt.Errorf("storage: invalid prefix %q", prefix)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var listErr error
	objects := make(chan minio.ObjectInfo)
	go func() {
		defer close(objects)
		for obj := range s.client.ListObjects(ctx, s.bucket, minio.ListObjectsOptions{Prefix: prefix + "/", Recursive: true}) {
			if obj.Err != nil {
				listErr = obj.Err
				return
			}
			select {
			case objects <- obj:
			case <-ctx.Done():
				return
			}
		}
	}()
	var errs []error
	for e := range s.client.RemoveObjects(ctx, s.bucket, objects, minio.RemoveObjectsOptions{}) {
		if e.Err != nil && !notFound(e.Err) {
			errs = append(errs, fmt.Errorf("%s: %w", e.ObjectName, e.Err))
		}
	}
	// RemoveObjects drains objects, so the lister has finished here.
	if listErr != nil {
		errs = append(errs, fmt.Errorf("list: %w", listErr))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("storage: delete %s: %w", prefix, err)
	}
	if err := os.RemoveAll(filepath.Join(s.cache, filepath.FromSlash(prefix))); err != nil {
		return fmt.Errorf("storage: delete local copies of %s: %w", prefix, err)
	}
	return nil
}

// URL is the public address of key (s3://bucket/key for a private store).
func (s *S3) URL(key string) string { return s.base + key }

// KeyFromURL inverts URL.
func (s *S3) KeyFromURL(url string) (string, bool) {
	key, ok := strings.CutPrefix(url, s.base)
	if !ok || !ValidKey(key) {
		return "", false
	}
	return key, true
}

func (s *S3) cachePath(key string) string {
	return filepath.Join(s.cache, filepath.FromSlash(key))
}

// LocalPath downloads key into the cache directory, once, and returns the
// local copy, or ErrNotFound. Keys are never reused for other content, so
// a copy already there is current. The Storage interface gives it no
// context: the download runs until done or failed.
func (s *S3) LocalPath(key string) (string, error) {
	if !ValidKey(key) {
		return "", fmt.Errorf("storage: invalid key %q", key)
	}
	p := s.cachePath(key)
	now := time.Now()
	if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
		// A copy in use is kept by the pruning.
		_ = os.Chtimes(p, now, now)
		return p, nil
	}
	s.prune(now)
	// FGetObject writes beside p and renames, so a reader never sees half
	// a copy.
	if err := s.client.FGetObject(context.Background(), s.bucket, key, p, minio.GetObjectOptions{}); err != nil {
		if notFound(err) {
			return "", ErrNotFound
		}
		return "", fmt.Errorf("storage: download %s: %w", key, err)
	}
	return p, nil
}

// prune removes local copies untouched for maxAge, at most once an hour,
// so a worker's disk holds the originals it is processing, not every
// video it ever processed.
func (s *S3) prune(now time.Time) {
	s.pruneMu.Lock()
	if now.Sub(s.pruned) < time.Hour {
		s.pruneMu.Unlock()
		return
	}
	s.pruned = now
	s.pruneMu.Unlock()
	_ = filepath.WalkDir(s.cache, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if info, err := d.Info(); err == nil && now.Sub(info.ModTime()) > s.maxAge {
			_ = os.Remove(p)
		}
		return nil
	})
}

// Presign is a GET address for key valid for expiry (at most 7 days, the
// S3 limit): whoever holds it reads the object, even from a private
// bucket, until it expires.
func (s *S3) Presign(ctx context.Context, key string, expiry time.Duration) (string, error) {
	if !ValidKey(key) {
		return "", fmt.Errorf("storage: invalid key %q", key)
	}
	expiry = min(max(expiry, time.Second), 7*24*time.Hour)
	u, err := s.client.PresignedGetObject(ctx, s.bucket, key, expiry, nil)
	if err != nil {
		return "", fmt.Errorf("storage: presign %s: %w", key, err)
	}
	return u.String(), nil
}

// Origin is the scheme://host[:port] the store's presigned addresses point
// at (for the Content-Security-Policy of the pages that fetch them).
func (s *S3) Origin(ctx context.Context) (string, error) {
	u, err := s.client.PresignedGetObject(ctx, s.bucket, "origin", time.Minute, nil)
	if err != nil {
		return "", fmt.Errorf("storage: origin of %s: %w", s.bucket, err)
	}
	return u.Scheme + "://" + u.Host, nil
}

// Region is the bucket's region as the server reports it ("" from servers
// without regions), for clients that must sign for one.
func (s *S3) Region(ctx context.Context) (string, error) {
	r, err := s.client.GetBucketLocation(ctx, s.bucket)
	if err != nil {
		return "", fmt.Errorf("storage: region of %s: %w", s.bucket, err)
	}
	return r, nil
}

// Read returns key's content, or ErrNotFound, for small files read whole
// (playlists).
func (s *S3) Read(ctx context.Context, key string, limit int64) ([]byte, error) {
	if !ValidKey(key) {
		return nil, ErrNotFound
	}
	obj, err := s.client.GetObject(ctx, s.bucket, key, minio.GetObjectOptions{})
	if err != nil {
		return nil, fmt.Errorf("storage: get %s: %w", key, err)
	}
	defer obj.Close()
	b, err := io.ReadAll(io.LimitReader(obj, limit+1))
	if notFound(err) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("storage: read %s: %w", key, err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("storage: %s is larger than %d bytes", key, limit)
	}
	return b, nil
}

func notFound(err error) bool {
	switch minio.ToErrorResponse(err).Code {
	case "NoSuchKey", "NoSuchObject":
		return true
	}
	return false
}

// DiskThenRedirect serves disk's files under its prefix and, for keys not
// on disk, redirects to their URL in the store that now holds new files.
// Addresses saved as "/uploads/<key>" (in content, the media_public view,
// files stored before the switch) keep working once files go to S3: the
// browser follows the redirect to the object store, which serves the bytes,
// their type and byte ranges, and a playlist's relative segment addresses
// resolve against the object store's URL.
func DiskThenRedirect(disk *Disk, to Store) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key, ok := strings.CutPrefix(r.URL.Path, disk.prefix)
		if !ok || !ValidKey(key) {
			disk.ServeHTTP(w, r)
			return
		}
		if f, err := disk.Open(key); err == nil {
			f.Close()
			disk.ServeHTTP(w, r)
			return
		}
		// Not permanent: the public URL may move to another CDN.
		w.Header().Set("Cache-Control", "public, max-age=3600")
		http.Redirect(w, r, to.URL(key), http.StatusFound)
	})
}
