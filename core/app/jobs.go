package app

import (
	"bytes"
	"context"
	"os"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/jobs"
	"github.com/vetclube/vetclube/core/media"
)

// jobSyncEvery is how often queued job changes (closing timers, alerts)
// are handed on.
const jobSyncEvery = time.Second

// buildJobs wires Oportunidades (core/jobs) after the content platform:
// CVs live in the private store, and a job's closing day becomes its
// unpublish moment on the content platform's publication timer.
func (a *App) buildJobs(ctx context.Context, pool *pgxpool.Pool, private media.Storage) {
	a.Jobs = jobs.New(pool, jobs.Options{
		Notify: a.Engagement.Notifications, Profiles: a.Profiles, Files: privateFiles{private},
		Closer: jobs.EditorialCloser(a.Content.Store, a.Content.Workflow, a.Content.Now), Now: a.Content.Now, Log: a.Log,
	})
	// Members read jobs through /api/vagas (their saved and applied flags,
	// only open jobs); the generic public reads are not needed.
	a.Content.Registry.ServeOwnAPI(jobs.TypeID)
	keep, stop := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() { defer close(done); a.Jobs.KeepSynced(keep, jobSyncEvery) }()
	a.onClose(func() error { stop(); <-done; return nil })
}

// privateFiles is the private store as core/jobs uses it.
type privateFiles struct{ s media.Storage }

func (p privateFiles) Put(ctx context.Context, key, contentType string, body []byte) error {
	return p.s.Put(ctx, key, contentType, bytes.NewReader(body))
}

func (p privateFiles) Get(_ context.Context, key string) ([]byte, error) {
	path, err := p.s.LocalPath(key)
	if err != nil {
		return nil, err
	}
	return os.ReadFile(path)
}

func (p privateFiles) Delete(ctx context.Context, key string) error { return p.s.Delete(ctx, key) }
