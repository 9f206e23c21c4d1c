package roles_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vetclube/vetclube/core/postgres/pgtest"
	"github.com/vetclube/vetclube/core/roles"
)

func TestListUsers(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	svc := roles.NewService(pool)
	for i := range 30 {
		email := fmt.Sprintf("user%02d@example.com", i)
		if _, err := pool.Exec(ctx, `INSERT INTO users (email, created_at) VALUES ($1, now() - make_interval(mins => $2))`, email, 100-i); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := pool.Exec(ctx, `INSERT INTO profiles (user_id, first_name, last_name)
		SELECT id, 'Zélia', 'Quintana' FROM users WHERE email = 'user07@example.com'`); err != nil {
		t.Fatal(err)
	}
	for _, g := range [][2]string{{"user03@example.com", "editor"}, {"user03@example.com", "super_admin"}, {"user05@example.com", "editor"}} {
		if changed, err := svc.Grant(ctx, g[0], g[1]); err != nil || !changed {
			t.Fatalf("grant %v: %v %v", g, changed, err)
		}
	}

	page, total, err := svc.ListUsers(ctx, roles.UserQuery{Offset: 0, Limit: 10, SortField: "email"})
	if err != nil {
		t.Fatal(err)
	}
	if total != 30 || len(page) != 10 || page[0].Email != "user00@example.com" || page[9].Email != "user09@example.com" {
		t.Fatalf("first page: total %d, %d rows, %v..%v", total, len(page), page[0].Email, page[len(page)-1].Email)
	}
	if got := strings.Join(page[3].Roles, ","); got != "user,editor,super_admin" {
		t.Errorf("user03 roles %q", got)
	}
	if got := strings.Join(page[0].Roles, ","); got != "user" {
		t.Errorf("user00 roles %q", got)
	}

	page, total, _ = svc.ListUsers(ctx, roles.UserQuery{Offset: 25, Limit: 10, SortField: "created_at", Descending: true})
	if total != 30 || len(page) != 5 || page[0].Email != "user04@example.com" {
		t.Errorf("last page newest first: total %d, %d rows, first %v", total, len(page), page)
	}
	page, total, _ = svc.ListUsers(ctx, roles.UserQuery{Offset: 40, Limit: 10})
	if total != 30 || len(page) != 0 {
		t.Errorf("past the end: total %d, %d rows", total, len(page))
	}
	if page, total, _ = svc.ListUsers(ctx, roles.UserQuery{Offset: 40, Limit: 10, Role: "editor"}); total != 2 || len(page) != 0 {
		t.Errorf("editors past the end: total %d, %d rows", total, len(page))
	}
	page, total, _ = svc.ListUsers(ctx, roles.UserQuery{Limit: 10, Role: "editor", SortField: "email"})
	if total != 2 || len(page) != 2 || page[0].Email != "user03@example.com" || page[1].Email != "user05@example.com" {
		t.Errorf("editors: total %d, %v", total, page)
	}
	page, total, _ = svc.ListUsers(ctx, roles.UserQuery{Limit: 10, Search: "zélia qui"})
	if total != 1 || page[0].Email != "user07@example.com" || page[0].FirstName != "Zélia" {
		t.Errorf("search by name: total %d, %v", total, page)
	}
	_, total, _ = svc.ListUsers(ctx, roles.UserQuery{Limit: 10, Search: "USER1"})
	if total != 10 {
		t.Errorf("search by email: total %d", total)
	}
	// LIKE wildcards typed by the admin are literal.
	if _, total, _ = svc.ListUsers(ctx, roles.UserQuery{Limit: 10, Search: "%"}); total != 0 {
		t.Errorf("search %%: total %d, want 0", total)
	}
}

func TestHandleListUsersQueryParameters(t *testing.T) {
	pool := pgtest.New(t)
	svc := roles.NewService(pool)
	ctx := context.Background()
	for i := range 3 {
		if _, err := pool.Exec(ctx, `INSERT INTO users (email) VALUES ($1)`, fmt.Sprintf("u%d@example.com", i)); err != nil {
			t.Fatal(err)
		}
	}
	h := roles.HandleListUsers(nil, svc)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", `/api/admin/users?range=[1,5]&sort=["email","DESC"]`, nil))
	if rec.Code != 200 || rec.Header().Get("Content-Range") != "users 1-2/3" {
		t.Fatalf("%d %q %s", rec.Code, rec.Header().Get("Content-Range"), rec.Body)
	}
	if !strings.Contains(rec.Body.String(), `"email":"u1@example.com"`) || strings.Contains(rec.Body.String(), "u2@") {
		t.Errorf("body %s", rec.Body)
	}
	for _, bad := range []string{`range=[5,1]`, `range=nope`, `sort=["password_hash","ASC"]`, `filter={"role":"premium"}`, `filter=[`} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/admin/users?"+bad, nil))
		if rec.Code != 422 {
			t.Errorf("%s: %d %s", bad, rec.Code, rec.Body)
		}
	}
}
