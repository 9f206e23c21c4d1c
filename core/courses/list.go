package courses

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/engagement"
	"github.com/vetclube/vetclube/core/points"
	"github.com/vetclube/vetclube/core/search"
)

// Status filters of the catalogue.
const (
	StatusAll       = "todos"
	StatusEnrolled  = "enrolled"
	StatusCompleted = "completed"
	StatusFavorites = "favorites"
)

// Sorts of the catalogue.
const (
	SortPopular = "popular"
	SortNewest  = "newest"
	SortRating  = "rating"
	SortTitle   = "title"
)

// Filter is one catalogue request. Empty strings mean no filter.
type Filter struct {
	Category   string // category id
	Level      string
	Instructor string // instructor id
	Status     string // StatusAll, StatusEnrolled, StatusCompleted, StatusFavorites
	Search     string
	Sort       string
	Page       int // 1-based
}

// noFilter is the filters' 'Todos' (or nothing at all).
func noFilter(v string) bool {
	v = strings.TrimSpace(v)
	return v == "" || strings.EqualFold(v, "todos") || strings.EqualFold(v, "todas") || strings.EqualFold(v, "all")
}

// ParseFilter reads a catalogue query string; a value it cannot use is a
// 422 naming the parameter.
func ParseFilter(q url.Values) (Filter, error) {
	f := Filter{Level: strings.TrimSpace(q.Get("level")), Search: strings.TrimSpace(q.Get("q")), Status: StatusAll, Sort: SortPopular, Page: 1}
	errs := map[string]string{}
	for name, dst := range map[string]*string{"category": &f.Category, "instructor": &f.Instructor} {
		v := strings.TrimSpace(q.Get(name))
		if noFilter(v) {
			continue
		}
		if !validUUID(v) {
			errs[name] = MsgBadID
			continue
		}
		*dst = strings.ToLower(v)
	}
	if noFilter(f.Level) {
		f.Level = ""
	}
	switch s := strings.ToLower(strings.TrimSpace(q.Get("status"))); s {
	case "", "todos", "all":
	case StatusEnrolled, "matriculados":
		f.Status = StatusEnrolled
	case StatusCompleted, "concluidos", "concluídos":
		f.Status = StatusCompleted
	case StatusFavorites, "favoritos":
		f.Status = StatusFavorites
	default:
		errs["status"] = MsgBadStatus
	}
	switch s := strings.ToLower(strings.TrimSpace(q.Get("sort"))); s {
	case "", SortPopular:
	case SortNewest, SortRating, SortTitle:
		f.Sort = s
	default:
		errs["sort"] = MsgBadSort
	}
	if p := strings.TrimSpace(q.Get("page")); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 10000 {
			errs["page"] = MsgBadPage
		} else {
			f.Page = n
		}
	}
	if search.TooLong(f.Search) {
		errs["q"] = MsgSearchTooLong
	}
	if len(errs) > 0 {
		return Filter{}, core.Invalid("Filtros inválidos.", errs)
	}
	return f, nil
}

// Page is one catalogue page.
type Page struct {
	Courses  []Card `json:"courses"`
	Page     int    `json:"page"`
	PageSize int    `json:"page_size"`
	HasMore  bool   `json:"has_more"`
}

// progressExpr is the reader's progress in course l (alias l, enrolment e,
// reader $1): 100 once completed (completion is never taken back), else the
// share of the published required lessons completed, 0 when not enrolled.
const progressExpr = `CASE WHEN e.completed_at IS NOT NULL THEN 100
	WHEN e.user_id IS NULL OR l.required_lessons = 0 THEN 0
	ELSE (100 * (SELECT count(*) FROM course_curriculum cc
		JOIN course_lesson_completions lc ON lc.lesson_id = cc.lesson_id AND lc.user_id = $1
		WHERE cc.course_id = l.item_id AND cc.required) / l.required_lessons)::int END`

// cardColumns and cardFrom are the catalogue card with the reader's ($1)
// state.
const cardColumns = `l.item_id, l.slug, l.title, left(l.description, 800), l.thumbnail,
	cat.item_id, cat.name, ins.item_id, ins.name, ins.avatar, ins.professional_title,
	l.level, l.duration, l.duration_minutes, l.price::float8, l.original_price::float8, l.rating::float8, l.total_ratings,
	l.students, l.tags, l.published_at,
	e.user_id IS NOT NULL, e.completed_at IS NOT NULL, f.user_id IS NOT NULL, ` + progressExpr

var cardFrom = `
FROM course_listings l
LEFT JOIN course_categories cat ON cat.item_id = l.category_id AND cat.published
LEFT JOIN course_instructors ins ON ins.item_id = l.instructor_id AND ins.published
LEFT JOIN course_enrolments e ON e.course_id = l.item_id AND e.user_id = $1` +
	engagement.FavoriteJoinSQL("f", "l.item_id", "$1")

// cardSelect is the catalogue card with the reader's ($1) state; callers add
// WHERE, ORDER BY and LIMIT.
var cardSelect = `SELECT ` + cardColumns + cardFrom

func scanCard(row pgx.Row, extra ...any) (Card, error) {
	var c Card
	var thumb, desc string
	var catID, catName, insID, insName, insAvatar, insTitle *string
	dest := append([]any{&c.ID, &c.Slug, &c.Title, &desc, &thumb, &catID, &catName, &insID, &insName, &insAvatar, &insTitle,
		&c.Level, &c.Duration, &c.DurationMin, &c.Price, &c.OriginalPrice, &c.Rating, &c.TotalRatings, &c.Students, &c.Tags,
		&c.PublishedAt, &c.IsEnrolled, &c.IsCompleted, &c.IsFavorite, &c.Progress}, extra...)
	if err := row.Scan(dest...); err != nil {
		return c, err
	}
	c.Description = Preview(desc)
	c.Thumbnail = UploadURL(thumb)
	if catID != nil {
		c.Category = &Category{ID: *catID, Name: *catName}
	}
	if insID != nil {
		c.Instructor = &Instructor{ID: *insID, Name: *insName, Avatar: UploadURL(*insAvatar)}
		if *insTitle != "" {
			c.Instructor.Title = insTitle
		}
	}
	if c.Tags == nil {
		c.Tags = []string{}
	}
	return c, nil
}

// ListSQL is the catalogue page's one statement and its arguments (the
// benchmark floor runs the same SQL through bare pgx).
func ListSQL(userID string, f Filter) (string, []any) {
	args := []any{userID}
	arg := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	where := []string{"l.published"}
	if f.Category != "" {
		where = append(where, "l.category_id = "+arg(f.Category)+"::uuid")
	}
	if f.Level != "" {
		where = append(where, "l.level = "+arg(f.Level))
	}
	if f.Instructor != "" {
		where = append(where, "l.instructor_id = "+arg(f.Instructor)+"::uuid")
	}
	switch f.Status {
	case StatusEnrolled:
		where = append(where, "e.user_id IS NOT NULL")
	case StatusCompleted:
		where = append(where, "e.completed_at IS NOT NULL")
	case StatusFavorites:
		where = append(where, "f.user_id IS NOT NULL")
	}
	if q := search.Parse(f.Search); q.Given() {
		where = append(where, q.SQL(arg, search.Target{Alias: "l", Table: "course_listings", Vector: "search", Title: "title", Scope: "published"}).Where)
	}
	var order string
	switch f.Sort {
	case SortNewest:
		order = "l.published_at DESC, l.item_id DESC"
	case SortRating:
		order = "l.rating DESC, l.total_ratings DESC, l.item_id"
	case SortTitle:
		order = "l.sort_title, l.item_id"
	default:
		order = "l.students DESC, l.published_at DESC, l.item_id"
	}
	page := max(f.Page, 1)
	// One more than a page says whether another page exists.
	sql := cardSelect + " WHERE " + strings.Join(where, " AND ") + " ORDER BY " + order +
		// numbers, not parameters, so the cached generic plan is used
		// (with parameters PostgreSQL re-plans this join on every request)
		" LIMIT " + strconv.Itoa(PageSize+1) + " OFFSET " + strconv.Itoa((page-1)*PageSize)
	return sql, args
}

// List returns one catalogue page for userID, in one query.
func (s *Service) List(ctx context.Context, userID string, f Filter) (Page, error) {
	sql, args := ListSQL(userID, f)
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return Page{}, wrap("list", err)
	}
	cards, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Card, error) { return scanCard(r) })
	if err != nil {
		return Page{}, wrap("list", err)
	}
	p := Page{Courses: cards, Page: max(f.Page, 1), PageSize: PageSize}
	if len(cards) > PageSize {
		p.Courses, p.HasMore = cards[:PageSize], true
	}
	return p, nil
}

// Filters are the catalogue's filter options.
type Filters struct {
	Categories  []Category `json:"categories"`
	Instructors []Category `json:"instructors"`
	Levels      []string   `json:"levels"`
}

// FilterOptions lists active categories by display order, instructors by
// name and the levels published courses use.
func (s *Service) FilterOptions(ctx context.Context) (Filters, error) {
	out := Filters{Categories: []Category{}, Instructors: []Category{}, Levels: []string{}}
	named := func(sql string) ([]Category, error) {
		rows, err := s.pool.Query(ctx, sql)
		if err != nil {
			return nil, err
		}
		return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Category, error) {
			var c Category
			return c, r.Scan(&c.ID, &c.Name)
		})
	}
	var err error
	if out.Categories, err = named(`SELECT item_id, name FROM course_categories WHERE published AND is_active
		ORDER BY display_order, lower(unaccent(name)), item_id`); err != nil {
		return out, wrap("categories", err)
	}
	if out.Instructors, err = named(`SELECT item_id, name FROM course_instructors WHERE published
		ORDER BY lower(unaccent(name)), item_id`); err != nil {
		return out, wrap("instructors", err)
	}
	rows, err := s.pool.Query(ctx, `SELECT DISTINCT level FROM course_listings WHERE published AND level <> ''
		ORDER BY 1`)
	if err != nil {
		return out, wrap("levels", err)
	}
	if out.Levels, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
		return out, wrap("levels", err)
	}
	order := map[string]int{"Iniciante": 1, "Intermediário": 2, "Avançado": 3}
	sortByKnown(out.Levels, order)
	return out, nil
}

func sortByKnown(xs []string, order map[string]int) {
	rank := func(s string) int {
		if r, ok := order[s]; ok {
			return r
		}
		return len(order) + 1
	}
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && rank(xs[j]) < rank(xs[j-1]); j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}

// Statistics is the learner's statistics strip (get_user_course_statistics).
type Statistics struct {
	EnrolledCourses  int `json:"enrolled_courses"`
	CompletedCourses int `json:"completed_courses"`
	FavoriteCourses  int `json:"favorite_courses"`
	TotalPoints      int `json:"total_points"`
	AverageProgress  int `json:"average_progress"`
	CompletedHours   int `json:"completed_hours"`
}

// Statistics returns userID's course statistics. Completed hours are the
// number before 'h' in each completed course's duration.
func (s *Service) Statistics(ctx context.Context, userID string) (Statistics, error) {
	var st Statistics
	err := s.pool.QueryRow(ctx, `
WITH mine AS (
	SELECT l.duration, e.completed_at IS NOT NULL AS done, `+progressExpr+` AS progress
	FROM course_enrolments e JOIN course_listings l ON l.item_id = e.course_id AND l.published
	WHERE e.user_id = $1
)
SELECT (SELECT count(*) FROM mine), (SELECT count(*) FROM mine WHERE done),
	(SELECT count(*) FROM `+engagement.FavoritesSQL("f")+` JOIN course_listings l ON l.item_id = f.item_id AND l.published WHERE f.user_id = $1),
	`+points.SumSQL("$1", points.KindCourse)+`,
	(SELECT coalesce(round(avg(progress)), 0) FROM mine),
	(SELECT coalesce(sum(substring(duration FROM '^([0-9]+)h')::int), 0) FROM mine WHERE progress = 100)`, userID).
		Scan(&st.EnrolledCourses, &st.CompletedCourses, &st.FavoriteCourses, &st.TotalPoints, &st.AverageProgress, &st.CompletedHours)
	return st, wrap("statistics", err)
}

// LastCourse is the home card: the course last studied, with where to go on.
type LastCourse struct {
	Card
	Continue      *Continue  `json:"continue"`
	LastStudiedAt *time.Time `json:"last_studied_at"`
}

// Last returns the unfinished course userID studied (or enrolled in) most
// recently, or nil.
func (s *Service) Last(ctx context.Context, userID string) (*LastCourse, error) {
	var lc LastCourse
	c, err := scanCard(s.pool.QueryRow(ctx, `SELECT `+cardColumns+`, e.last_studied_at`+cardFrom+` WHERE l.published AND e.user_id IS NOT NULL AND e.completed_at IS NULL
		ORDER BY coalesce(e.last_studied_at, e.enrolled_at) DESC, l.item_id LIMIT 1`, userID), &lc.LastStudiedAt)
	if err == pgx.ErrNoRows {
		return nil, nil
	}
	if err != nil {
		return nil, wrap("last course", err)
	}
	lc.Card = c
	cur, err := s.curriculum(ctx, c.ID, userID)
	if err != nil {
		return nil, err
	}
	lc.Continue = continueTarget(cur)
	return &lc, nil
}
