package app

import (
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/courses"
)

// buildCourses wires the courses (core/courses) after the content platform:
// lessons are read only through the courses API (their videos are for those
// with access), and publishing a course passes the core's curriculum gate
// after the cursos plugin's own hook.
func (a *App) buildCourses(pool *pgxpool.Pool) {
	a.Courses = courses.New(pool, courses.Options{
		Engagement:    a.Content.Engagement,
		Subscriptions: a.Engagement.Subscriptions,
		Notify:        a.Engagement.Notifications,
		Profiles:      a.Profiles,
		Now:           a.Content.Now,
		Log:           a.Log,
		StreamURL:     a.Streams.MediaURL,
	})
	// Courses, modules and lessons are read and engaged with through
	// /api/cursos only: it applies enrolment, access and awards.
	for _, typ := range []string{courses.TypeCourse, courses.TypeModule, courses.TypeLesson} {
		a.Content.Registry.ServeOwnAPI(typ)
	}
	a.Content.Gates.AddGate(courses.TypeCourse, a.Courses.PublishGate)
}
