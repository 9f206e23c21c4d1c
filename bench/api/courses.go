package api

import (
	"context"
	"net/http"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/courses"
)

// The course catalogue row: GET /api/cursos for a signed-in learner with a
// level filter and the popular sort (a page of 20 with the reader's progress
// and favorites), on Courses published courses and CourseEnrolments
// enrolments. The real server loads the real cursos plugin (the types'
// declarations); the plugin is never called on a read.
//
// The floor runs the statement core/courses builds for the page
// (courses.ListSQL), so both sides run the same SQL text, and scans the same
// columns into the same JSON types.

const (
	coursesPath = "/api/cursos"
	cursos      = "cursos"
	cursosPkg   = "github.com/vetclube/vetclube/plugins/cursos"
	// coursesQuery is the row's filters and sort.
	coursesQuery = "?level=Intermedi%C3%A1rio&status=todos&sort=popular"
)

// seedCourses inserts n published courses straight into the read model the
// publishing trigger fills (course_listings, with categories, instructors
// and a shared five-lesson curriculum), and enrolments enrolments spread
// over the readers: every reader is enrolled in the five most popular
// intermediate courses (one of them completed) and in others round robin,
// has finished two of the five lessons and favorites two courses, so every
// first page carries the reader's progress and favorites.
func seedCourses(t testing.TB, ctx context.Context, pool *pgxpool.Pool, n, enrolments int, readers []benchUser) {
	t.Helper()
	ids := make([]string, len(readers))
	for i, u := range readers {
		ids[i] = u.id
	}
	perReader := max(5, (enrolments+len(readers)-1)/len(readers))
	stmts := []struct {
		sql  string
		args []any
	}{
		// Items: 5 categories, 20 instructors, 5 lessons, 1 module, n courses.
		{`INSERT INTO content_items (type, status, slug, title, published_at)
		SELECT t.type, 'publicado', t.type || '-' || g, t.label || ' ' || g, now()
		FROM (VALUES ('cursos-categorias', 'Categoria', 5), ('cursos-instrutores', 'Dra. Instrutora', 20),
			('cursos-aulas', 'Aula', 5), ('cursos-modulos', 'Módulo', 1)) t (type, label, k), generate_series(1, t.k) g`, nil},
		{`INSERT INTO course_categories (item_id, name, display_order)
		SELECT id, title, row_number() OVER (ORDER BY slug) FROM content_items WHERE type = 'cursos-categorias'`, nil},
		{`INSERT INTO course_instructors (item_id, name, professional_title)
		SELECT id, title, 'Médica veterinária' FROM content_items WHERE type = 'cursos-instrutores'`, nil},
		{`INSERT INTO course_lessons (item_id, slug, title, duration_seconds, video_source, youtube_url)
		SELECT id, slug, title, 1200, 'youtube', 'https://www.youtube.com/watch?v=aqz-KE-bpKQ' FROM content_items WHERE type = 'cursos-aulas'`, nil},
		{`INSERT INTO course_modules (item_id, title, lesson_ids)
		SELECT id, title, ARRAY(SELECT id FROM content_items WHERE type = 'cursos-aulas' ORDER BY slug) FROM content_items WHERE type = 'cursos-modulos'`, nil},
		{`INSERT INTO content_items (type, status, slug, title, published_at)
		SELECT 'cursos', 'publicado', 'curso-' || g, 'Curso ' || g || (ARRAY[' de cirurgia de tecidos moles', ' de clínica de felinos',
			' de dermatologia', ' de emergência', ' de gestão de clínicas'])[g % 5 + 1], now() - g * interval '1 minute'
		FROM generate_series(1, $1::int) g`, []any{n}},
		{`INSERT INTO course_listings (item_id, slug, title, sort_title, summary, description, thumbnail, category_id, instructor_id,
			level, rating, total_ratings, tags, duration, duration_minutes, module_ids, lessons_count, required_lessons, search,
			published_at, revision)
		SELECT c.id, c.slug, c.title, lower(unaccent(c.title)), 'Resumo do ' || c.title,
			repeat('Um curso prático para médicos veterinários, com casos reais e material de apoio. ', 4), 'capas/' || c.slug || '.webp',
			(SELECT id FROM content_items WHERE type = 'cursos-categorias' ORDER BY slug OFFSET g % 5 LIMIT 1),
			(SELECT id FROM content_items WHERE type = 'cursos-instrutores' ORDER BY slug OFFSET g % 20 LIMIT 1),
			(ARRAY['Iniciante', 'Intermediário', 'Avançado'])[g % 3 + 1], (g % 50) / 10.0, g % 300, ARRAY['tag' || g % 10],
			'1h40', 100, ARRAY(SELECT id FROM content_items WHERE type = 'cursos-modulos'), 5, 5,
			setweight(to_tsvector('vetclube_pt', c.title), 'A'), c.published_at, 1
		FROM (SELECT id, slug, title, published_at, substring(slug FROM 7)::int AS g FROM content_items WHERE type = 'cursos') c`, nil},
		{`INSERT INTO course_curriculum (course_id, lesson_id, module_id, position, module_position, lesson_position, required)
		SELECT l.item_id, x.lid, m.item_id, x.ord, 1, x.ord, true
		FROM course_listings l, course_modules m, unnest(m.lesson_ids) WITH ORDINALITY x (lid, ord)`, nil},
		// The five hits are intermediate (g % 3 = 1): every reader's first page holds them.
		{`INSERT INTO course_enrolments (course_id, user_id, enrolled_at, completed_at)
		SELECT l.item_id, u.id, now() - interval '1 day', CASE WHEN h.k = 1 THEN now() END
		FROM unnest($1::uuid[]) u (id) CROSS JOIN generate_series(1, 5) h (k)
		JOIN course_listings l ON l.slug = 'curso-' || (h.k * 3 + 1)`, []any{ids}},
		{`INSERT INTO course_enrolments (course_id, user_id, enrolled_at)
		SELECT l.item_id, u.id, now() - interval '1 day'
		FROM unnest($1::uuid[]) WITH ORDINALITY u (id, r) CROSS JOIN generate_series(1, $2::int) j
		JOIN course_listings l ON l.slug = 'curso-' || ((u.r * 7919 + j * 104729) % $3::int + 1)
		ON CONFLICT DO NOTHING`, []any{ids, perReader - 5, n}},
		{`INSERT INTO course_lesson_completions (user_id, lesson_id, how)
		SELECT u, l.id, 'watched' FROM unnest($1::uuid[]) u,
			(SELECT id FROM content_items WHERE type = 'cursos-aulas' ORDER BY slug LIMIT 2) l`, []any{ids}},
		{`INSERT INTO engagement_favorites (item_id, user_id)
		SELECT l.item_id, u FROM unnest($1::uuid[]) u, course_listings l WHERE l.slug IN ('curso-7', 'curso-10')`, []any{ids}},
	}
	for _, st := range stmts {
		if _, err := pool.Exec(ctx, st.sql, st.args...); err != nil {
			t.Fatalf("bench-api: seed courses: %v", err)
		}
	}
}

// coursesFloorPage is the real answer's shape (courses.Page).
type coursesFloorPage struct {
	Courses  []courses.Card `json:"courses"`
	Page     int            `json:"page"`
	PageSize int            `json:"page_size"`
	HasMore  bool           `json:"has_more"`
}

func (f *floor) courseList(w http.ResponseWriter, r *http.Request, userID string) error {
	filter, err := courses.ParseFilter(r.URL.Query())
	if err != nil {
		return err
	}
	sql, args := courses.ListSQL(userID, filter)
	rows, err := f.pool.Query(r.Context(), sql, args...)
	if err != nil {
		return err
	}
	cards, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (courses.Card, error) {
		var c courses.Card
		var thumb, desc string
		var catID, catName, insID, insName, insAvatar, insTitle *string
		if err := row.Scan(&c.ID, &c.Slug, &c.Title, &desc, &thumb, &catID, &catName, &insID, &insName, &insAvatar, &insTitle,
			&c.Level, &c.Duration, &c.DurationMin, &c.Price, &c.OriginalPrice, &c.Rating, &c.TotalRatings, &c.Students, &c.Tags,
			&c.PublishedAt, &c.IsEnrolled, &c.IsCompleted, &c.IsFavorite, &c.Progress); err != nil {
			return c, err
		}
		c.Description = courses.Preview(desc)
		if thumb != "" {
			u := "/uploads/" + thumb
			c.Thumbnail = &u
		}
		if catID != nil {
			c.Category = &courses.Category{ID: *catID, Name: *catName}
		}
		if insID != nil {
			c.Instructor = &courses.Instructor{ID: *insID, Name: *insName}
			if *insAvatar != "" {
				a := "/uploads/" + *insAvatar
				c.Instructor.Avatar = &a
			}
			if *insTitle != "" {
				c.Instructor.Title = insTitle
			}
		}
		return c, nil
	})
	if err != nil {
		return err
	}
	page := coursesFloorPage{Courses: cards, Page: filter.Page, PageSize: courses.PageSize}
	if len(cards) > courses.PageSize {
		page.Courses, page.HasMore = cards[:courses.PageSize], true
	}
	return writeJSON(w, http.StatusOK, page)
}
