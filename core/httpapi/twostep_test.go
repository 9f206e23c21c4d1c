package httpapi_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/httpapi"
)

// A super admin (or revisor, moderador) whose session has not passed two-step
// verification is refused by every backoffice route by the policy itself;
// the same account from a verified session is let through.
func TestStaffWithoutSecondStepIsRefusedByEveryBackofficeRoute(t *testing.T) {
	doc := loadOpenAPI(t)
	srv := apptest.Start(t, nil)
	verified, _ := srv.SignedIn(t, "chefe@example.com", "super_admin")
	unverified, _ := srv.SignedInUnverified(t, "chefe@example.com", "super_admin")
	revisor, _ := srv.SignedInUnverified(t, "revisor@example.com", "revisor")
	param := regexp.MustCompile(`\{[^}]+\}`)
	n := 0
	for _, op := range doc.operations() {
		if !strings.HasPrefix(op.path, "/api/admin/") {
			continue
		}
		path := param.ReplaceAllString(op.path, "00000000-0000-0000-0000-000000000000")
		method := strings.ToUpper(op.method)
		for name, c := range map[string]*apptest.Client{"super admin": unverified, "revisor": revisor} {
			res := c.Do(method, path, map[string]any{})
			if res.Status != http.StatusForbidden || res.Header.Get(httpapi.DeniedByHeader) != "policy" {
				t.Errorf("%s without second step: %s %s answered %d (%s)", name, method, path, res.Status, res.Header.Get(httpapi.DeniedByHeader))
			}
		}
		n++
	}
	if n < 10 {
		t.Fatalf("only %d backoffice operations walked", n)
	}
	if res := verified.Do("GET", "/api/admin/users", nil); res.Status != http.StatusOK {
		t.Fatalf("verified super admin: %d %s", res.Status, res.Body)
	}
	// The unverified session still works as a member's, and says why the role waits.
	res := unverified.Do("GET", "/api/auth/session", nil)
	if res.Status != http.StatusOK || !strings.Contains(string(res.Body), `"two_step_pending":true`) || strings.Contains(string(res.Body), "super_admin") {
		t.Fatalf("unverified session: %d %s", res.Status, res.Body)
	}
}
