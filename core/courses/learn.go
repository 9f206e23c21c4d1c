package courses

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/engagement"
	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/points"
)

// EnrolKey and CompleteKey are the ledger idempotency keys: each award is
// paid once per course and learner, however often it is asked for.
func EnrolKey(courseID, userID string) string    { return "course-enrol:" + courseID + ":" + userID }
func CompleteKey(courseID, userID string) string { return "course-complete:" + courseID + ":" + userID }

// EnrolResult is enroll_in_course's answer.
type EnrolResult struct {
	Success       bool   `json:"success"`
	Message       string `json:"message"`
	IsEnrolled    bool   `json:"is_enrolled"`
	Progress      int    `json:"progress"`
	PointsAwarded int    `json:"points_awarded"`
}

// Enrol enrols userID in the course ('Matricular-se') and pays EnrolPoints
// once. Premium and trial users always may; anyone else within the
// subscription's courses limit, counted in the same transaction (so
// concurrent requests can neither overshoot the limit nor pay twice). An
// enrolment kept from an ended trial is counted in the limit when asked
// again, which opens its lessons again if the limit allows.
func (s *Service) Enrol(ctx context.Context, idOrSlug, userID string) (EnrolResult, error) {
	c, err := s.getCourse(ctx, idOrSlug, userID)
	if err != nil {
		return EnrolResult{}, err
	}
	open, err := s.premiumAccess(ctx, userID)
	if err != nil {
		return EnrolResult{}, err
	}
	res := EnrolResult{Success: true, IsEnrolled: true, Message: MsgEnrolled}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		// One learner's enrolments are decided one at a time: the limit
		// and the enrolment row are one decision.
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('course-enrol:' || $1::text, 0))`, userID); err != nil {
			return err
		}
		var counted bool
		err := tx.QueryRow(ctx, `SELECT counted_in_limit FROM course_enrolments WHERE course_id = $1 AND user_id = $2`, c.ID, userID).Scan(&counted)
		exists := err == nil
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		if exists && (counted || open) {
			res.Message = MsgAlreadyEnrolled
		} else {
			if !open {
				if _, err := s.subs.RecordUsageTx(ctx, tx, userID, LimitType); err != nil {
					if core.ErrorCode(err) == core.EFORBIDDEN {
						return refuse(AccessTrialLimit, MsgTrialLimit)
					}
					return err
				}
			}
			if exists {
				_, err = tx.Exec(ctx, `UPDATE course_enrolments SET counted_in_limit = true WHERE course_id = $1 AND user_id = $2`, c.ID, userID)
			} else {
				_, err = tx.Exec(ctx, `INSERT INTO course_enrolments (course_id, user_id, enrolled_at, counted_in_limit) VALUES ($1, $2, $3, $4)`,
					c.ID, userID, s.now(), !open)
			}
			if err != nil {
				return err
			}
		}
		// Paid with the enrolment; a repeated key pays nothing.
		_, created, err := points.AwardTx(ctx, tx, userID, EnrolPoints, points.KindCourse, EnrolKey(c.ID, userID),
			map[string]any{"course_id": c.ID, "course": c.Title, "reason": "enrolment"})
		if err != nil {
			return err
		}
		if created {
			res.PointsAwarded = EnrolPoints
		}
		return nil
	})
	if err != nil {
		if core.ErrorCode(err) != core.EINTERNAL {
			return EnrolResult{}, err
		}
		return EnrolResult{}, wrap("enrol", err)
	}
	// Lessons finished before enrolling (free ones) count at once: the
	// enrolment may complete the course.
	cp, err := s.settle(ctx, c.ID, userID, "", "")
	if err != nil {
		return EnrolResult{}, err
	}
	res.Progress = cp.Progress
	return res, nil
}

// FavoriteResult is toggle_course_favorite's answer.
type FavoriteResult struct {
	Success    bool   `json:"success"`
	IsFavorite bool   `json:"is_favorite"`
	Message    string `json:"message"`
}

// ToggleFavorite flips the course in userID's favorites (core/engagement).
func (s *Service) ToggleFavorite(ctx context.Context, idOrSlug, userID string) (FavoriteResult, error) {
	c, err := s.getCourse(ctx, idOrSlug, userID)
	if err != nil {
		return FavoriteResult{}, err
	}
	on, err := s.eng.ToggleFavorite(ctx, userID, c.ID)
	if err != nil {
		return FavoriteResult{}, err
	}
	msg := MsgFavoriteOff
	if on {
		msg = MsgFavoriteOn
	}
	return FavoriteResult{Success: true, IsFavorite: on, Message: msg}, nil
}

// CourseProgress is a learner's standing in a course after a lesson change.
type CourseProgress struct {
	CourseID         string       `json:"course_id"`
	Progress         int          `json:"progress"`
	IsCompleted      bool         `json:"is_completed"`
	CompletedLessons int          `json:"completed_lessons"`
	RequiredLessons  int          `json:"required_lessons"`
	JustCompleted    bool         `json:"just_completed"`
	PointsAwarded    int          `json:"points_awarded"`
	Certificate      *Certificate `json:"certificate"`
	Continue         *Continue    `json:"continue"`
}

// LessonState is the lesson's side of a progress answer.
type LessonState struct {
	ID              string             `json:"id"`
	IsCompleted     bool               `json:"is_completed"`
	PositionSeconds float64            `json:"position_seconds"`
	Percent         float64            `json:"percent"`
	Watched         []engagement.Range `json:"watched"`
}

// ProgressAnswer answers a progress report or a mark-complete.
type ProgressAnswer struct {
	Lesson LessonState    `json:"lesson"`
	Course CourseProgress `json:"course"`
}

// RecordProgress folds a player's report into the lesson's progress
// (core/engagement: merged watched ranges; a lesson with a duration
// completes when 90 % of its seconds were actually played, a text lesson
// when read to 100 %) and settles the course.
func (s *Service) RecordProgress(ctx context.Context, idOrSlug, lessonID, userID string, u engagement.ProgressUpdate) (ProgressAnswer, error) {
	c, cur, i, err := s.openLesson(ctx, idOrSlug, lessonID, userID)
	if err != nil {
		return ProgressAnswer{}, err
	}
	p, err := s.eng.RecordProgress(ctx, userID, cur[i].ID, u)
	if err != nil {
		return ProgressAnswer{}, err
	}
	how := ""
	if p.CompletedAt != nil {
		how = "watched"
		if p.DurationSeconds == 0 {
			how = "read"
		}
	}
	return s.afterLesson(ctx, c, cur[i].ID, userID, how, p)
}

// MarkComplete marks the lesson done by hand and settles the course. A
// lesson with a playable video completes only from its watched ranges (the
// rule of RecordProgress): marking it by hand before that is refused, so
// completions, the certificate and the course's VetCoins cannot be had by
// calling this on every lesson. Text lessons are marked freely.
func (s *Service) MarkComplete(ctx context.Context, idOrSlug, lessonID, userID string) (ProgressAnswer, error) {
	c, cur, i, err := s.openLesson(ctx, idOrSlug, lessonID, userID)
	if err != nil {
		return ProgressAnswer{}, err
	}
	p, err := s.eng.Progress(ctx, userID, cur[i].ID)
	if err != nil {
		return ProgressAnswer{}, err
	}
	how := "marked"
	l, err := s.lessonRow(ctx, cur[i].ID)
	if err != nil {
		return ProgressAnswer{}, err
	}
	if playable(l) {
		var done bool
		if err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM course_lesson_completions WHERE user_id = $1 AND lesson_id = $2)`,
			userID, cur[i].ID).Scan(&done); err != nil {
			return ProgressAnswer{}, wrap("lesson state", err)
		}
		switch {
		case done:
			how = "" // already complete: answer its state, change nothing
		case p.CompletedAt != nil && p.DurationSeconds > 0:
			how = "watched"
		default:
			return ProgressAnswer{}, core.Errorf(core.ECONFLICT, MsgWatchFirst)
		}
	}
	return s.afterLesson(ctx, c, cur[i].ID, userID, how, p)
}

func (s *Service) afterLesson(ctx context.Context, c course, lessonID, userID, how string, p engagement.Progress) (ProgressAnswer, error) {
	cp, err := s.settle(ctx, c.ID, userID, lessonID, how)
	if err != nil {
		return ProgressAnswer{}, err
	}
	if how != "" {
		// A lesson shared by several courses counts in each of them.
		if err := s.settleOthers(ctx, c.ID, lessonID, userID); err != nil {
			return ProgressAnswer{}, err
		}
	}
	var done bool
	if err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM course_lesson_completions WHERE user_id = $1 AND lesson_id = $2)`,
		userID, lessonID).Scan(&done); err != nil {
		return ProgressAnswer{}, wrap("lesson state", err)
	}
	st := LessonState{ID: lessonID, IsCompleted: done, PositionSeconds: p.PositionSeconds, Percent: p.Percent, Watched: p.Watched}
	if st.Watched == nil {
		st.Watched = []engagement.Range{}
	}
	if done {
		st.Percent = max(st.Percent, 100)
	}
	return ProgressAnswer{Lesson: st, Course: cp}, nil
}

// settle records a lesson completion (how "" for none) and the study
// moment, then applies the progress rule: once every published required
// lesson is completed, the enrolled learner completes the course, exactly
// once: CompletePoints, a certificate and a notification. One learner's
// changes to one course are serialised, so two lessons finished at the same
// moment still complete the course.
func (s *Service) settle(ctx context.Context, courseID, userID, lessonID, how string) (CourseProgress, error) {
	cp := CourseProgress{CourseID: courseID}
	var title string
	var certificate, notify bool
	// The learner's name is read before the transaction: inside it, under
	// the lock, a second pool connection may be unavailable.
	var learner string
	if how != "" || lessonID == "" {
		learner = s.learnerName(ctx, userID)
	}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('course-progress:' || $1::text || ':' || $2::text, 0))`,
			courseID, userID); err != nil {
			return err
		}
		now := s.now()
		if how != "" {
			if _, err := tx.Exec(ctx, `INSERT INTO course_lesson_completions (user_id, lesson_id, how, completed_at)
				VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`, userID, lessonID, how, now); err != nil {
				return err
			}
		}
		if lessonID != "" {
			if _, err := tx.Exec(ctx, `UPDATE course_enrolments SET last_lesson_id = $3, last_studied_at = $4
				WHERE course_id = $1 AND user_id = $2`, courseID, userID, lessonID, now); err != nil {
				return err
			}
		}
		var enrolled bool
		var completedAt *time.Time
		err := tx.QueryRow(ctx, `SELECT l.title, l.certificate, l.required_lessons, e.user_id IS NOT NULL, e.completed_at,
				(SELECT count(*) FROM course_curriculum cc JOIN course_lesson_completions lc
					ON lc.lesson_id = cc.lesson_id AND lc.user_id = $2 WHERE cc.course_id = l.item_id AND cc.required)
			FROM course_listings l LEFT JOIN course_enrolments e ON e.course_id = l.item_id AND e.user_id = $2
			WHERE l.item_id = $1`, courseID, userID).
			Scan(&title, &certificate, &cp.RequiredLessons, &enrolled, &completedAt, &cp.CompletedLessons)
		if err != nil {
			return err
		}
		switch {
		case completedAt != nil:
			cp.Progress, cp.IsCompleted = 100, true
		case enrolled && cp.RequiredLessons > 0:
			cp.Progress = 100 * cp.CompletedLessons / cp.RequiredLessons
		}
		if !enrolled || completedAt != nil || cp.RequiredLessons == 0 || cp.CompletedLessons < cp.RequiredLessons {
			return nil
		}
		// The learner finishes now: the row's null completed_at is the
		// once-only switch.
		tag, err := tx.Exec(ctx, `UPDATE course_enrolments SET completed_at = $3 WHERE course_id = $1 AND user_id = $2 AND completed_at IS NULL`,
			courseID, userID, now)
		if err != nil || tag.RowsAffected() == 0 {
			return err
		}
		cp.Progress, cp.IsCompleted, cp.JustCompleted, notify = 100, true, true, true
		_, created, err := points.AwardTx(ctx, tx, userID, CompletePoints, points.KindCourse, CompleteKey(courseID, userID),
			map[string]any{"course_id": courseID, "course": title, "reason": "completion"})
		if err != nil {
			return err
		}
		if created {
			cp.PointsAwarded = CompletePoints
		}
		if certificate {
			if learner == "" {
				learner = s.learnerName(ctx, userID)
			}
			return s.issueTx(ctx, tx, courseID, userID, learner, now)
		}
		return nil
	})
	if err != nil {
		return cp, wrap("settle progress", err)
	}
	if cp.IsCompleted {
		cert, err := s.certificateOf(ctx, courseID, userID)
		if err != nil {
			return cp, err
		}
		cp.Certificate = cert
	} else {
		cur, err := s.curriculum(ctx, courseID, userID)
		if err != nil {
			return cp, err
		}
		cp.Continue = continueTarget(cur)
	}
	if notify && s.notify != nil {
		msg := fmt.Sprintf(MsgCompletedNoCert, title, CompletePoints)
		link := "/cursos/" + courseID
		if cp.Certificate != nil {
			msg = fmt.Sprintf(MsgCompletedText, title, CompletePoints)
			link = certificatePrefix + cp.Certificate.Code
		}
		// Told after the commit; a lost notice never undoes the completion.
		if _, err := s.notify.Send(ctx, notifications.Notice{UserID: userID, Type: NotificationType, Title: MsgCompletedTitle,
			Message: msg, Link: link, Data: map[string]string{"course_id": courseID},
			IdempotencyKey: CompleteKey(courseID, userID)}); err != nil {
			s.log.Warn("courses: completion notice not sent", "course", courseID, "user", userID, "err", err)
		}
	}
	return cp, nil
}

// settleOthers settles the learner's other unfinished courses that hold lessonID.
func (s *Service) settleOthers(ctx context.Context, courseID, lessonID, userID string) error {
	rows, err := s.pool.Query(ctx, `SELECT cc.course_id FROM course_curriculum cc
		JOIN course_enrolments e ON e.course_id = cc.course_id AND e.user_id = $2 AND e.completed_at IS NULL
		WHERE cc.lesson_id = $1 AND cc.course_id <> $3`, lessonID, userID, courseID)
	if err != nil {
		return wrap("courses of lesson", err)
	}
	others, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return wrap("courses of lesson", err)
	}
	for _, id := range others {
		if _, err := s.settle(ctx, id, userID, "", ""); err != nil {
			return err
		}
	}
	return nil
}

// CompletedLessons counts the lessons userID completed (marked, watched or
// read to the end) in [from, to): what a study-streak challenge measures.
func (s *Service) CompletedLessons(ctx context.Context, userID string, from, to time.Time) (int, error) {
	var n int
	err := s.pool.QueryRow(ctx, `SELECT count(*) FROM course_lesson_completions
		WHERE user_id = $1 AND completed_at >= $2 AND completed_at < $3`, userID, from, to).Scan(&n)
	if err != nil {
		return 0, wrap("count completed lessons", err)
	}
	return n, nil
}
