package engagement_test

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/community"
	"github.com/vetclube/vetclube/core/content"
	"github.com/vetclube/vetclube/core/engagement"
	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
	"github.com/vetclube/vetclube/core/profiles"
	"github.com/vetclube/vetclube/core/ratelimit"
)

// commentsFixture is a database with the community's post type, the
// engagement service telling a real notifications service.
type commentsFixture struct {
	ctx    context.Context
	pool   *pgxpool.Pool
	svc    *engagement.Service
	notes  *notifications.Service
	store  *content.Store
	clock  *atomic.Int64
	userNo atomic.Int32
}

func (f *commentsFixture) now() time.Time { return time.Unix(0, f.clock.Load()).UTC() }

func (f *commentsFixture) advance(d time.Duration) { f.clock.Add(int64(d)) }

func newCommentsFixture(t *testing.T, rate ratelimit.Rule) *commentsFixture {
	t.Helper()
	f := &commentsFixture{ctx: context.Background(), pool: pgtest.New(t), clock: &atomic.Int64{}}
	f.clock.Store(time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC).UnixNano())
	reg := content.NewRegistry()
	for _, id := range []string{community.TypeID, "videos"} {
		if err := reg.Register(content.Type{ID: id, Singular: "Item", Plural: "Itens", Workflow: content.WorkflowPublishOnCreate}); err != nil {
			t.Fatal(err)
		}
	}
	f.store = content.New(f.pool, reg, content.Options{Now: f.now})
	// The notifications service finds the post of a liked comment through
	// the engagement service, built right after it.
	var svc *engagement.Service
	f.notes = notifications.NewService(f.pool, notifications.Options{
		CommentPost: func(ctx context.Context, id string) (string, error) { return svc.CommentItem(ctx, id) },
	})
	svc = engagement.New(f.pool, engagement.Options{Now: f.now, Notify: f.notes, CommentRate: rate, Rules: community.CommentRules(),
		Profiles: profiles.NewService(f.pool, nil, slog.New(slog.DiscardHandler))})
	f.svc = svc
	return f
}

// user creates an account with a profile named first.
func (f *commentsFixture) user(t testing.TB, first string) string {
	t.Helper()
	var id string
	err := f.pool.QueryRow(f.ctx, `WITH u AS (INSERT INTO users (email) VALUES ($1) RETURNING id)
		INSERT INTO profiles (user_id, first_name, last_name, title, verified) SELECT id, $2, 'Souza', 'Médica-veterinária', true FROM u
		RETURNING user_id::text`, fmt.Sprintf("u%d-%d@example.com", f.userNo.Add(1), rand.Int64()), first).Scan(&id)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// post publishes a community post written by author.
func (f *commentsFixture) post(t testing.TB, author string) string {
	t.Helper()
	return f.publish(t, community.TypeID, author)
}

func (f *commentsFixture) publish(t testing.TB, typeID, author string) string {
	t.Helper()
	it, _, err := f.store.Create(f.ctx, content.Actor{UserID: author, Channel: content.ChannelAPI}, typeID,
		content.Input{Title: "Post " + fmt.Sprint(rand.Int64())}, "")
	if err != nil {
		t.Fatal(err)
	}
	return it.ID
}

func (f *commentsFixture) comment(t testing.TB, user, item, parent, text string) engagement.Comment {
	t.Helper()
	c, created, err := f.svc.CreateComment(f.ctx, user, item, engagement.NewComment{Content: text, ParentID: parent})
	if err != nil || !created {
		t.Fatalf("comment %q: created=%v %v", text, created, err)
	}
	return c
}

// counter reads engagement_counters.comments and the real number of rows.
func (f *commentsFixture) counter(t testing.TB, item string) (counter, rows int64) {
	t.Helper()
	err := f.pool.QueryRow(f.ctx, `SELECT (SELECT comments FROM engagement_counters WHERE item_id = $1),
		(SELECT count(*) FROM engagement_comments WHERE item_id = $1)`, item).Scan(&counter, &rows)
	if err != nil {
		t.Fatal(err)
	}
	return counter, rows
}

func (f *commentsFixture) notices(t testing.TB, user string) []notifications.Notification {
	t.Helper()
	list, err := f.notes.List(f.ctx, user, 100)
	if err != nil {
		t.Fatal(err)
	}
	return list
}

func TestCommentReactionsStayExactUnder200ConcurrentToggles(t *testing.T) {
	f := newCommentsFixture(t, ratelimit.Rule{})
	author := f.user(t, "Ana")
	post := f.post(t, author)
	comments := []string{f.comment(t, author, post, "", "Primeiro").ID, f.comment(t, author, post, "", "Segundo").ID}
	users := make([]string, 12)
	for i := range users {
		users[i] = f.user(t, fmt.Sprintf("Leitor%d", i))
	}
	reactions := []engagement.Reaction{engagement.ReactionLike, engagement.ReactionDislike, engagement.ReactionNone}
	var wg sync.WaitGroup
	start := make(chan struct{})
	errs := make(chan error, 200)
	for i := range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			// a third of the toggles are one reader hammering one comment
			user, comment := users[rand.IntN(len(users))], comments[i%2]
			if i%3 == 0 {
				user, comment = users[0], comments[0]
			}
			out, err := f.svc.SetCommentReaction(f.ctx, user, comment, reactions[rand.IntN(3)])
			if err == nil && out.IsLiked && out.IsDisliked {
				err = fmt.Errorf("liked and disliked at once: %+v", out)
			}
			if err != nil {
				errs <- err
			}
		}()
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for _, c := range comments {
		var likes, dislikes, realLikes, realDislikes, rows, pairs int64
		err := f.pool.QueryRow(f.ctx, `SELECT c.likes_count, c.dislikes_count,
				(SELECT count(*) FROM engagement_comment_reactions WHERE comment_id = c.id AND like_type = 'like'),
				(SELECT count(*) FROM engagement_comment_reactions WHERE comment_id = c.id AND like_type = 'dislike'),
				(SELECT count(*) FROM engagement_comment_reactions WHERE comment_id = c.id),
				(SELECT count(DISTINCT user_id) FROM engagement_comment_reactions WHERE comment_id = c.id)
			FROM engagement_comments c WHERE c.id = $1`, c).Scan(&likes, &dislikes, &realLikes, &realDislikes, &rows, &pairs)
		if err != nil {
			t.Fatal(err)
		}
		if likes != realLikes || dislikes != realDislikes || rows != pairs {
			t.Fatalf("comment %s: counts %d/%d, rows %d/%d, %d rows for %d readers", c, likes, dislikes, realLikes, realDislikes, rows, pairs)
		}
	}
	// The listed flags agree with the rows.
	list, err := f.svc.Comments(f.ctx, users[0], post)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range list {
		var mine string
		_ = f.pool.QueryRow(f.ctx, `SELECT like_type FROM engagement_comment_reactions WHERE comment_id = $1 AND user_id = $2`, c.ID, users[0]).Scan(&mine)
		if c.IsLiked != (mine == "like") || c.IsDisliked != (mine == "dislike") {
			t.Fatalf("comment %s: flags %v/%v, row %q", c.ID, c.IsLiked, c.IsDisliked, mine)
		}
	}
}

func TestCommentLikeAndDislikeExcludeEachOther(t *testing.T) {
	f := newCommentsFixture(t, ratelimit.Rule{})
	a, b := f.user(t, "Ana"), f.user(t, "Bruno")
	c := f.comment(t, a, f.post(t, a), "", "Olá")
	for i, s := range []struct {
		r               engagement.Reaction
		likes, dislikes int64
		liked, disliked bool
	}{
		{engagement.ReactionLike, 1, 0, true, false},
		{engagement.ReactionLike, 1, 0, true, false}, // again: nothing moves
		{engagement.ReactionDislike, 0, 1, false, true},
		{engagement.ReactionNone, 0, 0, false, false},
		{engagement.ReactionNone, 0, 0, false, false},
		{engagement.ReactionDislike, 0, 1, false, true},
		{engagement.ReactionLike, 1, 0, true, false},
	} {
		out, err := f.svc.SetCommentReaction(f.ctx, b, c.ID, s.r)
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		want := engagement.CommentReactions{Likes: s.likes, Dislikes: s.dislikes, IsLiked: s.liked, IsDisliked: s.disliked}
		if out != want {
			t.Fatalf("step %d (%q): %+v, want %+v", i, s.r, out, want)
		}
	}
	if _, err := f.svc.SetCommentReaction(f.ctx, b, c.ID, "love"); core.ErrorCode(err) != core.EINVALID {
		t.Fatalf("unknown reaction: %v", err)
	}
	if _, err := f.svc.SetCommentReaction(f.ctx, b, "00000000-0000-0000-0000-000000000000", engagement.ReactionLike); core.ErrorCode(err) != core.ENOTFOUND {
		t.Fatalf("missing comment: %v", err)
	}
}

func TestRepliesAreOneLevelDeep(t *testing.T) {
	f := newCommentsFixture(t, ratelimit.Rule{})
	a, b := f.user(t, "Ana"), f.user(t, "Bruno")
	post := f.post(t, a)
	top := f.comment(t, a, post, "", "Pergunta")
	reply := f.comment(t, b, post, top.ID, "Resposta")
	if reply.ParentID == nil || *reply.ParentID != top.ID {
		t.Fatalf("reply parent %v", reply.ParentID)
	}
	_, _, err := f.svc.CreateComment(f.ctx, a, post, engagement.NewComment{Content: "Resposta à resposta", ParentID: reply.ID})
	if core.ErrorCode(err) != core.EINVALID || core.ErrorMessage(err) != engagement.MsgReplyDepth {
		t.Fatalf("reply to a reply: %v", err)
	}
	// The database refuses it whatever path writes it.
	_, err = f.pool.Exec(f.ctx, `INSERT INTO engagement_comments (item_id, parent_id, user_id, content) VALUES ($1, $2, $3, 'x')`,
		post, reply.ID, a)
	if err == nil || !strings.Contains(err.Error(), "engagement_comments_parent") {
		t.Fatalf("direct insert of a reply to a reply: %v", err)
	}
	// A parent must belong to the same item.
	other := f.post(t, a)
	if _, _, err := f.svc.CreateComment(f.ctx, a, other, engagement.NewComment{Content: "x", ParentID: top.ID}); core.ErrorCode(err) != core.ENOTFOUND {
		t.Fatalf("parent on another item: %v", err)
	}
	_, err = f.pool.Exec(f.ctx, `INSERT INTO engagement_comments (item_id, parent_id, user_id, content) VALUES ($1, $2, $3, 'x')`, other, top.ID, a)
	if err == nil {
		t.Fatal("database accepted a parent from another item")
	}
	if counter, rows := f.counter(t, post); counter != 2 || rows != 2 {
		t.Fatalf("refused replies counted: %d/%d", counter, rows)
	}
}

func TestEditSavesOnlyChangedTextAndOnlyTheAuthors(t *testing.T) {
	f := newCommentsFixture(t, ratelimit.Rule{})
	a, b := f.user(t, "Ana"), f.user(t, "Bruno")
	c := f.comment(t, a, f.post(t, a), "", "  Texto original  ")
	if c.Content != "Texto original" || c.IsEdited {
		t.Fatalf("created %+v", c)
	}
	f.advance(time.Minute)
	same, err := f.svc.EditComment(f.ctx, a, c.ID, "\n Texto original \t")
	if err != nil || same.IsEdited || !same.UpdatedAt.Equal(c.UpdatedAt) || same.Content != "Texto original" {
		t.Fatalf("unchanged edit: %+v %v", same, err)
	}
	if _, err := f.svc.EditComment(f.ctx, b, c.ID, "Invadido"); core.ErrorCode(err) != core.EFORBIDDEN || core.ErrorMessage(err) != engagement.MsgCommentEditForbidden {
		t.Fatalf("someone else's edit: %v", err)
	}
	if _, err := f.svc.EditComment(f.ctx, a, c.ID, "   "); core.ErrorCode(err) != core.EINVALID || core.ErrorMessage(err) != engagement.MsgCommentEmpty {
		t.Fatalf("blank edit: %v", err)
	}
	edited, err := f.svc.EditComment(f.ctx, a, c.ID, "Texto corrigido")
	if err != nil || !edited.IsEdited || edited.Content != "Texto corrigido" || !edited.UpdatedAt.Equal(f.now()) || !edited.CreatedAt.Equal(c.CreatedAt) {
		t.Fatalf("edit: %+v %v", edited, err)
	}
	if err := f.svc.DeleteComment(f.ctx, b, c.ID, false); core.ErrorCode(err) != core.EFORBIDDEN || core.ErrorMessage(err) != engagement.MsgCommentDeleteForbidden {
		t.Fatalf("someone else's delete: %v", err)
	}
	if _, _, err := f.svc.CreateComment(f.ctx, a, f.post(t, a), engagement.NewComment{Content: " \n "}); core.ErrorMessage(err) != engagement.MsgCommentEmpty {
		t.Fatalf("blank comment: %v", err)
	}
	if _, _, err := f.svc.CreateComment(f.ctx, a, f.post(t, a), engagement.NewComment{Content: strings.Repeat("é", engagement.MaxCommentLength+1)}); core.ErrorMessage(err) != engagement.MsgCommentTooLong {
		t.Fatalf("long comment: %v", err)
	}
}

func TestCommentsCountFollowsCreatesAndDeletesWithReplies(t *testing.T) {
	f := newCommentsFixture(t, ratelimit.Rule{Max: 1000, Window: time.Minute})
	a, b := f.user(t, "Ana"), f.user(t, "Bruno")
	post := f.post(t, a)
	check := func(want int64) {
		t.Helper()
		if counter, rows := f.counter(t, post); counter != want || rows != want {
			t.Fatalf("comments counter %d, rows %d, want %d", counter, rows, want)
		}
	}
	t1 := f.comment(t, a, post, "", "um")
	t2 := f.comment(t, b, post, "", "dois")
	f.comment(t, b, post, t1.ID, "r1")
	r2 := f.comment(t, a, post, t1.ID, "r2")
	f.comment(t, a, post, t2.ID, "r3")
	check(5)
	if err := f.svc.DeleteComment(f.ctx, a, r2.ID, false); err != nil {
		t.Fatal(err)
	}
	check(4)
	// Deleting a top-level comment takes its replies (someone else's too).
	if err := f.svc.DeleteComment(f.ctx, a, t1.ID, false); err != nil {
		t.Fatal(err)
	}
	check(2)
	if err := f.svc.DeleteComment(f.ctx, a, t1.ID, false); core.ErrorCode(err) != core.ENOTFOUND {
		t.Fatalf("second delete: %v", err)
	}
	// A moderator deletes anyone's.
	if err := f.svc.DeleteComment(f.ctx, a, t2.ID, true); err != nil {
		t.Fatal(err)
	}
	check(0)
	// Concurrent comments, replies and deletes keep it exact.
	var wg sync.WaitGroup
	tops := make(chan string, 40)
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, _, err := f.svc.CreateComment(f.ctx, []string{a, b}[i%2], post, engagement.NewComment{Content: fmt.Sprint("c", i)})
			if err != nil {
				t.Error(err)
				return
			}
			tops <- c.ID
		}()
	}
	wg.Wait()
	close(tops)
	var ids []string
	for id := range tops {
		ids = append(ids, id)
	}
	for i, id := range ids {
		wg.Add(2)
		go func() {
			defer wg.Done()
			if _, _, err := f.svc.CreateComment(f.ctx, b, post, engagement.NewComment{Content: "resposta", ParentID: id}); err != nil && core.ErrorCode(err) != core.ENOTFOUND {
				t.Error(err)
			}
		}()
		go func() {
			defer wg.Done()
			if i%2 == 0 {
				if err := f.svc.DeleteComment(f.ctx, "", id, true); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	counter, rows := f.counter(t, post)
	if counter != rows || rows < 20 {
		t.Fatalf("after concurrent writes: counter %d, rows %d", counter, rows)
	}
	// Deleting an account keeps its comments (author null) and the count.
	if _, err := f.pool.Exec(f.ctx, `DELETE FROM users WHERE id = $1`, b); err != nil {
		t.Fatal(err)
	}
	if c2, r2 := f.counter(t, post); c2 != counter || r2 != rows {
		t.Fatalf("after deleting an account: %d/%d", c2, r2)
	}
	list, err := f.svc.Comments(f.ctx, a, post)
	if err != nil {
		t.Fatal(err)
	}
	var orphan bool
	for _, c := range list {
		if c.Author == nil && !c.IsMine {
			orphan = true
		}
	}
	if !orphan {
		t.Fatal("no comment of the deleted account shows without author")
	}
}

func TestRetriedCreateReturnsTheFirstComment(t *testing.T) {
	f := newCommentsFixture(t, ratelimit.Rule{Max: 2, Window: time.Minute})
	a, b := f.user(t, "Ana"), f.user(t, "Bruno")
	post := f.post(t, a)
	var wg sync.WaitGroup
	var created atomic.Int32
	ids := make([]string, 8)
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, isNew, err := f.svc.CreateComment(f.ctx, b, post, engagement.NewComment{Content: "Parabéns!", IdempotencyKey: "k-1"})
			if err != nil && core.ErrorCode(err) != core.ERATELIMITED {
				t.Error(err)
				return
			}
			if isNew {
				created.Add(1)
			}
			ids[i] = c.ID
		}()
	}
	wg.Wait()
	var first string
	for _, id := range ids {
		if id != "" && first == "" {
			first = id
		}
		if id != "" && id != first {
			t.Fatalf("retries answered different comments: %v", ids)
		}
	}
	if created.Load() != 1 || first == "" {
		t.Fatalf("created %d times", created.Load())
	}
	if counter, rows := f.counter(t, post); counter != 1 || rows != 1 {
		t.Fatalf("retries made %d/%d comments", counter, rows)
	}
	// Later retries never count against the rate limit.
	for range 5 {
		c, isNew, err := f.svc.CreateComment(f.ctx, b, post, engagement.NewComment{Content: "Parabéns!", IdempotencyKey: "k-1"})
		if err != nil || isNew || c.ID != first {
			t.Fatalf("late retry: %v %v %v", c.ID, isNew, err)
		}
	}
	// The same key for another comment is a conflict.
	if _, _, err := f.svc.CreateComment(f.ctx, b, post, engagement.NewComment{Content: "Outro", IdempotencyKey: "k-1"}); core.ErrorCode(err) != core.ECONFLICT {
		t.Fatalf("key reused: %v", err)
	}
	// Keys are per member.
	if _, isNew, err := f.svc.CreateComment(f.ctx, a, post, engagement.NewComment{Content: "Parabéns!", IdempotencyKey: "k-1"}); err != nil || !isNew {
		t.Fatalf("another member's key: %v %v", isNew, err)
	}
	// Only the post's author heard of it, once.
	if n := f.notices(t, a); len(n) != 1 {
		t.Fatalf("author notices: %d", len(n))
	}
}

func TestCommentingIsRateLimited(t *testing.T) {
	f := newCommentsFixture(t, ratelimit.Rule{Max: 3, Window: time.Minute})
	a := f.user(t, "Ana")
	post := f.post(t, a)
	for i := range 3 {
		f.comment(t, a, post, "", fmt.Sprint("c", i))
	}
	_, _, err := f.svc.CreateComment(f.ctx, a, post, engagement.NewComment{Content: "spam"})
	after, ok := engagement.RetryAfter(err)
	if core.ErrorCode(err) != core.ERATELIMITED || core.ErrorMessage(err) != engagement.MsgCommentRateLimited || !ok || after <= 0 || after > time.Minute {
		t.Fatalf("4th comment in a minute: %v (retry after %v)", err, after)
	}
	if counter, rows := f.counter(t, post); counter != 3 || rows != 3 {
		t.Fatalf("refused comment stored: %d/%d", counter, rows)
	}
	// Another member is not limited by Ana's burst; Ana may go on in the next window.
	f.comment(t, f.user(t, "Bruno"), post, "", "oi")
	f.advance(after)
	f.comment(t, a, post, "", "de novo")
}

func TestCommentNoticesGoOutOncePerActorAndTarget(t *testing.T) {
	f := newCommentsFixture(t, ratelimit.Rule{Max: 100, Window: time.Minute})
	ana, bruno, carla := f.user(t, "Ana"), f.user(t, "Bruno"), f.user(t, "Carla")
	post := f.post(t, ana)

	// Ana comments on her own post: nobody is told.
	own := f.comment(t, ana, post, "", "Meu post")
	if n := f.notices(t, ana); len(n) != 0 {
		t.Fatalf("self notice: %+v", n)
	}
	// Bruno comments twice: Ana is told once.
	bc := f.comment(t, bruno, post, "", "Ótimo caso")
	f.comment(t, bruno, post, "", "Mais uma coisa")
	n := f.notices(t, ana)
	if len(n) != 1 || n[0].Type != "comment" || *n[0].RelatedUserID != bruno || *n[0].RelatedPostID != post ||
		*n[0].RelatedCommentID != bc.ID || n[0].Link != "/community?post="+post || n[0].Message != "Bruno Souza comentou seu post" {
		t.Fatalf("post author notices: %+v", n)
	}
	// Carla replies to Bruno's comment: Bruno hears of the reply, Ana of a
	// comment on her post (folded with Bruno's: one unread notice).
	reply := f.comment(t, carla, post, bc.ID, "Concordo")
	nb := f.notices(t, bruno)
	if len(nb) != 1 || nb[0].Type != "comment" || *nb[0].RelatedCommentID != reply.ID || nb[0].Message != "Carla Souza respondeu seu comentário" {
		t.Fatalf("parent author notices: %+v", nb)
	}
	if n := f.notices(t, ana); len(n) != 1 || n[0].GroupCount != 2 {
		t.Fatalf("post author after a second commenter: %+v", n)
	}
	// Carla replies to Ana's own comment on Ana's post: one notice (the reply's).
	f.comment(t, carla, post, own.ID, "Oi Ana")
	var anaRows int
	_ = f.pool.QueryRow(f.ctx, `SELECT count(*) FROM notifications WHERE user_id = $1`, ana).Scan(&anaRows)
	if anaRows != 2 {
		t.Fatalf("Ana has %d notification rows, want the folded comment and the reply", anaRows)
	}
	// Bruno replies to his own comment: nobody new is told.
	f.comment(t, bruno, post, bc.ID, "Complementando")
	if nb := f.notices(t, bruno); len(nb) != 1 {
		t.Fatalf("self reply told Bruno: %+v", nb)
	}

	// Likes: Carla likes Bruno's comment, takes it back and likes it again,
	// dislikes it, likes it again: one notice. Bruno liking his own: none.
	for _, r := range []engagement.Reaction{engagement.ReactionLike, engagement.ReactionNone, engagement.ReactionLike,
		engagement.ReactionDislike, engagement.ReactionLike} {
		if _, err := f.svc.SetCommentReaction(f.ctx, carla, bc.ID, r); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.svc.SetCommentReaction(f.ctx, bruno, bc.ID, engagement.ReactionLike); err != nil {
		t.Fatal(err)
	}
	var likes int
	_ = f.pool.QueryRow(f.ctx, `SELECT count(*) FROM notifications WHERE type = 'like'`).Scan(&likes)
	if likes != 1 {
		t.Fatalf("%d like notifications", likes)
	}
	var like notifications.Notification
	for _, x := range f.notices(t, bruno) {
		if x.Type == "like" {
			like = x
		}
	}
	// The like is stored without its post; the list finds it.
	if like.RelatedCommentID == nil || *like.RelatedCommentID != bc.ID || like.RelatedPostID == nil || *like.RelatedPostID != post ||
		*like.RelatedUserID != carla || like.Message != "Carla Souza curtiu seu comentário" {
		t.Fatalf("like notice: %+v", like)
	}
	var stored *string
	_ = f.pool.QueryRow(f.ctx, `SELECT related_post_id::text FROM notifications WHERE id = $1`, like.ID).Scan(&stored)
	if stored != nil {
		t.Fatalf("like stored with post %v", *stored)
	}

	// Comments on other types tell nobody (their authors are the editorial team).
	video := f.publish(t, "videos", ana)
	f.comment(t, bruno, video, "", "Boa aula")
	if n := f.notices(t, ana); len(n) != 2 {
		t.Fatalf("a comment on a video told its author: %d", len(n))
	}
}

func TestCommentListOrderFlagsAndVisibility(t *testing.T) {
	f := newCommentsFixture(t, ratelimit.Rule{Max: 100, Window: time.Minute})
	ana, bruno, carla := f.user(t, "Ana"), f.user(t, "Bruno"), f.user(t, "Carla")
	post := f.post(t, ana)
	t1 := f.comment(t, ana, post, "", "primeiro")
	f.advance(time.Second)
	t2 := f.comment(t, bruno, post, "", "segundo")
	f.advance(time.Second)
	r1 := f.comment(t, carla, post, t1.ID, "r1")
	f.advance(time.Second)
	r2 := f.comment(t, bruno, post, t1.ID, "r2")
	if _, err := f.svc.SetCommentReaction(f.ctx, ana, t2.ID, engagement.ReactionLike); err != nil {
		t.Fatal(err)
	}
	list, err := f.svc.Comments(f.ctx, ana, post)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != t2.ID || list[1].ID != t1.ID {
		t.Fatalf("top level not newest first: %+v", list)
	}
	if len(list[1].Replies) != 2 || list[1].Replies[0].ID != r1.ID || list[1].Replies[1].ID != r2.ID || len(list[0].Replies) != 0 {
		t.Fatalf("replies not oldest first: %+v", list[1].Replies)
	}
	if !list[0].IsLiked || list[0].Likes != 1 || list[0].IsMine || !list[1].IsMine || list[1].Replies[0].Replies == nil {
		t.Fatalf("flags: %+v", list)
	}
	a := list[0].Author
	if a == nil || a.ID != bruno || a.FirstName != "Bruno" || a.LastName != "Souza" || !a.Verified || a.AvatarURL != nil || a.Title == nil {
		t.Fatalf("author %+v", a)
	}
	// A visitor reads the same comments with no flags.
	anon, err := f.svc.Comments(f.ctx, "", post)
	if err != nil || len(anon) != 2 || anon[0].IsLiked || anon[1].IsMine {
		t.Fatalf("visitor: %+v %v", anon, err)
	}

	// Blocks hide comments both ways, with the replies under them.
	if _, err := f.pool.Exec(f.ctx, `INSERT INTO user_blocks (blocker_id, blocked_id) VALUES ($1, $2)`, carla, bruno); err != nil {
		t.Fatal(err)
	}
	forCarla, _ := f.svc.Comments(f.ctx, carla, post)
	forBruno, _ := f.svc.Comments(f.ctx, bruno, post)
	// Carla loses Bruno's comment; Bruno keeps his own but loses Carla's reply.
	if len(forCarla) != 1 || forCarla[0].ID != t1.ID || len(forCarla[0].Replies) != 1 || forCarla[0].Replies[0].ID != r1.ID {
		t.Fatalf("Carla sees %+v", forCarla)
	}
	if len(forBruno) != 2 || forBruno[1].ID != t1.ID || len(forBruno[1].Replies) != 1 || forBruno[1].Replies[0].ID != r2.ID {
		t.Fatalf("Bruno sees %+v", forBruno)
	}
	if _, err := f.svc.SetCommentReaction(f.ctx, carla, t2.ID, engagement.ReactionLike); core.ErrorCode(err) != core.ENOTFOUND {
		t.Fatalf("reaction to a blocked member's comment: %v", err)
	}
	if _, _, err := f.svc.CreateComment(f.ctx, carla, post, engagement.NewComment{Content: "x", ParentID: t2.ID}); core.ErrorCode(err) != core.ENOTFOUND {
		t.Fatalf("reply to a blocked member's comment: %v", err)
	}
	if all, _ := f.svc.Comments(f.ctx, ana, post); len(all) != 2 || len(all[1].Replies) != 2 {
		t.Fatalf("a third member lost comments: %+v", all)
	}
	// Blocking the post's author closes the post's comments.
	if _, err := f.pool.Exec(f.ctx, `INSERT INTO user_blocks (blocker_id, blocked_id) VALUES ($1, $2)`, ana, carla); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Comments(f.ctx, carla, post); core.ErrorCode(err) != core.ENOTFOUND {
		t.Fatalf("comments of a post by someone who blocked the reader: %v", err)
	}

	// Moderation hides a comment (with its replies) and a whole post.
	if _, err := f.pool.Exec(f.ctx, `INSERT INTO moderation_targets (target_type, target_id, state) VALUES ('comment', $1, 'oculto')`, t1.ID); err != nil {
		t.Fatal(err)
	}
	if l, _ := f.svc.Comments(f.ctx, ana, post); len(l) != 1 || l[0].ID != t2.ID {
		t.Fatalf("hidden comment listed: %+v", l)
	}
	if _, err := f.svc.SetCommentReaction(f.ctx, bruno, t1.ID, engagement.ReactionLike); core.ErrorCode(err) != core.ENOTFOUND {
		t.Fatalf("reaction to a hidden comment: %v", err)
	}
	if _, err := f.pool.Exec(f.ctx, `INSERT INTO moderation_targets (target_type, target_id, state) VALUES ('post', $1, 'removido')`, post); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Comments(f.ctx, ana, post); core.ErrorCode(err) != core.ENOTFOUND {
		t.Fatalf("comments of a removed post: %v", err)
	}
	if _, _, err := f.svc.CreateComment(f.ctx, ana, post, engagement.NewComment{Content: "x"}); core.ErrorCode(err) != core.ENOTFOUND {
		t.Fatalf("comment on a removed post: %v", err)
	}
}

func TestOnlyPublishedItemsTakeComments(t *testing.T) {
	f := newCommentsFixture(t, ratelimit.Rule{})
	reg := content.NewRegistry()
	if err := reg.Register(content.Type{ID: "artigos", Singular: "Artigo", Plural: "Artigos"}); err != nil {
		t.Fatal(err)
	}
	store := content.New(f.pool, reg, content.Options{Now: f.now})
	a := f.user(t, "Ana")
	draft, _, err := store.Create(f.ctx, content.Actor{UserID: a, Channel: content.ChannelAPI}, "artigos", content.Input{Title: "Rascunho"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.svc.CreateComment(f.ctx, a, draft.ID, engagement.NewComment{Content: "x"}); core.ErrorCode(err) != core.ENOTFOUND {
		t.Fatalf("comment on a draft: %v", err)
	}
	if _, err := f.svc.Comments(f.ctx, a, draft.ID); core.ErrorCode(err) != core.ENOTFOUND {
		t.Fatalf("comments of a draft: %v", err)
	}
}
