package jobs

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core/lgpd"
)

// Export is a member's jobs data (LGPD): saved jobs, applications with
// their history, saved searches, and the jobs they were assigned to as a
// recruiter.
type Export struct {
	SavedJobs    []Job         `json:"vagas_salvas"`
	Applications []Application `json:"candidaturas"`
	Searches     []SavedSearch `json:"buscas_salvas"`
	RecruiterOf  []string      `json:"recrutador_das_vagas"`
}

// ExportUserData answers userID's jobs data.
func (s *Service) ExportUserData(ctx context.Context, userID string) (any, error) {
	var out Export
	var err error
	if out.SavedJobs, err = s.Saved(ctx, userID); err != nil {
		return nil, err
	}
	if out.Applications, err = s.Mine(ctx, userID); err != nil {
		return nil, err
	}
	if out.Searches, err = s.Searches(ctx, userID); err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, `SELECT l.title FROM job_recruiters r JOIN job_listings l ON l.item_id = r.item_id WHERE r.user_id = $1`, userID)
	if err != nil {
		return nil, fmt.Errorf("export recruiter jobs: %w", err)
	}
	if out.RecruiterOf, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
		return nil, fmt.Errorf("export recruiter jobs: %w", err)
	}
	return out, nil
}

// ExportFiles answers userID's CVs sent with applications.
func (s *Service) ExportFiles(ctx context.Context, userID string) ([]lgpd.File, error) {
	if s.files == nil {
		return nil, nil
	}
	rows, err := s.pool.Query(ctx, `SELECT a.cv_key, a.cv_name, l.slug FROM job_applications a JOIN job_listings l ON l.item_id = a.item_id
		WHERE a.user_id = $1 AND a.cv_key IS NOT NULL`, userID)
	if err != nil {
		return nil, fmt.Errorf("export cvs: %w", err)
	}
	type cv struct{ key, name, slug string }
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (cv, error) {
		var c cv
		err := r.Scan(&c.key, &c.name, &c.slug)
		return c, err
	})
	if err != nil {
		return nil, fmt.Errorf("export cvs: %w", err)
	}
	var out []lgpd.File
	for _, c := range list {
		data, err := s.files.Get(ctx, c.key)
		if err != nil {
			continue // a file missing from the store is left out
		}
		out = append(out, lgpd.File{Name: "candidaturas/" + c.slug + "-" + c.name, Data: data})
	}
	return out, nil
}

// EraseUserData deletes userID's CVs from the store and every jobs row of
// theirs (applications and their history, saved jobs, saved searches,
// recruiter assignments). Idempotent: a second run finds nothing.
func (s *Service) EraseUserData(ctx context.Context, userID string) (int64, error) {
	var n int64
	if s.files != nil {
		rows, err := s.pool.Query(ctx, `SELECT cv_key FROM job_applications WHERE user_id = $1 AND cv_key IS NOT NULL`, userID)
		if err != nil {
			return 0, fmt.Errorf("erase cvs: %w", err)
		}
		keys, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return 0, fmt.Errorf("erase cvs: %w", err)
		}
		for _, k := range keys {
			if err := s.files.Delete(ctx, k); err != nil {
				return n, fmt.Errorf("erase cv: %w", err)
			}
			n++
		}
	}
	for _, q := range []string{
		`DELETE FROM job_applications WHERE user_id = $1`,
		`DELETE FROM saved_jobs WHERE user_id = $1`,
		`DELETE FROM job_saved_searches WHERE user_id = $1`,
		`DELETE FROM job_recruiters WHERE user_id = $1`,
	} {
		tag, err := s.pool.Exec(ctx, q, userID)
		if err != nil {
			return n, fmt.Errorf("erase jobs data: %w", err)
		}
		n += tag.RowsAffected()
	}
	return n, nil
}
