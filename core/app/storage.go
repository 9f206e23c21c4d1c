package app

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"

	"github.com/vetclube/vetclube/core/config"
	"github.com/vetclube/vetclube/core/media"
	"github.com/vetclube/vetclube/core/storage"
)

// stores are where uploaded files live.
type stores struct {
	// disk is DATA_DIR/uploads, always served under /uploads/ (files
	// stored there before S3 was configured stay reachable).
	disk *storage.Disk
	// public holds avatars, pictures and the media library's images and
	// posters; private the video originals, never served, and the
	// protected media (streams, documents), served by signed address.
	public, private media.Storage
	// streamsOrigin is where the private store's presigned addresses
	// point (S3), "" on disk.
	streamsOrigin string
	// incoming keeps the media library's uploads in progress: nil keeps
	// them on disk; with S3, in the private bucket.
	incoming media.Incoming
}

// handler serves /uploads/: the disk, and with S3 a redirect to the
// object store for keys not on disk.
func (st stores) handler() http.Handler {
	if st.public == media.Storage(st.disk) {
		return st.disk
	}
	return storage.DiskThenRedirect(st.disk, st.public)
}

// newStores keeps files on local disk under DATA_DIR, or in S3 when
// S3_BUCKET is set.
func newStores(ctx context.Context, cfg config.Config) (stores, error) {
	disk, err := storage.NewDisk(filepath.Join(cfg.DataDir, "uploads"), "/uploads/")
	if err != nil {
		return stores{}, err
	}
	if !cfg.S3() {
		originals, err := storage.NewDisk(filepath.Join(cfg.DataDir, "media-originals"), "/media-originals/")
		if err != nil {
			return stores{}, err
		}
		return stores{disk: disk, public: disk, private: originals}, nil
	}
	opts := storage.S3Options{Endpoint: cfg.S3Endpoint, Region: cfg.S3Region, AccessKeyID: cfg.S3AccessKeyID,
		SecretAccessKey: cfg.S3SecretAccessKey, UseSSL: cfg.S3UseSSL}
	pub, priv := opts, opts
	pub.Bucket, pub.PublicURL, pub.CacheDir = cfg.S3Bucket, cfg.S3PublicURL, filepath.Join(cfg.S3CacheDir, "public")
	priv.Bucket, priv.CacheDir = cfg.S3PrivateBucket, filepath.Join(cfg.S3CacheDir, "private")
	public, err := storage.NewS3(ctx, pub)
	if err != nil {
		return stores{}, fmt.Errorf("S3_BUCKET: %w", err)
	}
	private, err := storage.NewS3(ctx, priv)
	if err != nil {
		return stores{}, fmt.Errorf("S3_PRIVATE_BUCKET: %w", err)
	}
	origin, err := private.Origin(ctx)
	if err != nil {
		return stores{}, fmt.Errorf("S3_PRIVATE_BUCKET: %w", err)
	}
	region := cfg.S3Region
	if region == "" {
		if region, err = private.Region(ctx); err != nil {
			return stores{}, fmt.Errorf("S3_PRIVATE_BUCKET: %w", err)
		}
	}
	// Resumable uploads live beside the video originals, under tus/, so
	// any instance resumes an upload begun on another; the directory only
	// buffers parts and holds a complete upload while it is checked.
	incoming, err := media.NewS3Incoming(media.S3IncomingOptions{Endpoint: cfg.S3Endpoint, UseSSL: cfg.S3UseSSL, Region: region,
		Bucket: cfg.S3PrivateBucket, Prefix: "tus/", AccessKeyID: cfg.S3AccessKeyID, SecretAccessKey: cfg.S3SecretAccessKey,
		Dir: filepath.Join(cfg.DataDir, "media-incoming")})
	if err != nil {
		return stores{}, fmt.Errorf("S3_PRIVATE_BUCKET: %w", err)
	}
	return stores{disk: disk, public: public, private: private, streamsOrigin: origin, incoming: incoming}, nil
}
