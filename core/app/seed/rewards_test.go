package seed_test

import (
	"io"
	"testing"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/app/seed"
)

// The seeded shop has a reward of each kind with stock, the voucher codes
// loaded, and the demo member a balance to spend; seeding again adds nothing.
func TestSeedRewards(t *testing.T) {
	srv := apptest.Start(t, nil)
	for range 2 {
		if err := seed.Run(t.Context(), srv.App, io.Discard); err != nil {
			t.Fatal(err)
		}
	}
	var kinds, rewards, vouchers, balance int
	if err := srv.App.Pool.QueryRow(t.Context(), `SELECT count(DISTINCT kind), count(*),
		(SELECT count(*) FROM reward_vouchers WHERE redemption_id IS NULL),
		(SELECT total_points FROM user_total_points t JOIN users u ON u.id = t.user_id WHERE u.email = 'demo@vetclube.dev')
		FROM rewards WHERE active`).Scan(&kinds, &rewards, &vouchers, &balance); err != nil {
		t.Fatal(err)
	}
	// The course reward needs a published course (the courses plugin).
	var courses int
	if err := srv.App.Pool.QueryRow(t.Context(), `SELECT count(*) FROM course_listings WHERE published`).Scan(&courses); err != nil {
		t.Fatal(err)
	}
	wantKinds, wantRewards := 3, 4
	if courses > 0 {
		wantKinds, wantRewards = 4, 5
	}
	if kinds != wantKinds || rewards != wantRewards || vouchers != 20 || balance < 1200 {
		t.Fatalf("kinds %d rewards %d free vouchers %d demo balance %d", kinds, rewards, vouchers, balance)
	}
}
