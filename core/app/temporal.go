package app

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/config"
	"github.com/vetclube/vetclube/workflows"
)

// withTemporal starts the embedded Temporal dev server (TEMPORAL_DEV_BIN,
// data under DATA_DIR/temporal) when TEMPORAL_ADDRESS is empty, and points
// cfg at it for fn. A missing binary is not fatal: the app then runs without
// workflows (see buildEngagement).
func withTemporal(ctx context.Context, cfg config.Config, log *slog.Logger, fn func(config.Config) error) error {
	if cfg.TemporalAddress != "" {
		return fn(cfg)
	}
	dev, err := workflows.StartDevServer(ctx, cfg.TemporalDevBin, filepath.Join(cfg.DataDir, "temporal", "temporal.sqlite"), log)
	if err != nil {
		log.Warn("embedded Temporal dev server unavailable; running without workflows", "err", err)
		return fn(cfg)
	}
	defer func() {
		if err := dev.Stop(); err != nil {
			log.Warn("stop temporal dev server", "err", err)
		}
	}()
	cfg.TemporalAddress = dev.Addr
	return fn(cfg)
}

// runWorker is `vetclube worker`: only the workflow worker, for running
// workers apart from the HTTP servers in production.
func runWorker(ctx context.Context, cfg config.Config, log *slog.Logger) error {
	if cfg.TemporalAddress == "" {
		return fmt.Errorf("worker: TEMPORAL_ADDRESS is required")
	}
	cfg.TemporalWorker = true
	return withDatabase(ctx, cfg, log, func(pool *pgxpool.Pool) error {
		a, err := Build(ctx, cfg, pool, log)
		if err != nil {
			return err
		}
		defer a.Close()
		log.Info("workflow worker running", "temporal", cfg.TemporalAddress, "task_queue", workflows.TaskQueue)
		<-ctx.Done()
		return nil
	})
}
