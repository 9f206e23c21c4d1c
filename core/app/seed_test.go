package app_test

import (
	"bytes"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/vetclube/vetclube/core/app/apptest"
)

func TestSeedCreatesSignInableAccountsIdempotently(t *testing.T) {
	srv := apptest.Start(t, nil)
	var out bytes.Buffer
	for range 2 {
		out.Reset()
		if err := srv.App.Seed(t.Context(), &out); err != nil {
			t.Fatal(err)
		}
	}
	var users int
	if err := srv.App.Pool.QueryRow(t.Context(), "SELECT count(*) FROM users").Scan(&users); err != nil || users != 2 {
		t.Fatalf("%d users after seeding twice (%v)", users, err)
	}
	// Every printed credential signs in; the admin is a super admin.
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")[1:]
	if len(lines) != 2 {
		t.Fatalf("output %q", out.String())
	}
	for _, line := range lines {
		fields := strings.Fields(line)
		email, pass := fields[len(fields)-3], fields[len(fields)-1]
		res := srv.Client(t).Do("POST", "/api/auth/login", map[string]string{"email": email, "password": pass})
		if res.Status != http.StatusOK {
			t.Fatalf("%s: %d %s", email, res.Status, res.Body)
		}
		var body struct {
			User struct{ Roles []string }
		}
		res.JSON(t, &body)
		if strings.HasPrefix(email, "admin@") != slices.Contains(body.User.Roles, "super_admin") {
			t.Errorf("%s roles %v", email, body.User.Roles)
		}
	}
}
