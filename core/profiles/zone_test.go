package profiles_test

import (
	"testing"

	"github.com/vetclube/vetclube/core/profiles"
)

// The zone a check-in follows is the one chosen on the profile: none before
// the profile exists or while it keeps the default, the chosen one after.
func TestChosenZone(t *testing.T) {
	f := newFixture(t)
	id := f.newUser(t, "fuso@example.com", nil)
	lookup := profiles.ChosenZone(f.pool)
	if zone, ok, err := lookup(f.ctx, id); err != nil || ok || zone != "" {
		t.Fatalf("no profile yet: %q %v %v", zone, ok, err)
	}
	if _, err := f.svc.Update(f.ctx, id, completeUpdate()); err != nil {
		t.Fatal(err)
	}
	if zone, ok, err := lookup(f.ctx, id); err != nil || ok {
		t.Fatalf("default zone counted as a choice: %q %v %v", zone, ok, err)
	}
	u := completeUpdate()
	tz := "America/Manaus"
	u.TimeZone = &tz
	if _, err := f.svc.Update(f.ctx, id, u); err != nil {
		t.Fatal(err)
	}
	if zone, ok, err := lookup(f.ctx, id); err != nil || !ok || zone != tz {
		t.Fatalf("chosen zone: %q %v %v", zone, ok, err)
	}
}
