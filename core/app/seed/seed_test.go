package seed_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/app/seed"
	"github.com/vetclube/vetclube/core/auth"
)

func TestSeedCreatesSignInableAccountsIdempotently(t *testing.T) {
	srv := apptest.Start(t, nil)
	var out bytes.Buffer
	for range 2 {
		out.Reset()
		if err := seed.Run(t.Context(), srv.App, &out); err != nil {
			t.Fatal(err)
		}
	}
	var paid int
	if err := srv.App.Pool.QueryRow(t.Context(), `SELECT count(*) FROM billing_payments p JOIN users u ON u.id = p.user_id
		WHERE u.email = 'premium@vetclube.dev' AND p.kind = 'invoice' AND p.status = 'paid'`).Scan(&paid); err != nil || paid != 5 {
		t.Errorf("premium member's paid invoices: %d (%v), want 5", paid, err)
	}
	var users int
	if err := srv.App.Pool.QueryRow(t.Context(), "SELECT count(*) FROM users").Scan(&users); err != nil || users != 6+12 { // accounts (the recruiter included) + demo vets (seed_connections.go)
		t.Fatalf("%d users after seeding twice (%v)", users, err)
	}
	// Every printed credential signs in (the staff with the code of their
	// printed TOTP secret); the admin is a super admin.
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")[1:]
	if len(lines) != 6+1 { // + the demo vets' line
		t.Fatalf("output %q", out.String())
	}
	credential := regexp.MustCompile(`(\S+@\S+) / (\S+)(?:\s+\(TOTP: segredo ([A-Z2-7]+)\))?$`)
	secrets := 0
	for _, line := range lines {
		m := credential.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("line %q", line)
		}
		email, pass, secret := m[1], m[2], m[3]
		in := map[string]string{"email": email, "password": pass}
		if secret != "" {
			secrets++
			// The password alone is not enough for an enrolled account.
			res := srv.Client(t).Do("POST", "/api/auth/login", in)
			if res.Status != http.StatusOK || !strings.Contains(string(res.Body), `"two_step_required":true`) {
				t.Fatalf("%s without code: %d %s", email, res.Status, res.Body)
			}
			code, err := auth.TOTPCode(secret, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			in["code"] = code
		}
		res := srv.Client(t).Do("POST", "/api/auth/login", in)
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
		// The premium demo member pays through the local fake Stripe.
		if email == "premium@vetclube.dev" && !slices.Contains(body.User.Roles, "premium") {
			t.Errorf("%s roles %v, want premium", email, body.User.Roles)
		}
	}
	if secrets != 2 { // the super admin and the reviewer
		t.Errorf("%d staff accounts printed with a TOTP secret", secrets)
	}
}

// With the news plugin loaded, the seed leaves demo news in every
// editorial state through the real workflow, once.
func TestSeedNewsInEveryState(t *testing.T) {
	srv := apptest.Start(t, map[string]string{"PLUGINS_DIR": builtPlugin(t, "noticias")})
	for range 2 {
		if err := seed.Run(t.Context(), srv.App, io.Discard); err != nil {
			t.Fatal(err)
		}
	}
	rows, err := srv.App.Pool.Query(t.Context(), `SELECT status, count(*) FROM content_items WHERE type = 'noticias' GROUP BY status ORDER BY status`)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for rows.Next() {
		var st string
		var n int
		if err := rows.Scan(&st, &n); err != nil {
			t.Fatal(err)
		}
		got[st] = n
	}
	want := map[string]int{"publicado": 3, "rascunho": 2, "em_revisao": 1, "alteracoes_solicitadas": 1, "agendado": 1}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("states %v, want %v (an edited published item is a rascunho with a published snapshot)", got, want)
	}
	var page struct{ Items []struct{ Title string } }
	srv.Client(t).Do("GET", "/api/content/noticias", nil).JSON(t, &page)
	if len(page.Items) != 4 {
		t.Fatalf("public list: %d items", len(page.Items))
	}
}

// builtPlugin builds plugins/<id> into a plugin directory with its checksum,
// as `make plugins` does.
func builtPlugin(t *testing.T, id string) string {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, id)
	cmd := exec.Command("go", "build", "-o", bin, "../../../plugins/"+id)
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("build plugin %s: %v", id, err)
	}
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	if err := os.WriteFile(bin+".sha256", []byte(hex.EncodeToString(sum[:])+"  "+id+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}
