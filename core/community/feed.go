package community

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/vetclube/vetclube/core/connections"
	"github.com/vetclube/vetclube/core/engagement"
	"github.com/vetclube/vetclube/core/postgres"
)

// Feed tabs.
const (
	TabAll         = "todos"
	TabConnections = "conexoes"
)

// Page sizes of the feed.
const (
	DefaultLimit = 20
	MaxLimit     = 50
)

// Messages about a feed request.
const (
	MsgBadTab    = "Aba inválida. Use todos ou conexoes."
	MsgBadCursor = "Cursor inválido. Recarregue o feed."
	MsgBadLimit  = "Use um limite de 1 a 50."
	MsgBadAuthor = "Autor inválido."
)

// FeedQuery is one page of the feed as reader asks for it.
type FeedQuery struct {
	Reader string
	// Tab is TabAll (default) or TabConnections (the reader's connections
	// and the reader).
	Tab string
	// Author keeps one member's posts (a profile page); "" for everyone.
	Author string
	// Cursor is the previous page's NextCursor ("" for the first page).
	Cursor string
	Limit  int
}

// FeedPage is one page, newest first; NextCursor is null on the last.
type FeedPage struct {
	Items      []Post  `json:"items"`
	NextCursor *string `json:"next_cursor"`
}

// cursor is the keyset position after a page's last post.
type cursor struct {
	at time.Time
	id string
}

func encodeCursor(c cursor) string {
	return base64.RawURLEncoding.EncodeToString([]byte(c.at.UTC().Format(time.RFC3339Nano) + "|" + c.id))
}

func decodeCursor(s string) (cursor, error) {
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return cursor{}, invalid("cursor", MsgBadCursor)
	}
	at, id, ok := strings.Cut(string(raw), "|")
	t, terr := time.Parse(time.RFC3339Nano, at)
	if !ok || terr != nil || uuid.Validate(id) != nil {
		return cursor{}, invalid("cursor", MsgBadCursor)
	}
	return cursor{at: t, id: id}, nil
}

// postQuery is the one statement behind the feed, a profile's posts and a
// single post: published posts newest first, each with its author, its
// counters, the reader's like and its pictures. Posts of members the reader
// blocked or who blocked the reader, and posts moderation hides, are never
// in it. $1 is the reader.
type postQuery struct {
	// from is the posts read, as p: content_published, or for the
	// connections tab the newest posts of each author of the network.
	from  string
	where []string
	args  []any
}

// newPostQuery starts the statement for reader; visible is the moderation
// condition (Options.Visible, nil for none).
func newPostQuery(reader string, visible func(idColumn string) string) *postQuery {
	var r any
	if uuid.Validate(reader) == nil {
		r = reader
	}
	q := &postQuery{from: "content_published p", args: []any{r}}
	// A literal type, so the planner matches the partial author index.
	q.where = append(q.where, `p.type = '`+TypeID+`'`,
		`NOT `+connections.BlockedEitherWaySQL("$1::uuid", "p.author_id"))
	if v := visibleSQL(visible, "p.item_id"); v != "" {
		q.where = append(q.where, v)
	}
	return q
}

// visibleSQL is the moderation condition on the post whose id is idColumn
// ("" when there is none).
func visibleSQL(visible func(idColumn string) string, idColumn string) string {
	if visible == nil {
		return ""
	}
	return visible(idColumn)
}

func (q *postQuery) arg(v any) string {
	q.args = append(q.args, v)
	return "$" + strconv.Itoa(len(q.args))
}

// postColumns are scanned by scanPost, in order.
const postColumns = `p.item_id::text, coalesce(p.author_id::text, ''), pr.user_id IS NOT NULL,
	coalesce(pr.first_name, ''), coalesce(pr.last_name, ''), coalesce(pr.avatar_url, ''), coalesce(pr.title, ''), coalesce(pr.verified, false),
	coalesce(p.fields->>'content', ''), p.published_at,
	CASE WHEN p.last_published_at > p.published_at THEN p.last_published_at END,
	coalesce(ec.likes, 0), coalesce(ec.comments, 0), er.user_id IS NOT NULL, coalesce(m.media, '[]'::json), aa.comment_id::text`

// postJoins add the author, the counters, the reader's like, the
// pictures (in upload order) and the accepted answer to content_published p.
var postJoins = ` LEFT JOIN profiles pr ON pr.user_id = p.author_id` +
	engagement.CountersJoinSQL("ec", "p.item_id") +
	engagement.ReactionJoinSQL("er", "p.item_id", "$1::uuid") + ` AND er.reaction = 'like'
	LEFT JOIN LATERAL (
		SELECT json_agg(json_build_object('id', pm.id, 'media_type', pm.media_type, 'storage_path', pm.storage_path,
			'thumbnail_path', pm.thumbnail_path, 'width', pm.width, 'height', pm.height, 'file_name', pm.file_name,
			'file_size', pm.file_size, 'mime_type', pm.mime_type) ORDER BY pm.created_at, pm.id) AS media
		FROM post_media pm WHERE pm.item_id = p.item_id) m ON true
	LEFT JOIN community_accepted_answers aa ON aa.post_id = p.item_id `

func (q *postQuery) sql(limit int) string {
	return `SELECT ` + postColumns + ` FROM ` + q.from + postJoins +
		`WHERE ` + strings.Join(q.where, "\n\t AND ") +
		` ORDER BY p.published_at DESC, p.item_id DESC LIMIT ` + strconv.Itoa(limit)
}

// storedMedia is a picture as the query aggregates it.
type storedMedia struct {
	ID            string  `json:"id"`
	MediaType     string  `json:"media_type"`
	StoragePath   string  `json:"storage_path"`
	ThumbnailPath *string `json:"thumbnail_path"`
	Width         *int    `json:"width"`
	Height        *int    `json:"height"`
	FileName      string  `json:"file_name"`
	FileSize      int64   `json:"file_size"`
	MimeType      string  `json:"mime_type"`
}

func (s *Service) scanPost(row pgx.Row, reader string) (Post, error) {
	var p Post
	var authorID, first, last, avatar, title string
	var hasProfile, verified bool
	var media []byte
	if err := row.Scan(&p.ID, &authorID, &hasProfile, &first, &last, &avatar, &title, &verified,
		&p.Content, &p.CreatedAt, &p.EditedAt, &p.Likes, &p.Comments, &p.Liked, &media, &p.AcceptedCommentID); err != nil {
		return Post{}, err
	}
	if authorID != "" && hasProfile {
		p.Author = &Author{ID: authorID, FirstName: first, LastName: last, Verified: verified,
			AvatarURL: nonEmpty(avatar), Title: nonEmpty(title)}
	}
	p.IsMine = authorID != "" && authorID == reader
	var stored []storedMedia
	if err := json.Unmarshal(media, &stored); err != nil {
		return Post{}, fmt.Errorf("decode pictures: %w", err)
	}
	p.Media = make([]Media, 0, len(stored))
	for _, m := range stored {
		p.Media = append(p.Media, s.media(m))
	}
	p.CreatedAt = p.CreatedAt.UTC()
	if p.EditedAt != nil {
		t := p.EditedAt.UTC()
		p.EditedAt = &t
	}
	return p, nil
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// FeedStatement is the one statement behind a feed page. It reads up to
// Limit+1 posts (the extra one tells whether there is a next page), with the
// columns scanPost reads, in that order: id, author id, author has a
// profile, first name, last name, avatar, title, verified, text,
// published_at, edited_at (null unless edited), likes, comments, the
// reader's like, the pictures (a JSON array of stored pictures).
type FeedStatement struct {
	SQL   string
	Args  []any
	Limit int
}

// FeedSQL builds the statement Feed runs for fq, visible being the
// moderation condition (Options.Visible; nil: every published post). It is
// exported so the benchmark floor (bench/api) runs the very same SQL through
// bare pgx.
func FeedSQL(fq FeedQuery, visible func(idColumn string) string) (FeedStatement, error) {
	limit := fq.Limit
	switch {
	case limit == 0:
		limit = DefaultLimit
	case limit < 0 || limit > MaxLimit:
		return FeedStatement{}, invalid("limit", MsgBadLimit)
	}
	q := newPostQuery(fq.Reader, visible)
	if fq.Author != "" {
		u, err := uuid.Parse(fq.Author)
		if err != nil {
			return FeedStatement{}, invalid("author", MsgBadAuthor)
		}
		q.where = append(q.where, `p.author_id = `+q.arg(u.String())+`::uuid`)
	}
	after := func(string) string { return "" }
	if fq.Cursor != "" {
		c, err := decodeCursor(fq.Cursor)
		if err != nil {
			return FeedStatement{}, err
		}
		at, id := q.arg(c.at), q.arg(c.id)
		after = func(alias string) string {
			return ` AND (` + alias + `.published_at, ` + alias + `.item_id) < (` + at + `::timestamptz, ` + id + `::uuid)`
		}
		q.where = append(q.where, strings.TrimPrefix(after("p"), " AND "))
	}
	switch fq.Tab {
	case "", TabAll:
	case TabConnections:
		// The newest page of each author of the reader's network (the
		// reader and their connections), through the author index, then
		// the newest of those: a network that rarely posts never makes
		// the query walk the whole feed. Moderation is judged inside, so
		// a hidden post never takes a place in an author's page.
		inner := `p0.type = '` + TypeID + `' AND p0.author_id = net.id` + after("p0")
		if v := visibleSQL(visible, "p0.item_id"); v != "" {
			inner += ` AND ` + v
		}
		//
		// The page is cut in here, before the joins, so authors, counters
		// and pictures are read for one page, not for every author's page
		// (measured with bench/api at 100,000 posts: a fourth of the
		// execution time). Blocked authors are dropped before the cut, so
		// the outer conditions, judged again on the page, drop nothing.
		page := strconv.Itoa(limit + 1)
		q.from = `(SELECT x.* FROM (SELECT $1::uuid UNION ` + connections.ConnectedIDsSQL("$1::uuid") + `) AS net (id)
			CROSS JOIN LATERAL (SELECT p0.* FROM content_published p0 WHERE ` + inner + `
				ORDER BY p0.published_at DESC, p0.item_id DESC LIMIT ` + page + `) x
			WHERE NOT ` + connections.BlockedEitherWaySQL("$1::uuid", "net.id") + `
			ORDER BY x.published_at DESC, x.item_id DESC LIMIT ` + page + `) p`
	default:
		return FeedStatement{}, invalid("tab", MsgBadTab)
	}
	return FeedStatement{SQL: q.sql(limit + 1), Args: q.args, Limit: limit}, nil
}

// feedVisible is the moderation condition of the feed: Options.Visible, and
// a post its reader reported is gone from their feed (they said they do not
// want to see it). FeedSQL's $1 is the reader.
func (s *Service) feedVisible() func(idColumn string) string {
	if s.o.ReportedBy == nil {
		return s.o.Visible
	}
	return func(idColumn string) string {
		not := "NOT " + s.o.ReportedBy(idColumn, "$1::uuid")
		if v := visibleSQL(s.o.Visible, idColumn); v != "" {
			return "(" + v + " AND " + not + ")"
		}
		return not
	}
}

// Feed returns one page of the feed as q.Reader sees it.
func (s *Service) Feed(ctx context.Context, fq FeedQuery) (FeedPage, error) {
	st, err := FeedSQL(fq, s.feedVisible())
	if err != nil {
		return FeedPage{}, err
	}
	rows, err := s.pool.Query(ctx, st.SQL, st.Args...)
	if err != nil {
		return FeedPage{}, fmt.Errorf("feed: %w", err)
	}
	items, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Post, error) { return s.scanPost(row, fq.Reader) })
	if err != nil {
		return FeedPage{}, fmt.Errorf("feed: %w", err)
	}
	page := FeedPage{Items: items}
	if len(items) > st.Limit {
		page.Items = items[:st.Limit]
		last := page.Items[st.Limit-1]
		next := encodeCursor(cursor{at: last.CreatedAt, id: last.ID})
		page.NextCursor = &next
	}
	return page, nil
}

// Get returns one post as reader sees it (404 when it is not published, is
// hidden, or its author and the reader blocked one another).
func (s *Service) Get(ctx context.Context, reader, postID string) (Post, error) {
	if uuid.Validate(postID) != nil {
		return Post{}, notFound()
	}
	q := newPostQuery(reader, s.o.Visible)
	q.where = append(q.where, `p.item_id = `+q.arg(postID)+`::uuid`)
	p, err := s.scanPost(s.pool.QueryRow(ctx, q.sql(1), q.args...), reader)
	if postgres.IsNoRows(err) {
		return Post{}, notFound()
	}
	if err != nil {
		return Post{}, fmt.Errorf("get post: %w", err)
	}
	return p, nil
}

// visibleAuthor returns the author of a post reader may see ("" when the
// account is gone), 404 otherwise.
func (s *Service) visibleAuthor(ctx context.Context, reader, postID string) (string, error) {
	if uuid.Validate(postID) != nil {
		return "", notFound()
	}
	q := newPostQuery(reader, s.o.Visible)
	q.where = append(q.where, `p.item_id = `+q.arg(postID)+`::uuid`)
	var author string
	err := s.pool.QueryRow(ctx, `SELECT coalesce(p.author_id::text, '') FROM content_published p WHERE `+
		strings.Join(q.where, " AND "), q.args...).Scan(&author)
	if postgres.IsNoRows(err) {
		return "", notFound()
	}
	if err != nil {
		return "", fmt.Errorf("find post: %w", err)
	}
	return author, nil
}
