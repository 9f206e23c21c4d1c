package seed_test

import (
	"io"
	"testing"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/app/seed"
)

func TestSeedGivesTheDemoUserACompleteProfileOnce(t *testing.T) {
	srv := apptest.Start(t, nil)
	ctx := t.Context()
	if err := seed.Run(ctx, srv.App, io.Discard); err != nil {
		t.Fatal(err)
	}
	var demoID string
	if err := srv.App.Pool.QueryRow(ctx, `SELECT id::text FROM users WHERE email = 'demo@vetclube.dev'`).Scan(&demoID); err != nil {
		t.Fatal(err)
	}
	p, err := srv.App.Profiles.Get(ctx, demoID)
	if err != nil {
		t.Fatal(err)
	}
	if c := p.Completeness(); !c.Complete || p.CRMV != "CRMV-SP 12345" || p.Phone != "11987654321" {
		t.Fatalf("demo profile %+v, completeness %+v", p, c)
	}

	// A developer's edit survives the next run.
	u := p
	edited := "Cirurgiã de pequenos animais"
	if _, err := srv.App.Pool.Exec(ctx, `UPDATE profiles SET title = $2 WHERE user_id = $1`, demoID, edited); err != nil {
		t.Fatal(err)
	}
	if err := seed.Run(ctx, srv.App, io.Discard); err != nil {
		t.Fatal(err)
	}
	if p, _ = srv.App.Profiles.Get(ctx, demoID); p.Title != edited || p.Biography != u.Biography {
		t.Errorf("seed overwrote an edited profile: %+v", p)
	}
}
