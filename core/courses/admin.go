package courses

import (
	"context"
	"math"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core"
)

// DropOff is one lesson of the curriculum in the backoffice statistics.
type DropOff struct {
	LessonID    string `json:"lesson_id"`
	Title       string `json:"title"`
	ModuleTitle string `json:"module_title"`
	Order       int    `json:"order"`
	Required    bool   `json:"required"`
	// Reached is how many enrolled learners completed this lesson.
	Reached int `json:"reached"`
	// Stopped is how many enrolled learners who have not finished the
	// course have this as their first unfinished required lesson: where
	// they stand still.
	Stopped int `json:"stopped"`
}

// Stats are a course's backoffice figures.
type Stats struct {
	CourseID        string    `json:"course_id"`
	Title           string    `json:"title"`
	Enrolments      int       `json:"enrolments"`
	Completions     int       `json:"completions"`
	CompletionRate  float64   `json:"completion_rate"`
	AverageProgress float64   `json:"average_progress"`
	DropOff         []DropOff `json:"drop_off"`
}

// learnersCTE is every enrolled learner of course $1 with their progress
// and the position of their first unfinished required lesson.
const learnersCTE = `WITH req AS (
	SELECT lesson_id, position FROM course_curriculum WHERE course_id = $1 AND required
), learners AS (
	SELECT e.user_id, e.completed_at,
		CASE WHEN e.completed_at IS NOT NULL THEN 100
			WHEN (SELECT count(*) FROM req) = 0 THEN 0
			ELSE 100 * (SELECT count(*) FROM req JOIN course_lesson_completions lc
				ON lc.lesson_id = req.lesson_id AND lc.user_id = e.user_id) / (SELECT count(*) FROM req) END AS progress,
		(SELECT min(req.position) FROM req WHERE NOT EXISTS (SELECT 1 FROM course_lesson_completions lc
			WHERE lc.user_id = e.user_id AND lc.lesson_id = req.lesson_id)) AS stuck_at
	FROM course_enrolments e WHERE e.course_id = $1
)`

// CourseStats returns the backoffice statistics of course id (every course
// ever published, online or not).
func (s *Service) CourseStats(ctx context.Context, id string) (Stats, error) {
	if !validUUID(id) {
		return Stats{}, core.Errorf(core.ENOTFOUND, MsgCourseNotFound)
	}
	st := Stats{CourseID: id, DropOff: []DropOff{}}
	var avg float64
	err := s.pool.QueryRow(ctx, learnersCTE+`
		SELECT l.title, (SELECT count(*) FROM learners), (SELECT count(completed_at) FROM learners),
			(SELECT coalesce(avg(progress), 0)::float8 FROM learners)
		FROM course_listings l WHERE l.item_id = $1`, id).Scan(&st.Title, &st.Enrolments, &st.Completions, &avg)
	if err == pgx.ErrNoRows {
		return st, core.Errorf(core.ENOTFOUND, MsgCourseNotFound)
	}
	if err != nil {
		return st, wrap("course stats", err)
	}
	st.AverageProgress = math.Round(avg*10) / 10
	if st.Enrolments > 0 {
		st.CompletionRate = math.Round(1000*float64(st.Completions)/float64(st.Enrolments)) / 10
	}
	rows, err := s.pool.Query(ctx, learnersCTE+`
		SELECT cc.lesson_id, l.title, m.title, cc.position, cc.required,
			(SELECT count(*) FROM learners x JOIN course_lesson_completions lc ON lc.user_id = x.user_id AND lc.lesson_id = cc.lesson_id),
			(SELECT count(*) FROM learners x WHERE x.completed_at IS NULL AND x.stuck_at = cc.position)
		FROM course_curriculum cc
		JOIN course_lessons l ON l.item_id = cc.lesson_id
		JOIN course_modules m ON m.item_id = cc.module_id
		WHERE cc.course_id = $1 ORDER BY cc.position`, id)
	if err != nil {
		return st, wrap("course drop-off", err)
	}
	st.DropOff, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (DropOff, error) {
		var d DropOff
		return d, r.Scan(&d.LessonID, &d.Title, &d.ModuleTitle, &d.Order, &d.Required, &d.Reached, &d.Stopped)
	})
	return st, wrap("course drop-off", err)
}
