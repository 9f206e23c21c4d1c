package roles_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/postgres/pgtest"
	"github.com/vetclube/vetclube/core/roles"
)

func TestAdminUsersOverHTTP(t *testing.T) {
	srv := apptest.Start(t, nil)
	admin, adminID := srv.SignedIn(t, "chefe@example.com", "super_admin")
	editor, _ := srv.SignedIn(t, "editora@example.com", "editor")
	srv.SignedIn(t, "membro@example.com")

	res := admin.Do("GET", `/api/admin/users?range=[0,9]&sort=["email","ASC"]`, nil)
	if res.Status != http.StatusOK || res.Header.Get("Content-Range") != "users 0-2/3" {
		t.Fatalf("%d %q %s", res.Status, res.Header.Get("Content-Range"), res.Body)
	}
	var users []roles.AdminUser
	res.JSON(t, &users)
	if len(users) != 3 || users[0].ID != adminID || strings.Join(users[0].Roles, ",") != "user,super_admin" ||
		strings.Join(users[1].Roles, ",") != "user,editor" || strings.Join(users[2].Roles, ",") != "user" || !users[2].EmailConfirmed {
		t.Errorf("users %+v", users)
	}
	if strings.Contains(string(res.Body), "password") {
		t.Errorf("admin list exposes password data: %s", res.Body)
	}
	if res := editor.Do("GET", "/api/admin/users", nil); res.Status != http.StatusForbidden {
		t.Errorf("editor: %d", res.Status)
	}
}

func TestAdminUserRolesOverHTTP(t *testing.T) {
	srv := apptest.Start(t, nil)
	admin, adminID := srv.SignedIn(t, "chefe@example.com", "super_admin")
	member, memberID := srv.SignedIn(t, "membro@example.com")

	var u roles.AdminUser
	res := admin.Do("GET", "/api/admin/users/"+memberID, nil)
	if res.Status != http.StatusOK {
		t.Fatalf("get: %d %s", res.Status, res.Body)
	}
	if res.JSON(t, &u); u.Email != "membro@example.com" || strings.Join(u.Roles, ",") != "user" {
		t.Errorf("get: %+v", u)
	}
	for _, id := range []string{"nao-e-uuid", "00000000-0000-0000-0000-000000000000"} {
		if res := admin.Do("GET", "/api/admin/users/"+id, nil); res.Status != http.StatusNotFound || res.ErrorMessage() != "Usuário não encontrado" {
			t.Errorf("get %s: %d %s", id, res.Status, res.Body)
		}
	}

	// Granting twice is harmless and the member gains access at once.
	for range 2 {
		res := admin.Do("POST", "/api/admin/users/"+memberID+"/roles/editor", nil)
		if res.Status != http.StatusOK {
			t.Fatalf("grant: %d %s", res.Status, res.Body)
		}
		if res.JSON(t, &u); strings.Join(u.Roles, ",") != "user,editor" {
			t.Errorf("after grant: %v", u.Roles)
		}
	}
	var session struct{ User struct{ Roles []string } }
	member.Do("GET", "/api/auth/session", nil).JSON(t, &session)
	if strings.Join(session.User.Roles, ",") != "user,editor" {
		t.Errorf("member session roles %v", session.User.Roles)
	}
	// An editor still may not manage users.
	if res := member.Do("POST", "/api/admin/users/"+memberID+"/roles/super_admin", nil); res.Status != http.StatusForbidden {
		t.Errorf("editor granting: %d", res.Status)
	}

	for range 2 {
		res := admin.Do("DELETE", "/api/admin/users/"+memberID+"/roles/editor", nil)
		if res.Status != http.StatusOK {
			t.Fatalf("revoke: %d %s", res.Status, res.Body)
		}
		if res.JSON(t, &u); strings.Join(u.Roles, ",") != "user" {
			t.Errorf("after revoke: %v", u.Roles)
		}
	}

	// The revisor role is granted and revoked like editor (the database's
	// CHECK allows it since migration 00057).
	if res := admin.Do("POST", "/api/admin/users/"+memberID+"/roles/revisor", nil); res.Status != http.StatusOK {
		t.Fatalf("grant revisor: %d %s", res.Status, res.Body)
	} else if res.JSON(t, &u); strings.Join(u.Roles, ",") != "user,revisor" {
		t.Errorf("after grant revisor: %v", u.Roles)
	}
	if res := admin.Do("DELETE", "/api/admin/users/"+memberID+"/roles/revisor", nil); res.Status != http.StatusOK {
		t.Fatalf("revoke revisor: %d %s", res.Status, res.Body)
	} else if res.JSON(t, &u); strings.Join(u.Roles, ",") != "user" {
		t.Errorf("after revoke revisor: %v", u.Roles)
	}

	for _, bad := range []string{"premium", "user", "root"} {
		res := admin.Do("POST", "/api/admin/users/"+memberID+"/roles/"+bad, nil)
		if res.Status != http.StatusUnprocessableEntity || res.ErrorMessage() != "Papel inválido. Papéis permitidos: editor, revisor, moderador, recrutador, super_admin." {
			t.Errorf("grant %s: %d %s", bad, res.Status, res.Body)
		}
	}
	if res := admin.Do("POST", "/api/admin/users/00000000-0000-0000-0000-000000000000/roles/editor", nil); res.Status != http.StatusNotFound {
		t.Errorf("grant to nobody: %d %s", res.Status, res.Body)
	}

	res = admin.Do("DELETE", "/api/admin/users/"+adminID+"/roles/super_admin", nil)
	if res.Status != http.StatusConflict || res.ErrorMessage() != "Você não pode remover o seu próprio papel de super administrador." {
		t.Errorf("own super_admin: %d %s", res.Status, res.Body)
	}
	admin.Do("GET", "/api/admin/users/"+adminID, nil).JSON(t, &u)
	if strings.Join(u.Roles, ",") != "user,super_admin" {
		t.Errorf("admin lost their role: %v", u.Roles)
	}
}

// Two super admins removing each other at the same time must leave one.
func TestRevokeKeepsOneSuperAdmin(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.New(t)
	svc := roles.NewService(pool)
	ids := make([]string, 2)
	for i, email := range []string{"a@example.com", "b@example.com"} {
		if err := pool.QueryRow(ctx, `INSERT INTO users (email) VALUES ($1) RETURNING id::text`, email).Scan(&ids[i]); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.GrantToUser(ctx, "", ids[i], "super_admin"); err != nil {
			t.Fatal(err)
		}
	}
	errs := make(chan error, 2)
	for i := range 2 {
		go func() {
			_, err := svc.RevokeFromUser(ctx, ids[i], ids[1-i], "super_admin")
			errs <- err
		}()
	}
	failed := 0
	for range 2 {
		if err := <-errs; err != nil {
			var ce *core.Error
			if !errors.As(err, &ce) || ce.Message != "Não é possível remover o último super administrador." {
				t.Fatalf("unexpected error %v", err)
			}
			failed++
		}
	}
	var left int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM user_roles WHERE role = 'super_admin'`).Scan(&left); err != nil {
		t.Fatal(err)
	}
	if failed != 1 || left != 1 {
		t.Errorf("failed %d, super admins left %d; want 1 and 1", failed, left)
	}
	// Deleting an account drops its roles without the history trigger
	// tripping over the vanished account.
	for _, id := range ids {
		if _, err := pool.Exec(ctx, `DELETE FROM users WHERE id = $1`, id); err != nil {
			t.Fatalf("delete an account with roles: %v", err)
		}
	}
	var history int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM role_changes`).Scan(&history); err != nil || history != 0 {
		t.Errorf("history of deleted accounts: %d rows, %v", history, err)
	}
}

// The backoffice list's paging is bounded before any arithmetic: a huge
// range used to overflow into a negative LIMIT and a 500.
func TestAdminUsersPagingIsBounded(t *testing.T) {
	srv := apptest.Start(t, nil)
	admin, _ := srv.SignedIn(t, "chefe@example.com", "super_admin")
	srv.SignedIn(t, "membro@example.com")

	ok := map[string]string{
		`range=[0,9223372036854775807]`:                   "users 0-1/2",
		`range=[1,9223372036854775807]`:                   "users 1-1/2",
		`range=[1000000000,1000000001]`:                   "users 1000000000-1000000000/2",
		`range=[0,0]`:                                     "users 0-0/2",
		`sort=["email","desc"]&range=[0,9]`:               "users 0-1/2",
		`filter={"q":"membro"}`:                           "users 0-0/1",
		`filter={"q":"linha\nnova"}&sort=["id","ASC"]`:    "users 0-0/0",
		`filter={"role":"super_admin"}&sort=["id","ASC"]`: "users 0-0/1",
	}
	for query, wantRange := range ok {
		res := admin.Do("GET", "/api/admin/users?"+encodeQuery(query), nil)
		if res.Status != http.StatusOK || res.Header.Get("Content-Range") != wantRange {
			t.Errorf("%s: %d %q %s, want 200 %q", query, res.Status, res.Header.Get("Content-Range"), res.Body, wantRange)
		}
	}
	var page []roles.AdminUser
	admin.Do("GET", "/api/admin/users?"+encodeQuery(`range=[0,9223372036854775807]`), nil).JSON(t, &page)
	if len(page) != 2 {
		t.Errorf("huge range: %d users", len(page))
	}

	bad := map[string]string{
		`range=[-1,9]`:                     "range",
		`range=[5,2]`:                      "range",
		`range=[0]`:                        "range",
		`range=[0,1,2]`:                    "range",
		`range=[0,99999999999999999999]`:   "range",
		`range=[1000000001,1000000002]`:    "range",
		`range=[0.5,9]`:                    "range",
		`range={"a":1}`:                    "range",
		`range=[0,9]x`:                     "range",
		`sort=["password_hash","ASC"]`:     "sort",
		`sort=["email","ASC; DROP TABLE"]`: "sort",
		`sort=["email"]`:                   "sort",
		`sort="email"`:                     "sort",
		`filter={"q":"\u0000"}`:            "filter",
		`filter={"q":1}`:                   "filter",
		`filter={"admin":true}`:            "filter",
		`filter={"role":"root"}`:           "filter",
		`filter=[]`:                        "filter",
		`filter={"q":"` + strings.Repeat("a", 201) + `"}`: "filter",
	}
	for query, field := range bad {
		res := admin.Do("GET", "/api/admin/users?"+encodeQuery(query), nil)
		var body struct {
			Error struct {
				Code   string            `json:"code"`
				Fields map[string]string `json:"fields"`
			} `json:"error"`
		}
		res.JSON(t, &body)
		if res.Status != http.StatusUnprocessableEntity || body.Error.Code != "invalid" || body.Error.Fields[field] == "" {
			t.Errorf("%s: %d %s, want 422 naming %s", query, res.Status, res.Body, field)
		}
	}
}

// encodeQuery escapes each value of a readable a=...&b=... query.
func encodeQuery(q string) string {
	var parts []string
	for _, kv := range strings.Split(q, "&") {
		k, v, _ := strings.Cut(kv, "=")
		parts = append(parts, k+"="+url.QueryEscape(v))
	}
	return strings.Join(parts, "&")
}

// Every role change is in the account's history with who made it: the
// backoffice's grants name the administrator, the command line's do not.
// The list and the account carry trial and premium from the subscription.
func TestRoleHistoryAndSubscriptionRoles(t *testing.T) {
	srv := apptest.Start(t, nil)
	ctx := context.Background()
	admin, _ := srv.SignedIn(t, "chefe@example.com", "super_admin")
	_, memberID := srv.SignedIn(t, "membro@example.com")

	if res := admin.Do("POST", "/api/admin/users/"+memberID+"/roles/editor", nil); res.Status != http.StatusOK {
		t.Fatalf("grant: %d %s", res.Status, res.Body)
	}
	// Granting again changes nothing and records nothing.
	admin.Do("POST", "/api/admin/users/"+memberID+"/roles/editor", nil)
	if res := admin.Do("DELETE", "/api/admin/users/"+memberID+"/roles/editor", nil); res.Status != http.StatusOK {
		t.Fatalf("revoke: %d %s", res.Status, res.Body)
	}
	if _, err := roles.NewService(srv.App.Pool).Grant(ctx, "membro@example.com", "revisor"); err != nil {
		t.Fatal(err)
	}

	res := admin.Do("GET", "/api/admin/users/"+memberID+"/role-changes", nil)
	if res.Status != http.StatusOK {
		t.Fatalf("history: %d %s", res.Status, res.Body)
	}
	var changes []roles.RoleChange
	res.JSON(t, &changes)
	var got []string
	for _, c := range changes {
		actor := "linha de comando"
		if c.ActorEmail != nil {
			actor = *c.ActorEmail
		}
		got = append(got, c.Change+" "+c.Role+" por "+actor)
		if c.At.IsZero() {
			t.Errorf("change without a time: %+v", c)
		}
	}
	want := "granted revisor por linha de comando|revoked editor por chefe@example.com|granted editor por chefe@example.com"
	if strings.Join(got, "|") != want {
		t.Errorf("history\n got %s\nwant %s", strings.Join(got, "|"), want)
	}
	if res := admin.Do("GET", "/api/admin/users/00000000-0000-0000-0000-000000000000/role-changes", nil); res.Status != http.StatusNotFound {
		t.Errorf("history of nobody: %d", res.Status)
	}

	if err := srv.App.Engagement.Subscriptions.BecomePremium(ctx, memberID, "premium_monthly"); err != nil {
		t.Fatal(err)
	}
	var u roles.AdminUser
	admin.Do("GET", "/api/admin/users/"+memberID, nil).JSON(t, &u)
	if strings.Join(u.Roles, ",") != "user,premium,revisor" {
		t.Errorf("account roles %v, want user,premium,revisor", u.Roles)
	}
	var listed []roles.AdminUser
	admin.Do("GET", `/api/admin/users?filter={"q":"membro@"}`, nil).JSON(t, &listed)
	if len(listed) != 1 || strings.Join(listed[0].Roles, ",") != "user,premium,revisor" {
		t.Errorf("listed %+v", listed)
	}
}
