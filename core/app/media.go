package app

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/config"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/editorial"
	"github.com/vetclube/vetclube/core/media"
	"github.com/vetclube/vetclube/workflows"
)

// buildMedia wires the media library (core/media) after the content
// platform: uploads land in DataDir/media-incoming (with S3, in the private
// bucket under tus/), images and posters go
// to the public store, video originals to the private one (never served)
// with the streams and documents (served by signed address, media.Streams);
// see newStores. Videos are processed on Temporal
// when it is configured; without it an uploaded video ends in erro with a
// message saying so.
func (a *App) buildMedia(ctx context.Context, cfg config.Config, pool *pgxpool.Pool, files stores) error {
	svc, err := media.New(pool, media.Options{
		Public:      files.public,
		Private:     files.private,
		IncomingDir: filepath.Join(cfg.DataDir, "media-incoming"),
		Incoming:    files.incoming,
		Streams:     a.Streams,
		Log:         a.Log,
		UsedIn: func(ctx context.Context, assetIDs []string) (map[string][]media.Use, error) {
			// An editor reads the library like the content lists: other
			// editors' unshared items are counted, not named. Work without
			// a signed-in caller (the sweep, the seed) sees everything.
			visibleTo := ""
			if p := core.PrincipalFrom(ctx); p.Authenticated() && editorial.SeesOwnItemsOnly(p.Roles) {
				visibleTo = p.UserID
			}
			refs, err := a.Content.Store.ItemsReferencingAssets(ctx, assetIDs, visibleTo)
			out := make(map[string][]media.Use, len(refs))
			for id, rs := range refs {
				for _, r := range rs {
					out[id] = append(out[id], media.Use{Type: r.Type, ID: r.ID, Title: r.Title, Hidden: r.Hidden})
				}
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
	a.onClose(func() error { svc.Close(); return nil })
	a.Media = svc
	a.mediaUpload = upload
	var acts *workflows.MediaActivities
	if t := a.Engagement.Temporal; t != nil {
		svc.SetProcessing(workflows.MediaProcessing{Client: t})
		if cfg.TemporalWorker {
			acts = &workflows.MediaActivities{Store: svc, FFmpeg: "ffmpeg", FFprobe: "ffprobe",
				WorkDir: filepath.Join(cfg.DataDir, "media-work")}
			// Step directories a killed worker left behind go before new
			// steps start.
			sweepMediaWork(ctx, a.Log, acts)
			w := workflows.NewMediaWorker(t, acts)
			if err := w.Start(); err != nil {
				return fmt.Errorf("start media worker: %w", err)
			}
			a.onClose(func() error { w.Stop(); return nil })
		}
	}
	// Streams and documents stored before they were kept private move to
	// the private store before the server serves anything.
	if n, err := svc.MoveProtectedFiles(ctx); err != nil {
		return fmt.Errorf("media: move protected files: %w", err)
	} else if n > 0 {
		a.Log.InfoContext(ctx, "media: protected files moved to the private store", "assets", n)
	}
	// Uploads completed and processing started just before a stop are
	// carried on; a failure here only delays them to the next start.
	if err := svc.Resume(ctx); err != nil {
		a.Log.ErrorContext(ctx, "media: resume", "err", err)
	}
	sweep, stop := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() { defer close(done); keepMediaSwept(sweep, a.Log, svc, acts) }()
	a.onClose(func() error { stop(); <-done; return nil })
	return nil
}

// contentLibrary keeps the images and materials editors attach to content
// fields in the media library, so they are listed there with their usage.
type contentLibrary struct{ media *media.Service }

func (l contentLibrary) Keep(ctx context.Context, f content.LibraryFile) (string, error) {
	kind := media.KindDocument
	if f.Kind == content.KindImage {
		kind = media.KindImage
	}
	_, key, err := l.media.AddReady(ctx, media.ReadyFile{Kind: kind, Name: f.Name, ContentType: f.ContentType,
		Ext: strings.TrimPrefix(f.Ext, "."), Data: f.Data, Width: f.Width, Height: f.Height, UploadedBy: f.UploadedBy})
	return key, err
}

// mediaSweepEvery is how often abandoned uploads and a killed worker's
// leftover step directories are looked for.
const mediaSweepEvery = time.Hour

// keepMediaSwept removes, every mediaSweepEvery until ctx ends, uploads
// untouched for media.AbandonedAfter and (with a media worker in this
// process) stale step directories.
func keepMediaSwept(ctx context.Context, log *slog.Logger, svc *media.Service, acts *workflows.MediaActivities) {
	tick := time.NewTicker(mediaSweepEvery)
	defer tick.Stop()
	for {
		if n, err := svc.SweepAbandoned(ctx, media.AbandonedAfter); err != nil && ctx.Err() == nil {
			log.ErrorContext(ctx, "media: sweep abandoned uploads", "removed", n, "err", err)
		}
		if acts != nil {
			sweepMediaWork(ctx, log, acts)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

func sweepMediaWork(ctx context.Context, log *slog.Logger, acts *workflows.MediaActivities) {
	n, err := workflows.SweepMediaWorkDir(acts, workflows.MediaWorkStaleAfter)
	if err != nil {
		log.ErrorContext(ctx, "media: sweep work dir", "err", err)
	}
	if n > 0 {
		log.InfoContext(ctx, "media: leftover work dirs removed", "count", n)
	}
}
