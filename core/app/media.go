package app

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/config"
	"github.com/vetclube/vetclube/core/media"
	"github.com/vetclube/vetclube/core/storage"
	"github.com/vetclube/vetclube/workflows"
)

// buildMedia wires the media library (core/media) after the content
// platform: uploads land in DataDir/media-incoming, images, PDFs and
// streams go to the public uploads store, video originals to
// DataDir/media-originals (never served). Videos are processed on Temporal
// when it is configured; without it an uploaded video ends in erro with a
// message saying so.
func (a *App) buildMedia(ctx context.Context, cfg config.Config, pool *pgxpool.Pool, uploads *storage.Disk) error {
	originals, err := storage.NewDisk(filepath.Join(cfg.DataDir, "media-originals"), "/media-originals/")
	if err != nil {
		return err
	}
	svc, err := media.New(pool, media.Options{
		Public:      uploads,
		Private:     originals,
		IncomingDir: filepath.Join(cfg.DataDir, "media-incoming"),
		Log:         a.Log,
		UsedIn: func(ctx context.Context, assetID string) ([]media.Use, error) {
			refs, err := a.Content.Store.ItemsReferencingAsset(ctx, assetID)
			out := make([]media.Use, 0, len(refs))
			for _, r := range refs {
				out = append(out, media.Use{Type: r.Type, ID: r.ID, Title: r.Title})
			}
			return out, err
		},
	})
	if err != nil {
		return err
	}
	upload, err := svc.UploadHandler()
	if err != nil {
		return err
	}
	a.Media = svc
	a.mediaUpload = upload
	if t := a.Engagement.Temporal; t != nil {
		svc.SetProcessing(workflows.MediaProcessing{Client: t})
		if cfg.TemporalWorker {
			w := workflows.NewMediaWorker(t, &workflows.MediaActivities{Store: svc, FFmpeg: "ffmpeg", FFprobe: "ffprobe",
				WorkDir: filepath.Join(cfg.DataDir, "media-work")})
			if err := w.Start(); err != nil {
				return fmt.Errorf("start media worker: %w", err)
			}
			a.onClose(func() error { w.Stop(); return nil })
		}
	}
	// Uploads completed and processing started just before a stop are
	// carried on; a failure here only delays them to the next start.
	if err := svc.Resume(ctx); err != nil {
		a.Log.ErrorContext(ctx, "media: resume", "err", err)
	}
	return nil
}
