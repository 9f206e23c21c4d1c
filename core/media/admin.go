package media

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core"
)

// MsgDeleteProcessing refuses deleting a video while it is processed.
const MsgDeleteProcessing = "Aguarde o processamento terminar para excluir este vídeo."

// ProcessingStuckAfter is how long a video may stay processando without
// any write (a running transcode records its progress every second, and
// every other step ends or fails within minutes) before it counts as
// stuck, its workflow gone: such a video may be deleted or retried, or it
// could never leave the library.
const ProcessingStuckAfter = 24 * time.Hour

// Query is one page of the library.
type Query struct {
	// Search matches the original file name (case and accents ignored).
	Search string
	Kind   Kind
	State  State
	// UploadID finds the asset of one of the caller's own uploads.
	UploadID string
	// Sort is "created_at" (default), "original_name", "size_bytes" or
	// "updated_at"; Ascending flips the default newest-first order.
	Sort          string
	Ascending     bool
	Offset, Limit int
}

// SortFields are the fields the library may be sorted by.
var SortFields = []string{"created_at", "updated_at", "original_name", "size_bytes", "state", "kind"}

// List returns a page of assets, each with the items using it, and the
// count of every match.
func (s *Service) List(ctx context.Context, q Query) ([]Asset, int64, error) {
	var where []string
	var args []any
	arg := func(v any) string { args = append(args, v); return fmt.Sprintf("$%d", len(args)) }
	if t := strings.TrimSpace(q.Search); t != "" {
		where = append(where, "unaccent(original_name) ILIKE '%' || unaccent("+arg(likeEscape(t))+") || '%'")
	}
	if q.Kind != "" {
		where = append(where, "kind = "+arg(string(q.Kind)))
	}
	if q.State != "" {
		where = append(where, "state = "+arg(string(q.State)))
	}
	if q.UploadID != "" {
		// Only the uploader finds an asset by its upload (resuming after a
		// reload); the name is a secret of theirs.
		where = append(where, "upload_id = "+arg(q.UploadID)+" AND uploaded_by = nullif("+arg(core.PrincipalFrom(ctx).UserID)+", '')::uuid")
	}
	cond := ""
	if len(where) > 0 {
		cond = " WHERE " + strings.Join(where, " AND ")
	}
	var total int64
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM media_assets`+cond, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("media: count: %w", err)
	}
	sort := "created_at"
	for _, f := range SortFields {
		if q.Sort == f {
			sort = f
		}
	}
	dir := " DESC"
	if q.Ascending {
		dir = " ASC"
	}
	limit := q.Limit
	if limit <= 0 {
		limit = 25
	}
	rows, err := s.pool.Query(ctx, `SELECT `+assetColumns+` FROM media_assets`+cond+
		` ORDER BY `+sort+dir+`, id`+dir+` LIMIT `+arg(limit)+` OFFSET `+arg(max(0, q.Offset)), args...)
	if err != nil {
		return nil, 0, fmt.Errorf("media: list: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Asset, error) { return s.scanAsset(r) })
	if err != nil {
		return nil, 0, fmt.Errorf("media: list: %w", err)
	}
	ids := make([]string, len(list))
	for i := range list {
		ids[i] = list[i].ID
	}
	uses, err := s.usesOf(ctx, ids)
	if err != nil {
		return nil, 0, err
	}
	reader := core.PrincipalFrom(ctx).UserID
	for i := range list {
		list[i].UsedIn = uses[list[i].ID]
		s.signFor(&list[i], reader)
	}
	return list, total, nil
}

func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// Get returns one asset with the items using it.
func (s *Service) Get(ctx context.Context, id string) (Asset, error) {
	a, err := s.asset(ctx, id)
	if err != nil {
		return a, err
	}
	s.signFor(&a, core.PrincipalFrom(ctx).UserID)
	a.UsedIn, err = s.uses(ctx, id)
	return a, err
}

func (s *Service) uses(ctx context.Context, id string) ([]Use, error) {
	u, err := s.usesOf(ctx, []string{id})
	if err != nil {
		return nil, err
	}
	return u[id], nil
}

// usesOf is the items using each of ids, an empty list (never nil) for
// an unused one.
func (s *Service) usesOf(ctx context.Context, ids []string) (map[string][]Use, error) {
	var found map[string][]Use
	if s.usedIn != nil && len(ids) > 0 {
		var err error
		if found, err = s.usedIn(ctx, ids); err != nil {
			return nil, fmt.Errorf("media: usage of %d assets: %w", len(ids), err)
		}
	}
	out := make(map[string][]Use, len(ids))
	for _, id := range ids {
		out[id] = found[id]
		if out[id] == nil {
			out[id] = []Use{}
		}
	}
	return out, nil
}

// Retry starts a new processing attempt of a video in erro whose original
// was kept; anything else is ECONFLICT.
func (s *Service) Retry(ctx context.Context, id string) (Asset, error) {
	a, err := s.asset(ctx, id)
	if err != nil {
		return a, err
	}
	stuck := a.State == StateProcessing && time.Since(a.UpdatedAt) >= ProcessingStuckAfter
	if a.State != StateFailed && !stuck {
		return a, core.Errorf(core.ECONFLICT, MsgRetryNotFailed)
	}
	if a.Kind != KindVideo || a.originalKey == "" {
		return a, core.Errorf(core.ECONFLICT, MsgRetryNoSource)
	}
	var attempt int
	err = s.pool.QueryRow(ctx, `UPDATE media_assets SET state = 'processando', error = '', attempt = attempt + 1,
		progress = (SELECT COALESCE(jsonb_object_agg(r, 100), '{}'::jsonb) FROM unnest(done_renditions) AS r),
		progress_percent = media_overall_percent((SELECT COALESCE(jsonb_object_agg(r, 100), '{}'::jsonb) FROM unnest(done_renditions) AS r), least(width, height)),
		updated_at = now()
		WHERE id = $1 AND (state = 'erro' OR (state = 'processando' AND updated_at < now() - make_interval(secs => $2)))
		RETURNING attempt`, id, ProcessingStuckAfter.Seconds()).Scan(&attempt)
	if errors.Is(err, pgx.ErrNoRows) {
		return a, core.Errorf(core.ECONFLICT, MsgRetryNotFailed)
	}
	if err != nil {
		return a, fmt.Errorf("media: retry %s: %w", id, err)
	}
	s.start(ctx, id, attempt)
	return s.Get(ctx, id)
}

// Delete removes an asset and its files, unless a content item (draft or
// published) still references it (ECONFLICT naming the items) or its video
// is being processed (ECONFLICT: the running workflow would meet a missing
// asset and files removed under ffmpeg; it ends in pronto or erro, and
// then the asset may go), unless that processing is stuck. Staff delete
// their own uploads; another person's only reviewers and super admins may
// (EFORBIDDEN). Every deletion is written to media_events with who made it.
func (s *Service) Delete(ctx context.Context, id string) error {
	a, err := s.asset(ctx, id)
	if err != nil {
		return err
	}
	p := core.PrincipalFrom(ctx)
	if !mayDelete(p, a) {
		return core.Errorf(core.EFORBIDDEN, MsgDeleteOthers)
	}
	used, err := s.uses(ctx, id)
	if err != nil {
		return err
	}
	if len(used) > 0 {
		return core.Errorf(core.ECONFLICT, MsgInUse, usageText(used))
	}
	if a.State == StateProcessing && time.Since(a.UpdatedAt) < ProcessingStuckAfter {
		return core.Errorf(core.ECONFLICT, MsgDeleteProcessing)
	}
	// The state is checked again in the delete: a retry that started
	// meanwhile keeps its asset. The audit entry commits with the delete.
	tag, err := s.pool.Exec(ctx, `WITH gone AS (
			DELETE FROM media_assets
			WHERE id = $1 AND (state <> 'processando' OR updated_at < now() - make_interval(secs => $2))
			RETURNING id, kind, original_name, uploaded_by)
		INSERT INTO media_events (asset_id, action, actor_id, kind, original_name, uploaded_by)
		SELECT id, 'excluido', nullif($3, '')::uuid, kind, original_name, uploaded_by FROM gone`,
		id, ProcessingStuckAfter.Seconds(), p.UserID)
	if err != nil {
		return fmt.Errorf("media: delete %s: %w", id, err)
	}
	s.log.InfoContext(ctx, "media: asset deleted", "asset", id, "name", a.OriginalName, "actor", p.UserID)
	if tag.RowsAffected() == 0 {
		if _, err := s.asset(ctx, id); err != nil {
			return err
		}
		return core.Errorf(core.ECONFLICT, MsgDeleteProcessing)
	}
	// The row is gone first: a file left behind by a failure below is
	// unreachable garbage, never a broken asset.
	s.removeIncoming(ctx, a.UploadID)
	for _, st := range []Storage{s.public, s.private} {
		if err := st.DeletePrefix(ctx, "media/"+id); err != nil {
			s.log.WarnContext(ctx, "media: delete files", "asset", id, "err", err)
		}
	}
	return nil
}

// usageText names the items using an asset, and counts those the reader
// may not see: "Suturas básicas, 2 itens de outras pessoas".
func usageText(used []Use) string {
	var parts []string
	hidden := 0
	for _, u := range used {
		if u.Hidden {
			hidden++
			continue
		}
		parts = append(parts, u.Title)
	}
	switch {
	case hidden == 1:
		parts = append(parts, "1 item de outra pessoa")
	case hidden > 1:
		parts = append(parts, fmt.Sprintf("%d itens de outras pessoas", hidden))
	}
	return strings.Join(parts, ", ")
}

// mayDelete reports whether p may delete a: their own upload, or anyone's
// for reviewers and super admins. Work with no signed-in caller is the
// server's own.
func mayDelete(p core.Principal, a Asset) bool {
	if !p.Authenticated() {
		return true
	}
	if a.UploadedBy != nil && *a.UploadedBy == p.UserID {
		return true
	}
	return p.HasRole(core.RoleSuperAdmin) || p.HasRole(roleReviewer)
}

// roleReviewer is the backoffice role that reviews and publishes content.
const roleReviewer = "revisor"

// Cancel stops the processing of a video in processando: the asset goes to
// erro at once with MsgProcessingCancelled (the original is kept, so a
// retry starts over), the cancellation is written to media_events, and the
// running attempt's workflow is cancelled, which stops its ffmpeg. Staff
// cancel their own uploads; another person's only reviewers and super
// admins may (EFORBIDDEN). Anything but a video in processando is
// ECONFLICT.
func (s *Service) Cancel(ctx context.Context, id string) (Asset, error) {
	a, err := s.asset(ctx, id)
	if err != nil {
		return a, err
	}
	p := core.PrincipalFrom(ctx)
	if !mayDelete(p, a) {
		return a, core.Errorf(core.EFORBIDDEN, MsgCancelOthers)
	}
	if a.Kind != KindVideo || a.State != StateProcessing {
		return a, core.Errorf(core.ECONFLICT, MsgCancelNotBusy)
	}
	var attempt int
	err = s.pool.QueryRow(ctx, `WITH stopped AS (
			UPDATE media_assets SET state = 'erro', error = $2, updated_at = now()
			WHERE id = $1 AND state = 'processando'
			RETURNING id, kind, original_name, uploaded_by, attempt),
		logged AS (
			INSERT INTO media_events (asset_id, action, actor_id, kind, original_name, uploaded_by)
			SELECT id, 'processamento_cancelado', nullif($3, '')::uuid, kind, original_name, uploaded_by FROM stopped)
		SELECT attempt FROM stopped`, id, MsgProcessingCancelled, p.UserID).Scan(&attempt)
	if errors.Is(err, pgx.ErrNoRows) {
		return a, core.Errorf(core.ECONFLICT, MsgCancelNotBusy)
	}
	if err != nil {
		return a, fmt.Errorf("media: cancel %s: %w", id, err)
	}
	s.log.InfoContext(ctx, "media: processing cancelled", "asset", id, "attempt", attempt, "actor", p.UserID)
	if s.proc != nil {
		// The asset is in erro whatever happens here: a workflow that could
		// not be reached finds it so and can no longer make it pronto.
		if err := s.proc.Cancel(context.WithoutCancel(ctx), id, attempt); err != nil {
			s.log.ErrorContext(ctx, "media: cancel processing workflow", "asset", id, "attempt", attempt, "err", err)
		}
	}
	return s.Get(ctx, id)
}
