package courses

import (
	"context"

	"github.com/vetclube/vetclube/core/lgpd"
)

// ExportUserData is the member's course enrolments, completed lessons and
// certificates.
func (s *Service) ExportUserData(ctx context.Context, userID string) (any, error) {
	out := map[string]any{}
	for name, table := range map[string]string{
		"matriculas": "course_enrolments", "aulas_concluidas": "course_lesson_completions", "certificados": "course_certificates",
	} {
		rows, err := lgpd.Rows(ctx, s.pool, `SELECT to_jsonb(t) FROM `+table+` t WHERE t.user_id = $1`, userID)
		if err != nil {
			return nil, err
		}
		out[name] = rows
	}
	return out, nil
}
