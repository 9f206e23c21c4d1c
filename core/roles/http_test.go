package roles_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/vetclube/vetclube/core/app/apptest"
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
