package media

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core"
)

// AbandonedAfter is how long an upload may go untouched before the sweep
// removes it: long enough for staff to resume an upload the next day's
// morning after losing the network, short enough that half-sent 4 GiB
// files do not pile up in the incoming folder.
const AbandonedAfter = 24 * time.Hour

// SweepAbandoned removes uploads left in enviando whose last activity (the
// asset's updated_at and the tus files' modification times, which every
// PATCH chunk moves) is older than olderThan: the asset row and its tus
// files (the data file and its .info). A slow upload still receiving
// chunks is kept however old it is. An upload whose bytes all arrived but
// whose asset was never moved on (the server failed while finishing it) is
// finished instead: the staff member's file is never thrown away. Files in
// the incoming folder that belong to no asset are removed once as old. It
// returns how many assets were removed.
func (s *Service) SweepAbandoned(ctx context.Context, olderThan time.Duration) (int, error) {
	cutoff := time.Now().Add(-olderThan)
	// One instance sweeps at a time; the others skip this round.
	run, ok, err := startSweepRun(ctx, s.pool)
	if err != nil || !ok {
		return 0, err
	}
	defer run.end()
	rows, err := s.pool.Query(ctx, `SELECT id, upload_id FROM media_assets
		WHERE state = 'enviando' AND updated_at < now() - make_interval(secs => $1)`, olderThan.Seconds())
	if err != nil {
		return 0, fmt.Errorf("media: sweep: %w", err)
	}
	type stale struct{ id, upload string }
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (stale, error) {
		var st stale
		return st, r.Scan(&st.id, &st.upload)
	})
	if err != nil {
		return 0, fmt.Errorf("media: sweep: %w", err)
	}
	removed := 0
	var errs []error
	for _, st := range list {
		gone, err := s.sweepUpload(ctx, st.id, st.upload, cutoff)
		if err != nil {
			errs = append(errs, err)
		}
		if gone {
			removed++
		}
	}
	if err := s.sweepOrphanFiles(ctx, cutoff); err != nil {
		errs = append(errs, err)
	}
	return removed, errors.Join(errs...)
}

// sweepUpload removes one stale enviando asset unless its tus files were
// touched after cutoff, a PATCH is running on it, or its bytes are complete
// (then it is finished).
func (s *Service) sweepUpload(ctx context.Context, id, uploadID string, cutoff time.Time) (bool, error) {
	hold, ok, err := holdForSweep(ctx, s.pool, uploadID)
	if err != nil || !ok {
		return false, err // !ok: a tus request runs on it right now, on some instance
	}
	defer hold.release()
	latest, ok, err := s.in.Touched(ctx, uploadID)
	if err != nil {
		return false, fmt.Errorf("media: sweep %s: %w", id, err)
	}
	if ok && latest.After(cutoff) {
		return false, nil // chunks still arrive: a slow upload, not an abandoned one
	}
	complete := false
	if up, err := s.in.Upload(ctx, uploadID); err == nil {
		info, err := up.GetInfo(ctx)
		complete = err == nil && !info.SizeIsDeferred && info.Offset == info.Size
	} else {
		// No tus record: the bytes may already have been moved into
		// storage by a finish that stopped before its update.
		complete = true
	}
	if complete {
		_, err := s.finish(ctx, uploadID)
		switch {
		case err == nil, core.ErrorCode(err) == core.EINVALID:
			return false, nil // moved on (processando, pronto, or erro for bad bytes)
		case core.ErrorCode(err) != core.ENOTFOUND:
			return false, fmt.Errorf("media: sweep finish %s: %w", id, err)
		}
		// Neither incoming nor stored (or the asset is gone): nothing to keep.
	}
	// The state and age are checked again in the delete: an upload that
	// moved on meanwhile is left alone.
	tag, err := s.pool.Exec(ctx, `DELETE FROM media_assets WHERE id = $1 AND state = 'enviando' AND updated_at < $2`, id, cutoff)
	if err != nil {
		return false, fmt.Errorf("media: sweep %s: %w", id, err)
	}
	if tag.RowsAffected() == 0 {
		return false, nil
	}
	s.removeIncoming(ctx, uploadID)
	for _, st := range []Storage{s.public, s.private} {
		if err := st.DeletePrefix(ctx, "media/"+id); err != nil {
			s.log.WarnContext(ctx, "media: sweep files", "asset", id, "err", err)
		}
	}
	s.log.InfoContext(ctx, "media: abandoned upload removed", "asset", id, "upload", uploadID)
	return true, nil
}

// sweepOrphanFiles removes incoming uploads idle since cutoff whose upload
// has no asset in enviando (a row deleted while tus still held its files).
func (s *Service) sweepOrphanFiles(ctx context.Context, cutoff time.Time) error {
	ids, err := s.in.Idle(ctx, cutoff)
	if err != nil {
		return fmt.Errorf("media: sweep incoming: %w", err)
	}
	if len(ids) == 0 {
		return nil
	}
	rows, err := s.pool.Query(ctx, `SELECT upload_id FROM media_assets WHERE state = 'enviando' AND upload_id = ANY($1)`, ids)
	if err != nil {
		return fmt.Errorf("media: sweep incoming: %w", err)
	}
	live, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return fmt.Errorf("media: sweep incoming: %w", err)
	}
	keep := make(map[string]bool, len(live))
	for _, id := range live {
		keep[id] = true
	}
	for _, id := range ids {
		if !keep[id] {
			s.removeIncoming(ctx, id)
		}
	}
	return nil
}
