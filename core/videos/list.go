package videos

import (
	"context"
	"math"
	"net/url"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/courses"
	"github.com/vetclube/vetclube/core/engagement"
	"github.com/vetclube/vetclube/core/search"
	"github.com/vetclube/vetclube/core/text"
)

// Filter is one list request. Empty strings and false mean no filter.
type Filter struct {
	Category  string // category id
	Search    string
	Favorites bool // only the reader's favorites
	Completed bool // only videos the reader completed
	Page      int  // 1-based
}

// PageWindow is the list's paging: page 1 holds FirstPageSize videos, page
// n ≥ 2 holds NextPageSize at offset 8+(n−2)×4.
func PageWindow(page int) (limit, offset int) {
	if page <= 1 {
		return FirstPageSize, 0
	}
	return NextPageSize, FirstPageSize + (page-2)*NextPageSize
}

func noFilter(v string) bool {
	v = strings.TrimSpace(v)
	return v == "" || strings.EqualFold(v, "todos") || strings.EqualFold(v, "todas") || strings.EqualFold(v, "all")
}

func parseBool(v string) (bool, bool) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "false", "0", "não", "nao":
		return false, true
	case "true", "1", "sim":
		return true, true
	}
	return false, false
}

// ParseFilter reads a list query string; a value it cannot use is a 422
// naming the parameter.
func ParseFilter(q url.Values) (Filter, error) {
	f := Filter{Search: strings.TrimSpace(q.Get("q")), Page: 1}
	errs := map[string]string{}
	if v := strings.TrimSpace(q.Get("category")); !noFilter(v) {
		if validUUID(v) {
			f.Category = strings.ToLower(v)
		} else {
			errs["category"] = MsgBadID
		}
	}
	for name, dst := range map[string]*bool{"favorites": &f.Favorites, "completed": &f.Completed} {
		b, ok := parseBool(q.Get(name))
		if !ok {
			errs[name] = MsgBadFlag
		}
		*dst = b
	}
	if p := strings.TrimSpace(q.Get("page")); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 100000 {
			errs["page"] = MsgBadPage
		} else {
			f.Page = n
		}
	}
	if search.TooLong(f.Search) {
		errs["q"] = MsgSearchTooLong
	}
	if len(errs) > 0 {
		return Filter{}, core.Invalid(MsgBadFilters, errs)
	}
	return f, nil
}

// Page is one list page.
type Page struct {
	Videos   []Card `json:"videos"`
	Page     int    `json:"page"`
	PageSize int    `json:"page_size"`
	HasMore  bool   `json:"has_more"`
}

// cardSelect is a card with the reader's ($1) state: counters, favorite,
// like and watched percent from core/engagement, completion from
// video_completions. An uploaded video's asset (media_public, m) stands in
// for what the editor left empty: its poster for the thumbnail, its probed
// length for the duration. Callers add WHERE, ORDER BY and LIMIT.
const cardColumns = `v.item_id, v.slug, v.title, left(v.description, 800),
	coalesce(nullif(v.thumbnail, ''), nullif(m.poster_url, ''), ''), v.youtube_url,
	cat.item_id, cat.name,
	CASE WHEN v.duration_seconds > 0 OR m.id IS NULL THEN v.duration_seconds ELSE round(m.duration_seconds)::int END,
	v.difficulty, v.instructor, v.tags, v.video_source,
	coalesce(ec.views, 0), coalesce(ec.likes, 0), v.published_at,
	ef.user_id IS NOT NULL, coalesce(er.reaction = 'like', false), vc.completed_at, coalesce(ep.percent, 0)::float8`

var cardFrom = `
FROM video_listings v
LEFT JOIN video_categories cat ON cat.item_id = v.category_id AND cat.published` +
	engagement.CountersJoinSQL("ec", "v.item_id") +
	engagement.FavoriteJoinSQL("ef", "v.item_id", "$1") +
	engagement.ReactionJoinSQL("er", "v.item_id", "$1") +
	engagement.ProgressJoinSQL("ep", "v.item_id", "$1") + `
LEFT JOIN video_completions vc ON vc.video_id = v.item_id AND vc.user_id = $1
LEFT JOIN media_public m ON m.id = v.video_asset AND v.video_source = 'upload'`

var cardSelect = `SELECT ` + cardColumns + cardFrom

func scanCard(row pgx.Row, extra ...any) (Card, error) {
	var c Card
	var desc, thumb, yt string
	var catID, catName *string
	var percent float64
	dest := append([]any{&c.ID, &c.Slug, &c.Title, &desc, &thumb, &yt, &catID, &catName, &c.DurationSeconds,
		&c.Difficulty, &c.Instructor, &c.Tags, &c.VideoSource, &c.Views, &c.Likes, &c.PublishedAt,
		&c.IsFavorite, &c.UserLiked, &c.CompletedAt, &percent}, extra...)
	if err := row.Scan(dest...); err != nil {
		return c, err
	}
	c.Description = courses.Preview(desc)
	c.Thumbnail = imageURL(thumb, yt)
	if catID != nil {
		c.Category = &Category{ID: *catID, Name: *catName}
	}
	if c.Tags == nil {
		c.Tags = []string{}
	}
	c.Duration = text.Duration(c.DurationSeconds)
	c.IsCompleted = c.CompletedAt != nil
	c.Progress = int(math.Min(100, math.Floor(percent)))
	return c, nil
}

// ListSQL is the list page's one statement and its arguments (a benchmark
// floor can run the same SQL through bare pgx). It reads one row more than
// the page to know whether another page exists.
func ListSQL(userID string, f Filter) (string, []any) {
	args := []any{userID}
	arg := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	where := []string{"v.published"}
	if f.Category != "" {
		where = append(where, "v.category_id = "+arg(f.Category)+"::uuid")
	}
	if f.Favorites {
		where = append(where, "ef.user_id IS NOT NULL")
	}
	if f.Completed {
		where = append(where, "vc.user_id IS NOT NULL")
	}
	if q := search.Parse(f.Search); q.Given() {
		where = append(where, q.SQL(arg, search.Target{Alias: "v", Table: "video_listings", Vector: "search", Title: "title", Scope: "published"}).Where)
	}
	limit, offset := PageWindow(f.Page)
	// LIMIT and OFFSET are written as numbers, not parameters: with them as
	// parameters PostgreSQL never trusts the cached generic plan of this
	// join and re-plans it on every request (planning costs ~20× running).
	sql := cardSelect + " WHERE " + strings.Join(where, " AND ") +
		" ORDER BY v.published_at DESC, v.item_id DESC LIMIT " + strconv.Itoa(limit+1) + " OFFSET " + strconv.Itoa(offset)
	return sql, args
}

// List is one page of the list for userID; cards are locked when the reader
// has no access.
func (s *Service) List(ctx context.Context, userID string, f Filter) (Page, error) {
	access, err := s.HasAccess(ctx, userID)
	if err != nil {
		return Page{}, err
	}
	if f.Page < 1 {
		f.Page = 1
	}
	limit, _ := PageWindow(f.Page)
	sql, args := ListSQL(userID, f)
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return Page{}, wrap("list", err)
	}
	cards, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Card, error) { return scanCard(r) })
	if err != nil {
		return Page{}, wrap("list", err)
	}
	p := Page{Videos: cards, Page: f.Page, PageSize: limit}
	if len(cards) > limit {
		p.Videos, p.HasMore = cards[:limit], true
	}
	for i := range p.Videos {
		p.Videos[i].Locked = !access
	}
	return p, nil
}

// Categories are the active published categories by display order.
func (s *Service) Categories(ctx context.Context) ([]Category, error) {
	rows, err := s.pool.Query(ctx, `SELECT item_id::text, name FROM video_categories
		WHERE published AND is_active ORDER BY display_order, lower(unaccent(name)), item_id`)
	if err != nil {
		return nil, wrap("categories", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Category, error) {
		var c Category
		return c, r.Scan(&c.ID, &c.Name)
	})
	if err != nil {
		return nil, wrap("categories", err)
	}
	return out, nil
}

// Statistics are the video statistics of one reader.
type Statistics struct {
	TotalVideos        int     `json:"total_videos"`
	CompletedVideos    int     `json:"completed_videos"`
	FavoriteVideos     int     `json:"favorite_videos"`
	ProgressPercentage int     `json:"progress_percentage"`
	TotalHoursContent  float64 `json:"total_hours_content"`
}

// Statistics counts over published videos only.
func (s *Service) Statistics(ctx context.Context, userID string) (Statistics, error) {
	var st Statistics
	err := s.pool.QueryRow(ctx, `SELECT count(*), count(vc.user_id), count(ef.user_id),
			round(coalesce(sum(v.duration_seconds), 0) / 3600.0, 1)::float8
		FROM video_listings v
		LEFT JOIN video_completions vc ON vc.video_id = v.item_id AND vc.user_id = $1
		`+engagement.FavoriteJoinSQL("ef", "v.item_id", "$1")+`
		WHERE v.published`, userID).Scan(&st.TotalVideos, &st.CompletedVideos, &st.FavoriteVideos, &st.TotalHoursContent)
	if err != nil {
		return st, wrap("statistics", err)
	}
	if st.TotalVideos > 0 {
		st.ProgressPercentage = 100 * st.CompletedVideos / st.TotalVideos
	}
	return st, nil
}

// Latest is the newest published video for the home card (nil when none).
func (s *Service) Latest(ctx context.Context, userID string) (*Card, error) {
	access, err := s.HasAccess(ctx, userID)
	if err != nil {
		return nil, err
	}
	c, err := scanCard(s.pool.QueryRow(ctx, cardSelect+` WHERE v.published ORDER BY v.published_at DESC, v.item_id DESC LIMIT 1`, userID))
	if err == pgx.ErrNoRows {
		return nil, nil
	}
	if err != nil {
		return nil, wrap("latest", err)
	}
	c.Locked = !access
	return &c, nil
}
