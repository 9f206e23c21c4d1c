package seed_test

import (
	"io"
	"net/http"
	"testing"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/app/seed"
)

// The demo jobs are published once (a second run changes nothing), listed
// to members across states and contracts, and the demo recruiter manages
// the ones assigned to her.
func TestSeedJobs(t *testing.T) {
	srv := apptest.Start(t, map[string]string{"PLUGINS_DIR": builtPlugin(t, "vagas")})
	for range 2 {
		if err := seed.Run(t.Context(), srv.App, io.Discard); err != nil {
			t.Fatal(err)
		}
	}
	member, _ := srv.SignedIn(t, "membro.vagas@teste.dev")
	var page struct {
		Total int `json:"total"`
		Jobs  []struct {
			State    string `json:"state"`
			Contract string `json:"contract"`
		} `json:"jobs"`
	}
	res := member.Do(http.MethodGet, "/api/vagas", nil)
	res.JSON(t, &page)
	if res.Status != http.StatusOK || page.Total != 15 {
		t.Fatalf("open demo jobs: %d %s", res.Status, res.Body)
	}
	states, contracts := map[string]bool{}, map[string]bool{}
	for _, j := range page.Jobs {
		states[j.State], contracts[j.Contract] = true, true
	}
	if len(states) < 10 || len(contracts) != 6 {
		t.Fatalf("states %v, contracts %v", states, contracts)
	}
	var id string
	if err := srv.App.Pool.QueryRow(t.Context(), `SELECT id::text FROM users WHERE email = 'recrutadora@vetclube.dev'`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	var assigned int
	if err := srv.App.Pool.QueryRow(t.Context(), `SELECT count(*) FROM job_recruiters WHERE user_id = $1`, id).Scan(&assigned); err != nil || assigned != 5 {
		t.Fatalf("recruiter assigned to %d jobs (%v), want 5", assigned, err)
	}
}
