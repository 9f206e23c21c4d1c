package seed_test

import (
	"io"
	"testing"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/app/seed"
)

// The demo vets and their network are seeded once, through the real
// service: counts match, the demo user has requests to answer, and a
// developer's removal survives the next run.
func TestSeedConnectionsOnce(t *testing.T) {
	srv := apptest.Start(t, nil)
	ctx := t.Context()
	if err := seed.Run(ctx, srv.App, io.Discard); err != nil {
		t.Fatal(err)
	}
	var demoID string
	if err := srv.App.Pool.QueryRow(ctx, `SELECT id::text FROM users WHERE email = 'demo@vetclube.dev'`).Scan(&demoID); err != nil {
		t.Fatal(err)
	}
	lists, err := srv.App.Connections.List(ctx, demoID, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(lists.Connections) != 4 || len(lists.Received) != 2 || len(lists.Sent) != 1 {
		t.Fatalf("demo user: %d connections, %d received, %d sent", len(lists.Connections), len(lists.Received), len(lists.Sent))
	}
	var vets, complete, mismatched int
	err = srv.App.Pool.QueryRow(ctx, `
		SELECT count(*), count(*) FILTER (WHERE p.title <> '' AND p.biography <> '' AND cardinality(p.specialties) > 0),
		       (SELECT count(*) FROM profiles q WHERE q.connections_count <> (SELECT count(*) FROM connections c
		          WHERE c.status = 'accepted' AND (c.requester_id = q.user_id OR c.receiver_id = q.user_id)))
		FROM users u JOIN profiles p ON p.user_id = u.id
		WHERE u.email LIKE '%.%@vetclube.dev'`).Scan(&vets, &complete, &mismatched)
	if err != nil || vets != 12 || complete != 12 || mismatched != 0 {
		t.Fatalf("%d demo vets, %d complete, %d counts off (%v)", vets, complete, mismatched, err)
	}
	if _, err := srv.App.Connections.Delete(ctx, demoID, lists.Connections[0].ID); err != nil {
		t.Fatal(err)
	}
	var before, after int
	count := func(n *int) {
		if err := srv.App.Pool.QueryRow(ctx, `SELECT count(*) FROM connections`).Scan(n); err != nil {
			t.Fatal(err)
		}
	}
	count(&before)
	if err := seed.Run(ctx, srv.App, io.Discard); err != nil {
		t.Fatal(err)
	}
	count(&after)
	if before != after {
		t.Fatalf("second seed changed connections: %d → %d", before, after)
	}
	// The vets sign in with the printed password.
	res := srv.Client(t).Do("POST", "/api/auth/login", map[string]string{"email": "joao.pereira@vetclube.dev", "password": "Colega#Vet2026"})
	if res.Status != 200 {
		t.Fatalf("demo vet login: %d %s", res.Status, res.Body)
	}
}
