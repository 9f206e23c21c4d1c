package notifications_test

import (
	"context"
	"testing"

	"github.com/vetclube/vetclube/core/notifications"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
)

func TestCreateIsIdempotentAndPublishes(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	var user string
	if err := pool.QueryRow(ctx, `INSERT INTO users (email) VALUES ('n@example.com') RETURNING id`).Scan(&user); err != nil {
		t.Fatal(err)
	}
	s := notifications.New(pool)
	first, created, err := s.Create(ctx, user, "checkin", "Título", "Mensagem", "key-1")
	if err != nil || !created {
		t.Fatalf("create: %v %v", created, err)
	}
	again, created, err := s.Create(ctx, user, "checkin", "Título", "Mensagem", "key-1")
	if err != nil || created || again.ID != first.ID {
		t.Fatalf("retry: created=%v id=%s err=%v", created, again.ID, err)
	}
	if _, _, err := s.Create(ctx, user, "other", "Outro", "Sem chave", ""); err != nil {
		t.Fatal(err)
	}
	list, err := s.List(ctx, user, 10)
	if err != nil || len(list) != 2 {
		t.Fatalf("list %+v err %v", list, err)
	}
	var published int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM user_events WHERE user_id = $1 AND type = $2`, user, notifications.EventCreated).Scan(&published); err != nil {
		t.Fatal(err)
	}
	if published != 2 {
		t.Fatalf("%d notification events, want 2 (one per new notification)", published)
	}
}

func TestSendStoresTargetsOnceAndPublishes(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	var user, actor string
	if err := pool.QueryRow(ctx, `INSERT INTO users (email) VALUES ('s@example.com') RETURNING id`).Scan(&user); err != nil {
		t.Fatal(err)
	}
	if err := pool.QueryRow(ctx, `INSERT INTO users (email) VALUES ('a@example.com') RETURNING id`).Scan(&actor); err != nil {
		t.Fatal(err)
	}
	s := notifications.New(pool)
	in := notifications.Notice{UserID: user, Type: "connection", Title: "Nova conexão", Message: "Ana quer se conectar",
		RelatedUserID: actor, Link: "/connections", Data: map[string]string{"connection_id": "c-1"}, IdempotencyKey: "conn-1"}
	first, err := s.Send(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if first.RelatedUserID == nil || *first.RelatedUserID != actor || first.Link != "/connections" || first.Data["connection_id"] != "c-1" || first.RelatedPostID != nil {
		t.Fatalf("stored %+v", first)
	}
	again, err := s.Send(ctx, in)
	if err != nil || again.ID != first.ID {
		t.Fatalf("retry: %+v %v", again, err)
	}
	var published int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM user_events WHERE user_id = $1 AND type = $2`, user, notifications.EventCreated).Scan(&published); err != nil {
		t.Fatal(err)
	}
	if published != 1 {
		t.Fatalf("%d events, want 1", published)
	}
	if _, err := s.Send(ctx, notifications.Notice{UserID: user, Type: "like", Title: "x", Message: "y", RelatedPostID: "not-a-uuid"}); err == nil {
		t.Fatal("a malformed post id was stored")
	}
}
