package jobs

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/postgres"
)

// SavedSearch is a member's saved filters; Alerts announces newly
// published jobs that match.
type SavedSearch struct {
	ID string `json:"id"`
	Filter
	Alerts    bool      `json:"alerts"`
	CreatedAt time.Time `json:"created_at"`
}

const searchColumns = `id::text, q, state, city, area, contract, workplace, salary_given, alerts, created_at`

func scanSearch(r pgx.Row) (SavedSearch, error) {
	var x SavedSearch
	err := r.Scan(&x.ID, &x.Q, &x.State, &x.City, &x.Area, &x.Contract, &x.Workplace, &x.SalaryGiven, &x.Alerts, &x.CreatedAt)
	return x, err
}

// Searches lists userID's saved searches, oldest first.
func (s *Service) Searches(ctx context.Context, userID string) ([]SavedSearch, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+searchColumns+` FROM job_saved_searches WHERE user_id = $1 ORDER BY created_at, id`, userID)
	if err != nil {
		return nil, fmt.Errorf("saved searches: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (SavedSearch, error) { return scanSearch(r) })
	if err != nil {
		return nil, fmt.Errorf("saved searches: %w", err)
	}
	if list == nil {
		list = []SavedSearch{}
	}
	return list, nil
}

// SaveSearch keeps f for userID (at most MaxSavedSearches, under a lock per
// member so concurrent saves never pass it).
func (s *Service) SaveSearch(ctx context.Context, userID string, f Filter, alerts bool) (SavedSearch, error) {
	f.Q, f.City = strings.TrimSpace(f.Q), strings.TrimSpace(f.City)
	if err := f.Check(); err != nil {
		return SavedSearch{}, err
	}
	if f.empty() {
		return SavedSearch{}, core.Invalid(MsgEmptySearch, nil)
	}
	var out SavedSearch
	err := postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('job-searches:' || $1))`, userID); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM job_saved_searches WHERE user_id = $1`, userID).Scan(&n); err != nil {
			return err
		}
		if n >= MaxSavedSearches {
			return core.Errorf(core.ECONFLICT, "%s", MsgTooManySearches)
		}
		var err error
		out, err = scanSearch(tx.QueryRow(ctx, `INSERT INTO job_saved_searches (user_id, q, state, city, area, contract, workplace, salary_given, alerts)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING `+searchColumns,
			userID, f.Q, f.State, f.City, f.Area, f.Contract, f.Workplace, f.SalaryGiven, alerts))
		return err
	})
	if err != nil {
		if core.ErrorCode(err) != "" {
			return SavedSearch{}, err
		}
		return SavedSearch{}, fmt.Errorf("save search: %w", err)
	}
	return out, nil
}

// SetAlerts turns the alerts of userID's saved search id on or off.
func (s *Service) SetAlerts(ctx context.Context, userID, id string, on bool) (SavedSearch, error) {
	if !validID(id) {
		return SavedSearch{}, core.Errorf(core.ENOTFOUND, "%s", MsgSearchNotFound)
	}
	x, err := scanSearch(s.pool.QueryRow(ctx, `UPDATE job_saved_searches SET alerts = $3 WHERE id = $1 AND user_id = $2 RETURNING `+searchColumns,
		id, userID, on))
	if errors.Is(err, pgx.ErrNoRows) {
		return SavedSearch{}, core.Errorf(core.ENOTFOUND, "%s", MsgSearchNotFound)
	}
	if err != nil {
		return SavedSearch{}, fmt.Errorf("set alerts: %w", err)
	}
	return x, nil
}

// DeleteSearch drops userID's saved search id.
func (s *Service) DeleteSearch(ctx context.Context, userID, id string) error {
	if !validID(id) {
		return core.Errorf(core.ENOTFOUND, "%s", MsgSearchNotFound)
	}
	tag, err := s.pool.Exec(ctx, `DELETE FROM job_saved_searches WHERE id = $1 AND user_id = $2`, id, userID)
	if err != nil {
		return fmt.Errorf("delete search: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return core.Errorf(core.ENOTFOUND, "%s", MsgSearchNotFound)
	}
	return nil
}

// alert tells every member with a saved search (alerts on, saved before
// the job was first published) that job itemID matches it. Each search
// and job is announced once (the notification's idempotency key), so a job
// edited and republished is not announced again; the notifications
// service holds push during the member's quiet hours.
func (s *Service) alert(ctx context.Context, itemID string) (int, error) {
	if s.notify == nil {
		return 0, nil
	}
	var title, org, city, state, slug string
	var first time.Time
	err := s.pool.QueryRow(ctx, `SELECT title, organization, city, state, slug, first_published_at FROM job_listings
		WHERE item_id = $1 AND published`, itemID).Scan(&title, &org, &city, &state, &slug, &first)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read job for alerts: %w", err)
	}
	rows, err := s.pool.Query(ctx, `SELECT `+searchColumns+`, user_id::text FROM job_saved_searches
		WHERE alerts AND created_at <= $1 ORDER BY created_at LIMIT 100000`, first)
	if err != nil {
		return 0, fmt.Errorf("read saved searches: %w", err)
	}
	type hit struct {
		search SavedSearch
		user   string
	}
	all, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (hit, error) {
		var h hit
		x := &h.search
		err := r.Scan(&x.ID, &x.Q, &x.State, &x.City, &x.Area, &x.Contract, &x.Workplace, &x.SalaryGiven, &x.Alerts, &x.CreatedAt, &h.user)
		return h, err
	})
	if err != nil {
		return 0, fmt.Errorf("read saved searches: %w", err)
	}
	sent := 0
	for _, h := range all {
		// The search's own SQL decides the match, so an alert finds what
		// the member's list would.
		args := []any{itemID}
		var ok bool
		if err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM job_listings l WHERE l.item_id = $1 AND l.published AND `+
			h.search.where(&args)+`)`, args...).Scan(&ok); err != nil {
			return sent, fmt.Errorf("match saved search: %w", err)
		}
		if !ok {
			continue
		}
		if _, err := s.notify.Send(ctx, notifications.Notice{UserID: h.user, Type: NotificationType,
			Title:   "Nova vaga para a sua busca",
			Message: truncate(fmt.Sprintf("%s — %s, %s/%s", title, org, city, state), 300), Link: Link(slug),
			Data:           map[string]string{"job_id": itemID, "search_id": h.search.ID},
			IdempotencyKey: "job-alert:" + h.search.ID + ":" + itemID}); err != nil {
			return sent, fmt.Errorf("send job alert: %w", err)
		}
		sent++
	}
	return sent, nil
}
