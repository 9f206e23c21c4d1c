// Package community is the community feed: members' posts (text in a
// Markdown subset and up to 10 pictures), likes, and the feed that lists
// them with their authors and counters in one query per page.
//
// A post is a content item of type "posts" (plugins/comunidade), whose
// workflow publishes it as it is created; this package writes through
// core/content.Store, so posts have revisions and an audit trail like any
// content. Likes are core/engagement reactions; comments are
// core/engagement's too (another package serves them). What this package
// adds is the feed's rules: who may edit and delete, the pictures
// (post_media), VetCoins for posting (10 each for the first 5 posts of a São
// Paulo day, exactly once per post), the posting rate limit, and the reader's
// view that hides posts of blocked members and moderated posts.
package community

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/engagement"
	"github.com/vetclube/vetclube/core/httpx"
	"github.com/vetclube/vetclube/core/imaging"
	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/points"
	"github.com/vetclube/vetclube/core/profiles"
	"github.com/vetclube/vetclube/core/ratelimit"
	"github.com/vetclube/vetclube/core/storage"
)

// TypeID is the content type of posts, declared by plugins/comunidade.
const TypeID = "posts"

// Limits of a post.
const (
	MaxContent = 5000 // characters of text
	MaxMedia   = 10   // pictures
)

// VetCoins for posting: PostPoints for each of the first PostPointsPerDay
// posts of a São Paulo day.
const (
	PostPoints       = 10
	PostPointsPerDay = 5
)

// Default rate limits (Options overrides them).
var (
	DefaultPostRule   = ratelimit.Rule{Max: 5, Window: time.Minute}
	DefaultUploadRule = ratelimit.Rule{Max: 60, Window: 10 * time.Minute}
)

// Messages members read (the community contract's, character for character).
const (
	MsgNotFound        = "Publicação não encontrada"
	MsgEmpty           = "A publicação não pode estar vazia"
	MsgTooManyMedia    = "Máximo de 10 imagens por publicação"
	MsgTooLong         = "A publicação deve ter no máximo 5000 caracteres"
	MsgTooFast         = "Você está publicando rápido demais. Aguarde um momento."
	MsgNotAuthorEdit   = "Apenas o autor pode editar esta publicação"
	MsgNotAuthorDelete = "Apenas o autor pode excluir esta publicação"
	MsgMediaNotFound   = "Imagem não encontrada. Envie a imagem de novo."
	MsgIdempotencyKey  = "Chave de idempotência inválida."
)

// Author is a post's author as the feed shows them (null in JSON when the
// account is gone: the web app shows 'Usuário VetClube').
type Author = profiles.Author

// Post is one post as a reader sees it.
type Post struct {
	ID     string  `json:"id"`
	Author *Author `json:"author"`
	// Content is the Markdown source; the web app renders it safely.
	Content   string     `json:"content"`
	Media     []Media    `json:"media"`
	CreatedAt time.Time  `json:"created_at"`
	EditedAt  *time.Time `json:"edited_at"`
	Likes     int64      `json:"likes"`
	Comments  int64      `json:"comments_count"`
	Liked     bool       `json:"liked"`
	IsMine    bool       `json:"is_mine"`
	// AcceptedCommentID is the comment the author accepted as the answer.
	AcceptedCommentID *string `json:"accepted_comment_id"`
}

// Input is what an author writes.
type Input struct {
	Content  string   `json:"content"`
	MediaIDs []string `json:"media_ids"`
}

// LikeState is a post's likes after a like or unlike.
type LikeState struct {
	Likes int64 `json:"likes"`
	Liked bool  `json:"liked"`
}

// Options are the service's dependencies.
type Options struct {
	Content    *content.Store
	Engagement *engagement.Service
	// Notify tells authors about likes; nil: nobody is told.
	Notify notifications.Sender
	// Profiles makes sure an author has a profile row for the feed to show.
	Profiles *profiles.Service
	// Storage keeps the pictures.
	Storage storage.Store
	// Images decodes uploads; the shared decoder with GIF allowed when nil.
	Images *imaging.Decoder
	// Now is the clock (rate-limit windows, the São Paulo day of VetCoins,
	// upload keys); time.Now when nil.
	Now func() time.Time
	Log *slog.Logger
	// Visible returns a SQL boolean that is true while the post whose item
	// id is idColumn may be shown (core/moderation's condition); nil: every
	// published post.
	Visible func(idColumn string) string
	// ReportedBy returns a SQL boolean that is true when the reader whose id
	// is readerExpr reported the post whose item id is idColumn: the feed
	// leaves such posts out for that reader (nil: none).
	ReportedBy func(idColumn, readerExpr string) string
	// PostRule and UploadRule are the rate limits; the defaults when zero.
	PostRule, UploadRule ratelimit.Rule
}

// Service is the community feed.
type Service struct {
	pool    *pgxpool.Pool
	o       Options
	limiter *ratelimit.Limiter
	sp      *time.Location
}

// New returns the service on pool.
func New(pool *pgxpool.Pool, o Options) (*Service, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Images == nil {
		lim := imaging.Shared().Limits()
		lim.AllowGIF = true
		o.Images = imaging.Shared().WithLimits(lim)
	}
	if o.PostRule.Max <= 0 || o.PostRule.Window <= 0 {
		o.PostRule = DefaultPostRule
	}
	if o.UploadRule.Max <= 0 || o.UploadRule.Window <= 0 {
		o.UploadRule = DefaultUploadRule
	}
	if o.Content == nil || o.Engagement == nil || o.Storage == nil {
		return nil, errors.New("community: content, engagement and storage are required")
	}
	sp, err := time.LoadLocation("America/Sao_Paulo")
	if err != nil {
		return nil, fmt.Errorf("community: time zone: %w", err)
	}
	return &Service{pool: pool, o: o, limiter: ratelimit.New(pool, o.Now), sp: sp}, nil
}

func notFound() error { return core.Errorf(core.ENOTFOUND, MsgNotFound) }

func invalid(field, msg string) error { return core.Invalid(msg, map[string]string{field: msg}) }

// RateLimited is a refusal for going too fast, with how long to wait.
type RateLimited struct {
	err   *core.Error
	After time.Duration
}

func (e *RateLimited) Error() string { return e.err.Error() }
func (e *RateLimited) Unwrap() error { return e.err }

// allow counts one hit of key under rule on q (the pool, or the limited
// write's transaction), refusing with msg (and the time left in the
// window) beyond it.
func (s *Service) allow(ctx context.Context, q ratelimit.Querier, key string, rule ratelimit.Rule, msg string) error {
	ok, err := s.limiter.AllowTx(ctx, q, key, rule)
	if err != nil {
		return err
	}
	if ok {
		return nil
	}
	now := s.o.Now()
	after := now.Truncate(rule.Window).Add(rule.Window).Sub(now)
	return &RateLimited{err: core.Errorf(core.ERATELIMITED, "%s", msg), After: max(after, time.Second)}
}

// clean checks an author's input and returns it normalised: text trimmed,
// media ids lower-case without repeats.
func clean(in Input) (Input, error) {
	in.Content = strings.TrimSpace(in.Content)
	if utf8.RuneCountInString(in.Content) > MaxContent {
		return in, invalid("content", MsgTooLong)
	}
	if len(in.MediaIDs) > MaxMedia {
		return in, invalid("media_ids", MsgTooManyMedia)
	}
	ids := make([]string, 0, len(in.MediaIDs))
	for _, id := range in.MediaIDs {
		u, err := uuid.Parse(strings.TrimSpace(id))
		if err != nil {
			return in, invalid("media_ids", MsgMediaNotFound)
		}
		if !slices.Contains(ids, u.String()) {
			ids = append(ids, u.String())
		}
	}
	in.MediaIDs = ids
	if in.Content == "" && len(ids) == 0 {
		return in, invalid("content", MsgEmpty)
	}
	return in, nil
}

// itemInput is the content item of a post: the title (backoffice lists,
// search) is the text's start, the fields the text and the pictures.
func itemInput(in Input, slug string) content.Input {
	fields := map[string]any{"content": in.Content}
	if len(in.MediaIDs) > 0 {
		fields["media"] = in.MediaIDs
	}
	return content.Input{Slug: slug, Title: postTitle(in), Fields: fields}
}

const titleRunes = 80

func postTitle(in Input) string {
	t := strings.Join(strings.Fields(in.Content), " ")
	if t == "" {
		return "Publicação com imagens"
	}
	if r := []rune(t); len(r) > titleRunes {
		t = strings.TrimSpace(string(r[:titleRunes])) + "…"
	}
	return t
}

// newSlug is a post's address in the content platform: random, so creates
// never race for a derived slug (posts have no page of their own).
func newSlug() string {
	return "p-" + strings.ReplaceAll(uuid.NewString(), "-", "")[:20]
}

// IdempotencyKey is the content item key of an author's post key: scoped to
// the author, so two members' keys never meet.
func IdempotencyKey(userID, key string) string {
	if key == "" {
		return ""
	}
	return "community:post:" + userID + ":" + key
}

func checkKey(key string) error {
	if len(key) > 200 || httpx.TextProblem(key) != "" {
		return invalid("idempotency_key", MsgIdempotencyKey)
	}
	return nil
}

// CreateOptions adjust a create (the demo seed dates and names its posts).
type CreateOptions struct {
	// Slug is the post's stable address; random when empty.
	Slug string
}

// Create publishes a post by userID. key (the Idempotency-Key) makes it
// safe to retry: a repeated key returns the first post with created=false,
// and nothing (pictures, VetCoins, the rate limit) happens twice. The
// pictures, the rate-limit check and the VetCoins commit with the post.
func (s *Service) Create(ctx context.Context, userID string, in Input, key string, opts ...CreateOptions) (Post, bool, error) {
	in, err := clean(in)
	if err != nil {
		return Post{}, false, err
	}
	key = strings.TrimSpace(key)
	if err := checkKey(key); err != nil {
		return Post{}, false, err
	}
	slug := newSlug()
	for _, o := range opts {
		if o.Slug != "" {
			slug = o.Slug
		}
	}
	actor := content.Actor{UserID: userID, Channel: content.ChannelAPI}
	it, created, err := s.o.Content.CreateWithin(ctx, actor, TypeID, itemInput(in, slug), IdempotencyKey(userID, key),
		func(ctx context.Context, tx pgx.Tx, it content.Item) error {
			if err := attachMedia(ctx, tx, userID, it.ID, in.MediaIDs); err != nil {
				return err
			}
			// Counted in the post's transaction: only posts that commit count,
			// and a retry of one key (serialised before this point) once.
			if err := s.allow(ctx, tx, "community:post:"+userID, s.o.PostRule, MsgTooFast); err != nil {
				return err
			}
			if s.o.Profiles != nil {
				if err := s.o.Profiles.EnsureTx(ctx, tx, userID); err != nil {
					return err
				}
			}
			return s.awardTx(ctx, tx, userID, it.ID)
		})
	if err != nil {
		return Post{}, false, contentError(err)
	}
	p, err := s.Get(ctx, userID, it.ID)
	return p, created, err
}

// contentError turns the content platform's field errors about a post's
// fields into the feed's fields (content, media_ids).
func contentError(err error) error {
	var e *core.Error
	if !errors.As(err, &e) || e.Code != core.EINVALID {
		return err
	}
	if msg, ok := e.Fields["content"]; ok {
		return invalid("content", msg)
	}
	if msg, ok := e.Fields["media"]; ok {
		return invalid("media_ids", msg)
	}
	return err
}

// Day is the São Paulo date of t, the day VetCoins for posting count in.
func (s *Service) Day(t time.Time) string { return t.In(s.sp).Format(time.DateOnly) }

// awardTx credits PostPoints for post when userID has had fewer than
// PostPointsPerDay post credits this São Paulo day. The per-user lock makes
// the count and the credit one step under concurrent posts; the ledger key
// (one per post) makes it once per post whatever happens.
func (s *Service) awardTx(ctx context.Context, tx pgx.Tx, userID, postID string) error {
	day := s.Day(s.o.Now())
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('community:post-points:' || $1, 0))`, userID); err != nil {
		return fmt.Errorf("lock post credits: %w", err)
	}
	credited, err := points.EntriesTx(ctx, tx, userID, points.KindPost, "day", day)
	if err != nil {
		return fmt.Errorf("count post credits: %w", err)
	}
	if credited >= PostPointsPerDay {
		return nil
	}
	_, _, err = points.AwardTx(ctx, tx, userID, PostPoints, points.KindPost, "community:post:"+postID,
		map[string]any{"post_id": postID, "day": day, "source": "community"})
	return err
}

// attachMedia gives post the pictures ids, which must be userID's own
// uploads, unattached or already the post's; pictures the post had and ids
// does not name go back to unattached (pruned a day after their upload).
func attachMedia(ctx context.Context, tx pgx.Tx, userID, postID string, ids []string) error {
	if _, err := tx.Exec(ctx, `UPDATE post_media SET item_id = NULL WHERE item_id = $1 AND NOT (id = ANY($2::uuid[]))`, postID, ids); err != nil {
		return fmt.Errorf("detach pictures: %w", err)
	}
	if len(ids) == 0 {
		return nil
	}
	tag, err := tx.Exec(ctx, `UPDATE post_media SET item_id = $1
		WHERE id = ANY($2::uuid[]) AND uploader_id = $3 AND (item_id IS NULL OR item_id = $1)`, postID, ids, userID)
	if err != nil {
		return fmt.Errorf("attach pictures: %w", err)
	}
	if int(tag.RowsAffected()) != len(ids) {
		return invalid("media_ids", MsgMediaNotFound)
	}
	return nil
}

// post returns the working copy of a post, 404 for anything else.
func (s *Service) post(ctx context.Context, id string) (content.Item, error) {
	if uuid.Validate(id) != nil {
		return content.Item{}, notFound()
	}
	it, err := s.o.Content.Get(ctx, id)
	if core.ErrorCode(err) == core.ENOTFOUND || (err == nil && it.Type != TypeID) {
		return content.Item{}, notFound()
	}
	return it, err
}

type storedFields struct {
	Content string   `json:"content"`
	Media   []string `json:"media"`
}

// Update replaces the text and pictures of userID's own post; the post
// shows as edited. Saving what is already there changes nothing.
func (s *Service) Update(ctx context.Context, userID, postID string, in Input) (Post, error) {
	in, err := clean(in)
	if err != nil {
		return Post{}, err
	}
	it, err := s.post(ctx, postID)
	if err != nil {
		return Post{}, err
	}
	if !it.Published {
		return Post{}, notFound()
	}
	if it.AuthorID != userID {
		return Post{}, core.Errorf(core.EFORBIDDEN, MsgNotAuthorEdit)
	}
	var was storedFields
	if err := json.Unmarshal(it.Fields, &was); err != nil {
		return Post{}, fmt.Errorf("decode post: %w", err)
	}
	if was.Content == in.Content && slices.Equal(was.Media, in.MediaIDs) {
		return s.Get(ctx, userID, postID)
	}
	actor := content.Actor{UserID: userID, Channel: content.ChannelAPI}
	_, err = s.o.Content.UpdateWithin(ctx, actor, postID, it.Version, itemInput(in, it.Slug),
		func(ctx context.Context, tx pgx.Tx, now content.Item) error {
			if !now.Published {
				// Deleted while this edit was on its way.
				return notFound()
			}
			return attachMedia(ctx, tx, userID, postID, in.MediaIDs)
		})
	if err != nil {
		return Post{}, contentError(err)
	}
	return s.Get(ctx, userID, postID)
}

// Delete takes a post offline: its author may, and so may a moderator.
// The item is archived (kept with its revisions and audit trail, for
// moderation), never shown again; deleting it again is fine.
func (s *Service) Delete(ctx context.Context, userID, postID string, moderator bool) error {
	it, err := s.post(ctx, postID)
	if err != nil {
		return err
	}
	if it.AuthorID != userID && !moderator {
		if !it.Published {
			return notFound()
		}
		return core.Errorf(core.EFORBIDDEN, MsgNotAuthorDelete)
	}
	if !it.Published {
		return nil
	}
	_, err = s.o.Content.Transition(ctx, content.Actor{UserID: userID, Channel: content.ChannelAPI}, content.Transition{
		ID: postID, To: content.StatusArchived, Effect: content.EffectUnpublish, Action: "delete",
	})
	if core.ErrorCode(err) == core.ECONFLICT {
		// A concurrent delete (or edit) won the row; judge again.
		if again, gerr := s.post(ctx, postID); gerr == nil && !again.Published {
			return nil
		}
	}
	return err
}

// SetLike likes (on) or unlikes a post as userID. Liking someone else's
// post tells its author, once per member and post.
func (s *Service) SetLike(ctx context.Context, userID, postID string, on bool) (LikeState, error) {
	authorID, err := s.visibleAuthor(ctx, userID, postID)
	if err != nil {
		return LikeState{}, err
	}
	r := engagement.ReactionNone
	if on {
		r = engagement.ReactionLike
	}
	prev, err := s.o.Engagement.SetReaction(ctx, userID, postID, r)
	if core.ErrorCode(err) == core.ENOTFOUND {
		return LikeState{}, notFound()
	}
	if err != nil {
		return LikeState{}, err
	}
	c, err := s.o.Engagement.Counters(ctx, postID)
	if err != nil {
		return LikeState{}, err
	}
	if on && prev != engagement.ReactionLike && authorID != "" && authorID != userID {
		s.notifyLike(ctx, userID, authorID, postID)
	}
	return LikeState{Likes: c.Likes, Liked: on}, nil
}

// displayName is how a notice names userID.
func (s *Service) displayName(ctx context.Context, userID string) string {
	if s.o.Profiles == nil {
		return profiles.FallbackName
	}
	return s.o.Profiles.DisplayName(ctx, userID)
}

// notifyLike tells author that actor liked post. It runs after the like
// committed: a failure is logged, and liking again (after an unlike)
// tries again; the key keeps it to one notification per member and post.
func (s *Service) notifyLike(ctx context.Context, actor, author, post string) {
	if s.o.Notify == nil {
		return
	}
	name := s.displayName(ctx, actor)
	_, err := s.o.Notify.Send(ctx, notifications.Notice{
		UserID: author, Type: "like", Title: "Nova curtida", Message: name + " curtiu seu post",
		RelatedUserID: actor, RelatedPostID: post, Link: PostLink(post),
		GroupKey: "like:post:" + post, ActorName: name,
		IdempotencyKey: "like:post:" + actor + ":" + post,
	})
	if err != nil {
		s.o.Log.WarnContext(ctx, "notify post like", "post_id", post, "err", err)
	}
}
