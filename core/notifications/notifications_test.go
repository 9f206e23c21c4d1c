package notifications_test

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
	"github.com/vetclube/vetclube/core/profiles"
	"github.com/vetclube/vetclube/core/push"
	"github.com/vetclube/vetclube/core/push/pushtest"
)

type env struct {
	pool *pgxpool.Pool
	svc  *notifications.Service
	push *push.Service
	ps   *pushtest.Server
	now  time.Time
}

// newEnv builds the service as the app does: real profiles and push (to a
// local push service) on a private database, with a fixed clock.
func newEnv(t *testing.T, commentPost notifications.CommentPostFunc) *env {
	t.Helper()
	pool := pgtest.New(t)
	keys, err := push.GenerateKeys()
	if err != nil {
		t.Fatal(err)
	}
	ps := pushtest.NewServer()
	t.Cleanup(ps.Close)
	e := &env{pool: pool, ps: ps, now: time.Now()}
	e.push = push.New(pool, push.Options{Keys: &keys, AllowLocalServices: true})
	e.svc = notifications.NewService(pool, notifications.Options{
		Push:        e.push,
		Profiles:    profiles.NewService(pool, nil, slog.New(slog.DiscardHandler)),
		CommentPost: commentPost,
		Now:         func() time.Time { return e.now },
	})
	return e
}

// member creates a user with a profile.
func (e *env) member(t *testing.T, first, last string) string {
	t.Helper()
	ctx := context.Background()
	var id string
	if err := e.pool.QueryRow(ctx, `INSERT INTO users (email) VALUES ($1) RETURNING id`, strings.ToLower(first+"."+last)+"@example.com").Scan(&id); err != nil {
		t.Fatal(err)
	}
	if _, err := e.pool.Exec(ctx, `INSERT INTO profiles (user_id, first_name, last_name, avatar_url) VALUES ($1, $2, $3, $4)`,
		id, first, last, "https://cdn.example.com/"+first+".png"); err != nil {
		t.Fatal(err)
	}
	return id
}

func (e *env) device(t *testing.T, userID, name string) {
	t.Helper()
	if _, _, err := e.push.Subscribe(context.Background(), userID, e.ps.NewDevice(name).Subscription(), ""); err != nil {
		t.Fatal(err)
	}
}

func (e *env) count(t *testing.T, sql string, args ...any) int {
	t.Helper()
	var n int
	if err := e.pool.QueryRow(context.Background(), sql, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestLegacyCreateIsIdempotentAndPublishes(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	user := e.member(t, "Nina", "Souza")
	first, created, err := e.svc.Create(ctx, user, "checkin", "Título", "Mensagem", "key-1")
	if err != nil || !created {
		t.Fatalf("create: %v %v", created, err)
	}
	again, created, err := e.svc.Create(ctx, user, "checkin", "Título", "Mensagem", "key-1")
	if err != nil || created || again.ID != first.ID {
		t.Fatalf("retry: created=%v id=%s err=%v", created, again.ID, err)
	}
	if n := e.count(t, `SELECT count(*) FROM user_events WHERE user_id = $1 AND type = $2`, user, notifications.EventCreated); n != 1 {
		t.Fatalf("%d events, want 1", n)
	}
	if _, err := e.svc.Send(ctx, notifications.Notice{UserID: user, Type: "like", Title: "x", Message: "y", RelatedPostID: "not-a-uuid"}); err == nil {
		t.Fatal("a malformed post id was stored")
	}
}

func TestReleaseAtHoldsPushUntilTheEndOfQuietHours(t *testing.T) {
	sp, _ := time.LoadLocation("America/Sao_Paulo")
	manaus, _ := time.LoadLocation("America/Manaus")
	p := notifications.Preferences{QuietHoursStart: "22:00", QuietHoursEnd: "07:00", TimeZone: "America/Sao_Paulo"}
	cases := []struct {
		now, want time.Time
		prefs     notifications.Preferences
	}{
		{time.Date(2026, 3, 10, 23, 30, 0, 0, sp), time.Date(2026, 3, 11, 7, 0, 0, 0, sp), p},
		{time.Date(2026, 3, 10, 2, 15, 0, 0, sp), time.Date(2026, 3, 10, 7, 0, 0, 0, sp), p},
		{time.Date(2026, 3, 10, 7, 0, 0, 0, sp), time.Date(2026, 3, 10, 7, 0, 0, 0, sp), p},
		{time.Date(2026, 3, 10, 21, 59, 0, 0, sp), time.Date(2026, 3, 10, 21, 59, 0, 0, sp), p},
		// The member's zone decides: 22:30 in São Paulo is 21:30 in Manaus.
		{time.Date(2026, 3, 10, 22, 30, 0, 0, sp), time.Date(2026, 3, 10, 22, 30, 0, 0, sp),
			notifications.Preferences{QuietHoursStart: "22:00", QuietHoursEnd: "07:00", TimeZone: "America/Manaus"}},
		{time.Date(2026, 3, 10, 23, 30, 0, 0, manaus), time.Date(2026, 3, 11, 7, 0, 0, 0, manaus),
			notifications.Preferences{QuietHoursStart: "22:00", QuietHoursEnd: "07:00", TimeZone: "America/Manaus"}},
		// A window within one day; equal ends mean no quiet hours.
		{time.Date(2026, 3, 10, 13, 30, 0, 0, sp), time.Date(2026, 3, 10, 15, 0, 0, 0, sp),
			notifications.Preferences{QuietHoursStart: "13:00", QuietHoursEnd: "15:00", TimeZone: "America/Sao_Paulo"}},
		{time.Date(2026, 3, 10, 23, 30, 0, 0, sp), time.Date(2026, 3, 10, 23, 30, 0, 0, sp),
			notifications.Preferences{QuietHoursStart: "00:00", QuietHoursEnd: "00:00", TimeZone: "America/Sao_Paulo"}},
	}
	for _, c := range cases {
		if got := c.prefs.ReleaseAt(c.now); !got.Equal(c.want) {
			t.Errorf("%v %+v: release %v, want %v", c.now, c.prefs, got, c.want)
		}
	}
}

// TestPreferencesMuteTypesAndHoldPushes: a muted type is neither stored nor
// pushed; at night the in-app notification appears at once and its push
// waits for 07:00 in the member's zone; push off stores in-app only.
func TestPreferencesMuteTypesAndHoldPushes(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	ana, bia := e.member(t, "Ana", "Lima"), e.member(t, "Bia", "Reis")
	e.device(t, ana, "ana-phone")
	e.device(t, ana, "ana-laptop")

	p, err := e.svc.Preferences(ctx, ana)
	if err != nil {
		t.Fatal(err)
	}
	want := notifications.Preferences{PushEnabled: true, ConnectionsEnabled: true, CommentsEnabled: true, LikesEnabled: true,
		ChallengesEnabled: true, CoursesEnabled: true, CommunityEnabled: true, MarketingEnabled: false,
		QuietHoursStart: "22:00", QuietHoursEnd: "07:00", TimeZone: "America/Sao_Paulo"}
	if p != want {
		t.Fatalf("defaults %+v (marketing must wait for the member's opt-in)", p)
	}
	if n, err := e.svc.Send(ctx, notifications.Notice{UserID: ana, Type: "marketing", Title: "Oferta", Message: "m"}); err != nil || n.ID != "" {
		t.Fatalf("marketing reached a member who never opted in: %+v %v", n, err)
	}
	off := false
	// Saving another switch stores a row: marketing stays off in it.
	if p, err = e.svc.UpdatePreferences(ctx, ana, notifications.PreferencesPatch{LikesEnabled: &off}); err != nil || p.LikesEnabled || !p.CommentsEnabled || p.MarketingEnabled {
		t.Fatalf("mute likes: %+v %v", p, err)
	}
	n, err := e.svc.Send(ctx, notifications.Notice{UserID: ana, Type: "like", Title: "Nova curtida", Message: "Bia curtiu seu post", RelatedUserID: bia})
	if err != nil || n.ID != "" {
		t.Fatalf("muted like: %+v %v", n, err)
	}
	if c := e.count(t, `SELECT count(*) FROM notifications WHERE user_id = $1`, ana); c != 0 {
		t.Fatalf("%d notifications stored for a muted type", c)
	}
	if c := e.count(t, `SELECT count(*) FROM push_deliveries`); c != 0 {
		t.Fatalf("%d pushes for a muted type", c)
	}

	// 23:30 in São Paulo: in-app now, push at 07:00 on both devices.
	sp, _ := time.LoadLocation("America/Sao_Paulo")
	// A night ahead of the database clock (deliveries are never due in the past).
	day := time.Now().In(sp).AddDate(0, 0, 2)
	e.now = time.Date(day.Year(), day.Month(), day.Day(), 23, 30, 0, 0, sp)
	n, err = e.svc.Send(ctx, notifications.Notice{UserID: ana, Type: "comment", Title: "Novo comentário", Message: "Bia comentou seu post", RelatedUserID: bia})
	if err != nil || n.ID == "" {
		t.Fatalf("comment: %+v %v", n, err)
	}
	if c := e.count(t, `SELECT count(*) FROM user_events WHERE user_id = $1 AND type = 'notification.created'`, ana); c != 1 {
		t.Errorf("%d live events, want 1 at once", c)
	}
	release := time.Date(day.Year(), day.Month(), day.Day()+1, 7, 0, 0, 0, sp)
	if c := e.count(t, `SELECT count(*) FROM push_deliveries WHERE notification_id = $1 AND next_attempt_at = $2 AND status = 'pending'`, n.ID, release); c != 2 {
		t.Errorf("%d pushes held until %v, want 2 (one per device)", c, release)
	}

	// Push off: in-app only.
	if _, err := e.svc.UpdatePreferences(ctx, ana, notifications.PreferencesPatch{PushEnabled: &off}); err != nil {
		t.Fatal(err)
	}
	e.now = time.Date(day.Year(), day.Month(), day.Day()+1, 12, 0, 0, 0, sp)
	n, err = e.svc.Send(ctx, notifications.Notice{UserID: ana, Type: "connection", Title: "Nova conexão", Message: "Bia quer se conectar"})
	if err != nil || n.ID == "" {
		t.Fatal(err)
	}
	if c := e.count(t, `SELECT count(*) FROM push_deliveries WHERE notification_id = $1`, n.ID); c != 0 {
		t.Errorf("%d pushes with push off", c)
	}
	on := true
	if p, err = e.svc.UpdatePreferences(ctx, ana, notifications.PreferencesPatch{MarketingEnabled: &on}); err != nil || !p.MarketingEnabled {
		t.Fatalf("opt in to marketing: %+v %v", p, err)
	}
	if n, err := e.svc.Send(ctx, notifications.Notice{UserID: ana, Type: "marketing", Title: "Oferta", Message: "m"}); err != nil || n.ID == "" {
		t.Fatalf("marketing after the opt-in: %+v %v", n, err)
	}
	// Types without a switch are always on.
	everythingOff := notifications.PreferencesPatch{}
	for _, f := range []**bool{&everythingOff.ConnectionsEnabled, &everythingOff.CommentsEnabled, &everythingOff.ChallengesEnabled,
		&everythingOff.CoursesEnabled, &everythingOff.CommunityEnabled, &everythingOff.MarketingEnabled} {
		*f = &off
	}
	if _, err := e.svc.UpdatePreferences(ctx, ana, everythingOff); err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"checkin", "other", "event", "plugin"} {
		if n, err := e.svc.Send(ctx, notifications.Notice{UserID: ana, Type: kind, Title: "t", Message: "m"}); err != nil || n.ID == "" {
			t.Errorf("%s was muted: %v", kind, err)
		}
	}
	for _, kind := range []string{"connection", "comment", "challenge", "course", "community", "post", "marketing"} {
		if n, err := e.svc.Send(ctx, notifications.Notice{UserID: ana, Type: kind, Title: "t", Message: "m"}); err != nil || n.ID != "" {
			t.Errorf("%s was not muted: %v", kind, err)
		}
	}
	// Bad input is refused with pt-BR reasons.
	bad := "25:00"
	zone := "Marte/Olympus"
	if _, err := e.svc.UpdatePreferences(ctx, ana, notifications.PreferencesPatch{QuietHoursStart: &bad, TimeZone: &zone}); err == nil {
		t.Error("bad quiet hours and zone accepted")
	}
}

// TestGroupingFoldsLikesIntoOneUnreadNotification, also when the likes
// arrive at once.
func TestGroupingFoldsLikesIntoOneUnreadNotification(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	owner := e.member(t, "Dora", "Alves")
	ana, bia, caio := e.member(t, "Ana", "Lima"), e.member(t, "Bia", "Reis"), e.member(t, "Caio", "Melo")
	post := "6f1c1d36-8a8e-4b55-9c0e-1a1f5e9d0a01"
	like := func(actor, name string) notifications.Notification {
		t.Helper()
		n, err := e.svc.Send(ctx, notifications.Notice{UserID: owner, Type: "like", Title: "Nova curtida", Message: name + " curtiu seu post",
			RelatedUserID: actor, RelatedPostID: post, Link: "/comunidade?post=" + post, GroupKey: "like:post:" + post})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	first := like(ana, "Ana")
	if first.GroupCount != 1 || first.Message != "Ana curtiu seu post" {
		t.Fatalf("first like: %+v", first)
	}
	like(bia, "Bia")
	again := like(bia, "Bia") // the same person again does not count twice
	if again.ID != first.ID || again.GroupCount != 2 || again.Message != "Bia e mais 1 pessoa curtiram seu post" {
		t.Fatalf("second actor: %+v", again)
	}
	third := like(caio, "Caio")
	if third.ID != first.ID || third.GroupCount != 3 || third.Message != "Caio e mais 2 pessoas curtiram seu post" ||
		third.RelatedUser == nil || third.RelatedUser.FirstName != "Caio" {
		t.Fatalf("third actor: %+v", third)
	}
	if c := e.count(t, `SELECT count(*) FROM notifications WHERE user_id = $1`, owner); c != 1 {
		t.Fatalf("%d rows, want 1", c)
	}
	// Reading it closes the group: the next like starts a new one.
	if err := e.svc.MarkRead(ctx, owner, first.ID); err != nil {
		t.Fatal(err)
	}
	next := like(e.member(t, "Edu", "Paz"), "Edu")
	if next.ID == first.ID || next.GroupCount != 1 {
		t.Fatalf("after read: %+v", next)
	}

	// 30 likes at once on another post: one row counting 30.
	post2 := "6f1c1d36-8a8e-4b55-9c0e-1a1f5e9d0a02"
	actors := make([]string, 30)
	for i := range actors {
		actors[i] = e.member(t, fmt.Sprintf("Pessoa%02d", i), "Teste")
	}
	var wg sync.WaitGroup
	for i, a := range actors {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := e.svc.Send(ctx, notifications.Notice{UserID: owner, Type: "like", Title: "Nova curtida",
				Message: fmt.Sprintf("Pessoa%02d curtiu seu post", i), RelatedUserID: a, RelatedPostID: post2, GroupKey: "like:post:" + post2})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	var count int
	var msg string
	if err := e.pool.QueryRow(ctx, `SELECT count(*), max(group_count), max(message) FROM notifications WHERE user_id = $1 AND group_key = $2`,
		owner, "like:post:"+post2).Scan(&count, new(int), &msg); err != nil {
		t.Fatal(err)
	}
	var groupCount int
	_ = e.pool.QueryRow(ctx, `SELECT group_count FROM notifications WHERE user_id = $1 AND group_key = $2`, owner, "like:post:"+post2).Scan(&groupCount)
	if count != 1 || groupCount != 30 {
		t.Fatalf("concurrent likes: %d rows, group_count %d", count, groupCount)
	}
	if want := " e mais 29 pessoas curtiram seu post"; len(msg) < len(want) || msg[len(msg)-len(want):] != want {
		t.Errorf("group message %q", msg)
	}
}

// TestListEnrichesTheRelatedUserAndTheLikedCommentsPost.
func TestListEnrichesTheRelatedUserAndTheLikedCommentsPost(t *testing.T) {
	comment := "0b7e4c4a-1d2e-4f3a-9b8c-7d6e5f4a3b2c"
	post := "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"
	lookups := 0
	e := newEnv(t, func(_ context.Context, commentID string) (string, error) {
		lookups++
		if commentID == comment {
			return post, nil
		}
		return "", nil
	})
	ctx := context.Background()
	owner, ana := e.member(t, "Dora", "Alves"), e.member(t, "Ana", "Lima")
	if _, err := e.svc.Send(ctx, notifications.Notice{UserID: owner, Type: "like", Title: "Nova curtida", Message: "Ana curtiu seu comentário",
		RelatedUserID: ana, RelatedCommentID: comment}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Send(ctx, notifications.Notice{UserID: owner, Type: "other", Title: "Sistema", Message: "Sem autor"}); err != nil {
		t.Fatal(err)
	}
	list, err := e.svc.List(ctx, owner, 50)
	if err != nil || len(list) != 2 {
		t.Fatalf("list %+v %v", list, err)
	}
	var liked, system notifications.Notification
	for _, n := range list {
		if n.Type == "like" {
			liked = n
		} else {
			system = n
		}
	}
	want := notifications.RelatedUser{ID: ana, FirstName: "Ana", LastName: "Lima", AvatarURL: "https://cdn.example.com/Ana.png"}
	if liked.RelatedUser == nil || *liked.RelatedUser != want {
		t.Errorf("related user %+v, want %+v", liked.RelatedUser, want)
	}
	if liked.RelatedPostID == nil || *liked.RelatedPostID != post {
		t.Errorf("post of the liked comment: %v", liked.RelatedPostID)
	}
	if system.RelatedUser != nil || system.RelatedPostID != nil {
		t.Errorf("a notification without actor was enriched: %+v", system)
	}
	// Without a lookup (comments not built yet) the post id stays null.
	bare := notifications.NewService(e.pool, notifications.Options{})
	list, _ = bare.List(ctx, owner, 50)
	for _, n := range list {
		if n.Type == "like" && (n.RelatedPostID != nil || n.RelatedUser != nil) {
			t.Errorf("enriched without dependencies: %+v", n)
		}
	}
}

// TestSendManyFansOutOncePerRecipient: a retried broadcast stores and pushes
// nobody twice; muted members are skipped.
func TestSendManyFansOutOncePerRecipient(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	var users []string
	for i := range 1200 {
		var id string
		if err := e.pool.QueryRow(ctx, `INSERT INTO users (email) VALUES ($1) RETURNING id`, fmt.Sprintf("u%d@example.com", i)).Scan(&id); err != nil {
			t.Fatal(err)
		}
		users = append(users, id)
	}
	for _, u := range users[:3] {
		e.device(t, u, "d-"+u)
	}
	off := false
	if _, err := e.svc.UpdatePreferences(ctx, users[5], notifications.PreferencesPatch{ChallengesEnabled: &off}); err != nil {
		t.Fatal(err)
	}
	in := notifications.Notice{Type: "challenge", Title: "Novo desafio", Message: "Participe do desafio da semana", Link: "/desafios", IdempotencyKey: "challenge:42"}
	b, err := e.svc.SendMany(ctx, in, users)
	if err != nil {
		t.Fatal(err)
	}
	if b.Stored != 1199 || b.Muted != 1 || b.Pushes != 3 || b.MessageID == "" {
		t.Fatalf("broadcast %+v", b)
	}
	again, err := e.svc.SendMany(ctx, in, users)
	if err != nil || again.Stored != 0 || again.Pushes != 0 {
		t.Fatalf("retry %+v %v", again, err)
	}
	if c := e.count(t, `SELECT count(*) FROM user_events WHERE type = 'notification.created'`); c != 1199 {
		t.Errorf("%d live events, want 1199", c)
	}
}

// A push held for the end of quiet hours is dropped once the member has
// read or deleted its notification in the app: it would only repeat what
// they have seen. Other notifications' pushes stay held.
func TestReadingOrDeletingWithdrawsHeldPushes(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	ana, bia := e.member(t, "Ana", "Lima"), e.member(t, "Bia", "Reis")
	e.device(t, ana, "ana-phone")
	sp, _ := time.LoadLocation("America/Sao_Paulo")
	day := time.Now().In(sp).AddDate(0, 0, 2)
	e.now = time.Date(day.Year(), day.Month(), day.Day(), 23, 30, 0, 0, sp)
	send := func(msg string) string {
		t.Helper()
		n, err := e.svc.Send(ctx, notifications.Notice{UserID: ana, Type: "comment", Title: "Novo comentário", Message: msg, RelatedUserID: bia})
		if err != nil || n.ID == "" {
			t.Fatalf("send: %+v %v", n, err)
		}
		return n.ID
	}
	read, deleted, kept := send("um"), send("dois"), send("três")
	bodyOf := map[string]string{read: "um", deleted: "dois", kept: "três"}
	pushStatus := func(id string) string {
		t.Helper()
		var s string
		if err := e.pool.QueryRow(ctx, `SELECT d.status FROM push_deliveries d JOIN push_messages m ON m.id = d.message_id
			WHERE m.body = $1`, bodyOf[id]).Scan(&s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	if err := e.svc.MarkRead(ctx, ana, read); err != nil {
		t.Fatal(err)
	}
	if err := e.svc.Delete(ctx, ana, deleted); err != nil {
		t.Fatal(err)
	}
	if got := []string{pushStatus(read), pushStatus(deleted), pushStatus(kept)}; got[0] != "withdrawn" || got[1] != "withdrawn" || got[2] != "pending" {
		t.Fatalf("push statuses read/deleted/kept = %v", got)
	}
	if err := e.svc.MarkAllRead(ctx, ana); err != nil {
		t.Fatal(err)
	}
	if s := pushStatus(kept); s != "withdrawn" {
		t.Fatalf("after 'mark all read' the held push is %s", s)
	}
	// Nothing is left for the worker to send to Ana's phone.
	if c := e.count(t, `SELECT count(*) FROM push_deliveries WHERE user_id = $1 AND status = 'pending'`, ana); c != 0 {
		t.Fatalf("%d pushes still pending", c)
	}
}
