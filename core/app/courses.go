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
		Base:          a.videoContentBase(),
		Subscriptions: a.Engagement.Subscriptions,
		Notify:        a.Engagement.Notifications,
		Profiles:      a.Profiles,
	})
	// Courses, modules and lessons are read and engaged with through
	// /api/cursos only: it applies enrolment, access and awards.
	for _, typ := range []string{courses.TypeCourse, courses.TypeModule, courses.TypeLesson} {
		a.Content.Registry.ServeOwnAPI(typ)
	}
	a.Content.Gates.AddGate(courses.TypeCourse, a.Courses.PublishGate)
}

// videoContentBase is what the courses and the exclusive videos are built on
// alike: the content platform's engagement and clock, the log, and the
// media library's signed stream addresses.
func (a *App) videoContentBase() courses.Base {
	return courses.Base{Engagement: a.Content.Engagement, Now: a.Content.Now, Log: a.Log, StreamURL: a.Streams.MediaURL}
}
