// Package engagement records what readers do with any content item:
// favorites, like/dislike, views, progress, enrolments and comments (with
// one level of replies and like/dislike per comment, comments.go), with
// per-item counters.
//
// Counters are exact: each change runs in one transaction that changes the
// reader's row and moves the counter only by what the row change actually
// did (a second "favorite" of the same item changes nothing and counts
// nothing). Changes by one reader to one item are serialised with a
// transaction-scoped advisory lock, so a toggle always sees the outcome of
// the previous one. Only published items can be engaged with.
//
// Public lists add the counters and the reader's flags to their own query
// with ReaderSQL, so a list page stays one query.
package engagement

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/postgres"
	"github.com/vetclube/vetclube/core/ratelimit"
)

// Reaction is a reader's like or dislike ("" for none).
type Reaction string

const (
	ReactionNone    Reaction = ""
	ReactionLike    Reaction = "like"
	ReactionDislike Reaction = "dislike"
)

// Counters are an item's totals.
type Counters struct {
	Favorites  int64 `json:"favorites"`
	Likes      int64 `json:"likes"`
	Dislikes   int64 `json:"dislikes"`
	Views      int64 `json:"views"`
	Enrolments int64 `json:"enrolments"`
}

// Summary is an item's counters plus one reader's flags (all false for an
// anonymous reader).
type Summary struct {
	Counters
	Favorited bool     `json:"favorited"`
	Reaction  Reaction `json:"reaction"`
	Enrolled  bool     `json:"enrolled"`
	Percent   float64  `json:"progress_percent"`
	Completed bool     `json:"completed"`
}

// MsgItemNotFound is the refusal for an item that does not exist or is not
// published.
const MsgItemNotFound = "Conteúdo não encontrado."

// ViewWindow is how long after a counted view the same reader's next view of
// the same item is not counted again.
const ViewWindow = 24 * time.Hour

// DefaultCompleteRatio is the share of a media item's duration a reader must
// actually have watched for it to count as completed.
const DefaultCompleteRatio = 0.9

// Service records engagement.
type Service struct {
	pool          *pgxpool.Pool
	now           func() time.Time
	completeRatio float64
	limiter       *ratelimit.Limiter
	commentRate   ratelimit.Rule
	notify        notifications.Sender
	profiles      ProfileEnsurer
	rules         Rules
	log           *slog.Logger
}

// Options configures a Service.
type Options struct {
	Now           func() time.Time // the clock; time.Now when nil
	CompleteRatio float64          // DefaultCompleteRatio when 0
	// CommentRate limits how often one member comments (DefaultCommentRate
	// when Max is 0).
	CommentRate ratelimit.Rule
	// Notify tells authors about comments, replies and likes on their
	// comments (nil: nobody is told).
	Notify notifications.Sender
	// Profiles creates a commenter's missing profile row in the comment's
	// transaction, so every comment shows its author (nil: not created).
	Profiles ProfileEnsurer
	// Rules are the content owners' additions to the comments (blocks,
	// moderation, notices; the zero Rules add none).
	Rules Rules
	Log   *slog.Logger // slog.Default() when nil
}

// ProfileEnsurer is the part of core/profiles comments use.
type ProfileEnsurer interface {
	EnsureTx(ctx context.Context, tx pgx.Tx, userIDs ...string) error
	DisplayName(ctx context.Context, userID string) string
}

// New returns a service on pool.
func New(pool *pgxpool.Pool, opts Options) *Service {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.CompleteRatio <= 0 || opts.CompleteRatio > 1 {
		opts.CompleteRatio = DefaultCompleteRatio
	}
	if opts.CommentRate.Max <= 0 || opts.CommentRate.Window <= 0 {
		opts.CommentRate = DefaultCommentRate
	}
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	return &Service{pool: pool, now: opts.Now, completeRatio: opts.CompleteRatio,
		limiter: ratelimit.New(pool, opts.Now), commentRate: opts.CommentRate, notify: opts.Notify, profiles: opts.Profiles, rules: opts.Rules, log: opts.Log}
}

func notFound() error { return core.Errorf(core.ENOTFOUND, MsgItemNotFound) }

func validIDs(userID, itemID string) error {
	if uuid.Validate(userID) != nil {
		return fmt.Errorf("engagement: user id %q is not a uuid", userID)
	}
	if uuid.Validate(itemID) != nil {
		return notFound()
	}
	return nil
}

// begin opens the transaction for one reader's change to one item: it takes
// the (user, item) advisory lock and checks that the item is published.
func (s *Service) begin(ctx context.Context, userID, itemID string, fn func(tx pgx.Tx) error) error {
	if err := validIDs(userID, itemID); err != nil {
		return err
	}
	return postgres.InTx(ctx, s.pool, func(tx pgx.Tx) error {
		var published bool
		err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM content_published WHERE item_id = $1)
			FROM (SELECT pg_advisory_xact_lock(hashtextextended($2, 0))) AS lock`,
			itemID, "engagement:"+userID+":"+itemID).Scan(&published)
		if err != nil {
			return fmt.Errorf("lock engagement: %w", err)
		}
		if !published {
			return notFound()
		}
		return fn(tx)
	})
}

// bump moves item's counters by the given deltas.
func bump(ctx context.Context, tx pgx.Tx, itemID string, d Counters) error {
	_, err := tx.Exec(ctx, `UPDATE engagement_counters SET favorites = favorites + $2, likes = likes + $3,
			dislikes = dislikes + $4, views = views + $5, enrolments = enrolments + $6
		WHERE item_id = $1`, itemID, d.Favorites, d.Likes, d.Dislikes, d.Views, d.Enrolments)
	if err != nil {
		return fmt.Errorf("update counters: %w", err)
	}
	return nil
}

// SetFavorite marks (on) or unmarks item as a favorite of user; changed is
// false when it already was as asked.
func (s *Service) SetFavorite(ctx context.Context, userID, itemID string, on bool) (changed bool, err error) {
	err = s.begin(ctx, userID, itemID, func(tx pgx.Tx) error {
		var err error
		changed, err = setFavorite(ctx, tx, userID, itemID, on, s.now())
		return err
	})
	return changed, err
}

// ToggleFavorite flips user's favorite on item and returns the new state.
func (s *Service) ToggleFavorite(ctx context.Context, userID, itemID string) (on bool, err error) {
	err = s.begin(ctx, userID, itemID, func(tx pgx.Tx) error {
		removed, err := setFavorite(ctx, tx, userID, itemID, false, s.now())
		if err != nil || removed {
			return err
		}
		on = true
		_, err = setFavorite(ctx, tx, userID, itemID, true, s.now())
		return err
	})
	return on, err
}

func setFavorite(ctx context.Context, tx pgx.Tx, userID, itemID string, on bool, now time.Time) (bool, error) {
	sql := `DELETE FROM engagement_favorites WHERE item_id = $1 AND user_id = $2`
	args := []any{itemID, userID}
	delta := int64(-1)
	if on {
		sql = `INSERT INTO engagement_favorites (item_id, user_id, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`
		args = append(args, now)
		delta = 1
	}
	tag, err := tx.Exec(ctx, sql, args...)
	if err != nil {
		return false, fmt.Errorf("favorite: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return false, nil
	}
	return true, bump(ctx, tx, itemID, Counters{Favorites: delta})
}

// SetReaction sets user's reaction to item: like, dislike (each replaces the
// other) or none. It returns the reaction in place before.
func (s *Service) SetReaction(ctx context.Context, userID, itemID string, r Reaction) (previous Reaction, err error) {
	if r != ReactionNone && r != ReactionLike && r != ReactionDislike {
		return "", core.Invalid("Reação inválida.", map[string]string{"reaction": "Escolha gostei ou não gostei."})
	}
	err = s.begin(ctx, userID, itemID, func(tx pgx.Tx) error {
		var err error
		previous, err = setReaction(ctx, tx, userID, itemID, r, s.now())
		return err
	})
	return previous, err
}

// ToggleReaction applies r, or removes it when it is already the reader's
// reaction (pressing "like" twice). It returns the reaction now in place.
func (s *Service) ToggleReaction(ctx context.Context, userID, itemID string, r Reaction) (now Reaction, err error) {
	if r != ReactionLike && r != ReactionDislike {
		return "", core.Invalid("Reação inválida.", map[string]string{"reaction": "Escolha gostei ou não gostei."})
	}
	err = s.begin(ctx, userID, itemID, func(tx pgx.Tx) error {
		prev, err := setReaction(ctx, tx, userID, itemID, r, s.now())
		if err != nil {
			return err
		}
		now = r
		if prev == r {
			now = ReactionNone
			_, err = setReaction(ctx, tx, userID, itemID, ReactionNone, s.now())
		}
		return err
	})
	return now, err
}

func setReaction(ctx context.Context, tx pgx.Tx, userID, itemID string, r Reaction, now time.Time) (Reaction, error) {
	var prev Reaction
	err := tx.QueryRow(ctx, `SELECT reaction FROM engagement_reactions WHERE item_id = $1 AND user_id = $2`, itemID, userID).Scan(&prev)
	if err != nil && !postgres.IsNoRows(err) {
		return "", fmt.Errorf("read reaction: %w", err)
	}
	if prev == r {
		return prev, nil
	}
	if r == ReactionNone {
		_, err = tx.Exec(ctx, `DELETE FROM engagement_reactions WHERE item_id = $1 AND user_id = $2`, itemID, userID)
	} else {
		_, err = tx.Exec(ctx, `INSERT INTO engagement_reactions (item_id, user_id, reaction, updated_at) VALUES ($1, $2, $3, $4)
			ON CONFLICT (item_id, user_id) DO UPDATE SET reaction = EXCLUDED.reaction, updated_at = EXCLUDED.updated_at`,
			itemID, userID, r, now)
	}
	if err != nil {
		return "", fmt.Errorf("write reaction: %w", err)
	}
	var d Counters
	switch prev {
	case ReactionLike:
		d.Likes--
	case ReactionDislike:
		d.Dislikes--
	}
	switch r {
	case ReactionLike:
		d.Likes++
	case ReactionDislike:
		d.Dislikes++
	}
	return prev, bump(ctx, tx, itemID, d)
}

// RecordView counts user's view of item unless the same user's last counted
// view of it is less than ViewWindow old; counted says which happened.
func (s *Service) RecordView(ctx context.Context, userID, itemID string) (counted bool, err error) {
	if err := validIDs(userID, itemID); err != nil {
		return false, err
	}
	now := s.now()
	// One statement: the upsert only touches the row when the window has
	// passed (re-checked on the locked row under concurrency), and the
	// counter moves only when the upsert returned a row.
	var published, didCount bool
	err = s.pool.QueryRow(ctx, `WITH item AS (
			SELECT EXISTS (SELECT 1 FROM content_published WHERE item_id = $1) AS published
		), counted AS (
			INSERT INTO engagement_views (item_id, user_id, counted_at)
			SELECT $1, $2, $3 FROM item WHERE published
			ON CONFLICT (item_id, user_id) DO UPDATE SET counted_at = EXCLUDED.counted_at
				WHERE engagement_views.counted_at <= EXCLUDED.counted_at - make_interval(secs => $4)
			RETURNING 1
		), bumped AS (
			UPDATE engagement_counters SET views = views + 1 WHERE item_id = $1 AND EXISTS (SELECT 1 FROM counted)
			RETURNING 1
		)
		SELECT (SELECT published FROM item), EXISTS (SELECT 1 FROM bumped)`,
		itemID, userID, now, ViewWindow.Seconds()).Scan(&published, &didCount)
	if err != nil {
		return false, fmt.Errorf("record view: %w", err)
	}
	if !published {
		return false, notFound()
	}
	return didCount, nil
}

// SetEnrolled enrols (on) or unenrols user in item; changed is false when it
// already was as asked.
func (s *Service) SetEnrolled(ctx context.Context, userID, itemID string, on bool) (changed bool, err error) {
	err = s.begin(ctx, userID, itemID, func(tx pgx.Tx) error {
		sql := `DELETE FROM engagement_enrolments WHERE item_id = $1 AND user_id = $2`
		args := []any{itemID, userID}
		delta := int64(-1)
		if on {
			sql = `INSERT INTO engagement_enrolments (item_id, user_id, enrolled_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`
			args = append(args, s.now())
			delta = 1
		}
		tag, err := tx.Exec(ctx, sql, args...)
		if err != nil {
			return fmt.Errorf("enrolment: %w", err)
		}
		if changed = tag.RowsAffected() == 1; !changed {
			return nil
		}
		return bump(ctx, tx, itemID, Counters{Enrolments: delta})
	})
	return changed, err
}

// Counters returns item's totals.
func (s *Service) Counters(ctx context.Context, itemID string) (Counters, error) {
	if uuid.Validate(itemID) != nil {
		return Counters{}, notFound()
	}
	var c Counters
	err := s.pool.QueryRow(ctx, `SELECT favorites, likes, dislikes, views, enrolments FROM engagement_counters WHERE item_id = $1`,
		itemID).Scan(&c.Favorites, &c.Likes, &c.Dislikes, &c.Views, &c.Enrolments)
	if postgres.IsNoRows(err) {
		return Counters{}, notFound()
	}
	if err != nil {
		return Counters{}, fmt.Errorf("counters: %w", err)
	}
	return c, nil
}

// Summary returns item's counters with readerID's flags ("" for anonymous).
func (s *Service) Summary(ctx context.Context, readerID, itemID string) (Summary, error) {
	if uuid.Validate(itemID) != nil {
		return Summary{}, notFound()
	}
	cols, joins := ReaderSQL("i.id", 2)
	var sum Summary
	err := s.pool.QueryRow(ctx, `SELECT `+cols+` FROM content_items i `+joins+` WHERE i.id = $1`,
		itemID, ReaderArg(readerID)).Scan(sum.Targets()...)
	if postgres.IsNoRows(err) {
		return Summary{}, notFound()
	}
	if err != nil {
		return Summary{}, fmt.Errorf("engagement summary: %w", err)
	}
	return sum, nil
}

// ReaderSQL returns the select-list columns and LEFT JOINs that add an item's
// counters and one reader's flags to a query over items: itemColumn is the
// item id column of that query ("p.item_id") and $readerParam the reader's id
// (bind ReaderArg). Scan the columns, in order, into Summary.Targets.
func ReaderSQL(itemColumn string, readerParam int) (columns, joins string) {
	item := itemColumn
	r := fmt.Sprintf("$%d::uuid", readerParam)
	columns = `coalesce(ec.favorites, 0), coalesce(ec.likes, 0), coalesce(ec.dislikes, 0), coalesce(ec.views, 0),
		coalesce(ec.enrolments, 0), ef.user_id IS NOT NULL, coalesce(er.reaction, ''), ee.user_id IS NOT NULL,
		coalesce(ep.percent, 0)::float8, ep.completed_at IS NOT NULL`
	joins = ` LEFT JOIN engagement_counters ec ON ec.item_id = ` + item +
		` LEFT JOIN engagement_favorites ef ON ef.item_id = ` + item + ` AND ef.user_id = ` + r +
		` LEFT JOIN engagement_reactions er ON er.item_id = ` + item + ` AND er.user_id = ` + r +
		` LEFT JOIN engagement_enrolments ee ON ee.item_id = ` + item + ` AND ee.user_id = ` + r +
		` LEFT JOIN engagement_progress ep ON ep.item_id = ` + item + ` AND ep.user_id = ` + r + ` `
	return columns, joins
}

// FavoritedCondition is the WHERE condition that keeps only the reader's
// favorites in a query joined with ReaderSQL.
const FavoritedCondition = "ef.user_id IS NOT NULL"

// ReaderArg is the value to bind for ReaderSQL's reader parameter: the
// reader's id, or NULL for an anonymous reader.
func ReaderArg(readerID string) any {
	if readerID == "" || uuid.Validate(readerID) != nil {
		return nil
	}
	return readerID
}

// Targets are the scan destinations for ReaderSQL's columns.
func (s *Summary) Targets() []any {
	return []any{&s.Favorites, &s.Likes, &s.Dislikes, &s.Views, &s.Enrolments, &s.Favorited, &s.Reaction, &s.Enrolled, &s.Percent, &s.Completed}
}
