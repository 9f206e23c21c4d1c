package seed_test

import (
	"io"
	"testing"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/app/seed"
	"github.com/vetclube/vetclube/core/eventos"
)

// With the events plugin loaded, the seed publishes upcoming events of each
// type (one almost full) and two past ones, once.
func TestSeedEvents(t *testing.T) {
	srv := apptest.Start(t, map[string]string{"PLUGINS_DIR": builtPlugin(t, "eventos")})
	for range 2 {
		if err := seed.Run(t.Context(), srv.App, io.Discard); err != nil {
			t.Fatal(err)
		}
	}
	upcoming, err := srv.App.Eventos.List(t.Context(), eventos.Filter{When: eventos.Upcoming})
	if err != nil {
		t.Fatal(err)
	}
	types := map[string]bool{}
	almostFull := 0
	for _, e := range upcoming {
		types[e.Type] = true
		if e.SeatsLeft != nil && *e.SeatsLeft == 1 && e.Current == 3 {
			almostFull++
		}
	}
	if len(upcoming) != 5 || !types["Workshop"] || !types["Intensivo"] || !types["Congresso"] || almostFull != 1 {
		t.Fatalf("upcoming: %d events, types %v, almost full %d", len(upcoming), types, almostFull)
	}
	past, err := srv.App.Eventos.List(t.Context(), eventos.Filter{When: eventos.Past})
	if err != nil || len(past) != 2 {
		t.Fatalf("past: %d %v", len(past), err)
	}
}
