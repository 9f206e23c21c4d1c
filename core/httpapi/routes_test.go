package httpapi_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"

	"github.com/vetclube/vetclube/core"
	"github.com/vetclube/vetclube/core/app/apptest"
	"github.com/vetclube/vetclube/core/authz"
)

// allRoles is every role the policy knows, from least to most privileged.
var allRoles = []string{core.RoleVisitor, core.RoleUser, core.RoleTrial, core.RolePremium, core.RoleEditor, core.RoleRevisor, core.RoleModerador, core.RoleRecrutador, core.RoleSuperAdmin}

// Who may call a route: the roles allowed for each minimum level.
var (
	everyone   = allRoles
	signedIn   = []string{core.RoleUser, core.RoleTrial, core.RolePremium, core.RoleEditor, core.RoleRevisor, core.RoleModerador, core.RoleRecrutador, core.RoleSuperAdmin}
	premiumUp  = []string{core.RolePremium, core.RoleSuperAdmin}
	editorsUp  = []string{core.RoleEditor, core.RoleSuperAdmin}
	superAdmin = []string{core.RoleSuperAdmin}
	// backoffice are the content backoffice's roles.
	backoffice = []string{core.RoleEditor, core.RoleRevisor, core.RoleSuperAdmin}
	// moderators are the moderation queue's roles.
	moderators = []string{core.RoleModerador, core.RoleSuperAdmin}
	// jobManagers are the roles the backoffice's applications are served
	// to (core/jobs answers each only for the jobs they manage).
	jobManagers = []string{core.RoleEditor, core.RoleRevisor, core.RoleRecrutador, core.RoleSuperAdmin}
)

var _ = [][]string{premiumUp, editorsUp, superAdmin, signedIn}

// authorisationMatrix is the expected access to every route. A new route
// fails TestAuthorisationMatrix until it is added here, and a policy change
// that widens or narrows access fails it too.
var authorisationMatrix = map[string][]string{
	// Events
	"GET /api/eventos":                             everyone,
	"GET /api/eventos/next":                        everyone,
	"GET /api/eventos/{idOrSlug}":                  everyone,
	"GET /api/eventos/{idOrSlug}/calendar.ics":     everyone,
	"PUT /api/eventos/{idOrSlug}/participation":    signedIn,
	"DELETE /api/eventos/{idOrSlug}/participation": signedIn,
	"PUT /api/eventos/{idOrSlug}/waitlist":         signedIn,
	// Oportunidades
	"GET /api/vagas":                                     signedIn,
	"GET /api/vagas/salvas":                              signedIn,
	"GET /api/vagas/candidaturas":                        signedIn,
	"GET /api/vagas/candidaturas/{id}/curriculo":         signedIn,
	"GET /api/vagas/buscas":                              signedIn,
	"POST /api/vagas/buscas":                             signedIn,
	"PUT /api/vagas/buscas/{id}/alertas":                 signedIn,
	"DELETE /api/vagas/buscas/{id}":                      signedIn,
	"GET /api/vagas/{idOrSlug}":                          signedIn,
	"PUT /api/vagas/{idOrSlug}/salva":                    signedIn,
	"DELETE /api/vagas/{idOrSlug}/salva":                 signedIn,
	"POST /api/vagas/{idOrSlug}/candidatura":             signedIn,
	"GET /api/admin/vagas":                               jobManagers,
	"GET /api/admin/vagas/{id}/candidaturas":             jobManagers,
	"PUT /api/admin/vagas/candidaturas/{id}":             jobManagers,
	"GET /api/admin/vagas/{id}/recrutadores":             backoffice,
	"POST /api/admin/vagas/{id}/recrutadores":            backoffice,
	"DELETE /api/admin/vagas/{id}/recrutadores/{userId}": backoffice,
	// The VetCoins shop
	"GET /api/rewards":                               signedIn,
	"POST /api/rewards/{id}/redeem":                  signedIn,
	"GET /api/rewards/redemptions":                   signedIn,
	"GET /api/admin/rewards":                         superAdmin,
	"POST /api/admin/rewards":                        superAdmin,
	"GET /api/admin/rewards/{id}":                    superAdmin,
	"PUT /api/admin/rewards/{id}":                    superAdmin,
	"POST /api/admin/rewards/{id}/vouchers":          superAdmin,
	"GET /api/admin/reward-redemptions":              superAdmin,
	"POST /api/admin/reward-redemptions/{id}/refund": superAdmin,
	"GET /api/desafios":                              signedIn,
	"GET /api/desafios/ranking":                      signedIn,
	"GET /api/desafios/medalhas":                     signedIn,
	"GET /api/desafios/{idOrSlug}":                   signedIn,
	"PUT /api/desafios/{idOrSlug}/respostas":         signedIn,
	"POST /api/desafios/{idOrSlug}/envio":            signedIn,
	// Courses
	"GET /api/cursos":                                       signedIn,
	"GET /api/cursos/filtros":                               signedIn,
	"GET /api/cursos/estatisticas":                          signedIn,
	"GET /api/cursos/ultimo":                                signedIn,
	"GET /api/cursos/{idOrSlug}":                            signedIn,
	"POST /api/cursos/{idOrSlug}/matricula":                 signedIn,
	"POST /api/cursos/{idOrSlug}/favorito":                  signedIn,
	"GET /api/cursos/{idOrSlug}/aulas/{lessonId}":           signedIn,
	"PUT /api/cursos/{idOrSlug}/aulas/{lessonId}/progresso": signedIn,
	"POST /api/cursos/{idOrSlug}/aulas/{lessonId}/concluir": signedIn,
	"GET /api/me/certificados":                              signedIn,
	"GET /api/certificados/{code}":                          everyone,
	"GET /api/certificados/{code}/imprimir":                 signedIn,
	"GET /api/certificados/{code}/pdf":                      signedIn,
	"POST /api/admin/certificados/{code}/revogar":           editorsUp,
	"GET /api/admin/courses/{id}/stats":                     backoffice,

	// Exclusive videos
	"GET /api/videos":                          signedIn,
	"GET /api/videos/categorias":               signedIn,
	"GET /api/videos/estatisticas":             signedIn,
	"GET /api/videos/ultimo":                   signedIn,
	"GET /api/videos/{idOrSlug}":               signedIn,
	"PUT /api/videos/{idOrSlug}/progresso":     signedIn,
	"POST /api/videos/{idOrSlug}/visualizacao": signedIn,
	"POST /api/videos/{idOrSlug}/curtida":      signedIn,
	"POST /api/videos/{idOrSlug}/favorito":     signedIn,
	"PUT /api/videos/{idOrSlug}/concluido":     signedIn,

	// Community posts
	"GET /api/community/feed":                          signedIn,
	"POST /api/community/uploads":                      signedIn,
	"POST /api/community/posts":                        signedIn,
	"GET /api/community/posts/{id}":                    signedIn,
	"PUT /api/community/posts/{id}":                    signedIn,
	"DELETE /api/community/posts/{id}":                 signedIn,
	"PUT /api/community/posts/{id}/like":               signedIn,
	"DELETE /api/community/posts/{id}/like":            signedIn,
	"PUT /api/community/posts/{id}/resposta-aceita":    signedIn,
	"DELETE /api/community/posts/{id}/resposta-aceita": signedIn,
	// Comments, reports and moderation
	"GET /api/community/posts/{id}/comments":                        signedIn,
	"POST /api/community/posts/{id}/comments":                       signedIn,
	"GET /api/content/{type}/{idOrSlug}/comments":                   everyone,
	"POST /api/content/{type}/{idOrSlug}/comments":                  signedIn,
	"PUT /api/comments/{id}":                                        signedIn,
	"DELETE /api/comments/{id}":                                     signedIn,
	"PUT /api/comments/{id}/reaction":                               signedIn,
	"POST /api/reports":                                             signedIn,
	"GET /api/admin/moderation":                                     moderators,
	"GET /api/admin/moderation/{id}":                                moderators,
	"POST /api/admin/moderation/{target_type}/{target_id}/{action}": moderators,
	// Referrals
	"POST /api/referrals/click":             everyone,
	"GET /api/referrals/me":                 signedIn,
	"GET /api/referrals/me/qr.svg":          signedIn,
	"POST /api/referrals/process-signup":    signedIn,
	"GET /api/admin/referrals":              superAdmin,
	"GET /api/admin/referrals/{id}":         superAdmin,
	"POST /api/admin/referrals/{id}/review": superAdmin,
	"GET /api/admin/referral-stats":         superAdmin,
	"GET /api/admin/referral-settings":      superAdmin,
	"PUT /api/admin/referral-settings":      superAdmin,
	// VetCoins, check-in, subscription, notifications, live events
	"GET /api/points/balance":                  signedIn,
	"GET /api/points/history":                  signedIn,
	"GET /api/checkin":                         signedIn,
	"POST /api/checkin":                        signedIn,
	"POST /api/checkin/reset":                  signedIn,
	"GET /api/subscription":                    signedIn,
	"GET /api/subscription/limits/{limitType}": everyone,
	"GET /api/notifications":                   signedIn,
	"DELETE /api/notifications":                signedIn,
	"POST /api/notifications/{id}/read":        signedIn,
	"POST /api/notifications/read-all":         signedIn,
	"DELETE /api/notifications/{id}":           signedIn,
	"GET /api/notifications/preferences":       signedIn,
	"PUT /api/notifications/preferences":       signedIn,
	"GET /api/push/vapid-key":                  signedIn,
	"GET /api/push/subscriptions":              signedIn,
	"POST /api/push/subscriptions":             signedIn,
	"POST /api/push/subscriptions/unsubscribe": signedIn,
	"POST /api/push/test":                      signedIn,
	"GET /api/push/deliveries":                 signedIn,
	// VetClube IA
	"GET /api/ai/status":                       signedIn,
	"POST /api/ai/disclaimer":                  signedIn,
	"GET /api/ai/conversations":                signedIn,
	"POST /api/ai/conversations":               signedIn,
	"GET /api/ai/conversations/{id}":           signedIn,
	"PATCH /api/ai/conversations/{id}":         signedIn,
	"DELETE /api/ai/conversations/{id}":        signedIn,
	"POST /api/ai/conversations/{id}/messages": signedIn,
	"POST /api/ai/messages/{id}/report":        signedIn,
	"GET /api/admin/ai/overview":               superAdmin,
	"GET /api/events":                          signedIn,

	// Connections and blocks
	"GET /api/connections":                 signedIn,
	"POST /api/connections":                signedIn,
	"GET /api/connections/suggestions":     signedIn,
	"GET /api/connections/status/{userId}": signedIn,
	"GET /api/connections/mutual/{userId}": signedIn,
	"POST /api/connections/{id}/accept":    signedIn,
	"POST /api/connections/{id}/reject":    signedIn,
	"DELETE /api/connections/{id}":         signedIn,
	"GET /api/blocks":                      signedIn,
	"POST /api/blocks":                     signedIn,
	"DELETE /api/blocks/{userId}":          signedIn,

	"GET /healthz":          everyone,
	"GET /readyz":           everyone,
	"GET /livez":            everyone,
	"GET /api/openapi.json": everyone,
	// Accounts and sessions
	"POST /api/auth/signup":          everyone,
	"POST /api/auth/confirm":         everyone,
	"POST /api/auth/confirm/resend":  everyone,
	"POST /api/auth/login":           everyone,
	"GET /api/auth/session":          signedIn,
	"POST /api/auth/refresh":         everyone,
	"POST /api/auth/logout":          everyone,
	"GET /api/auth/sessions":         signedIn,
	"DELETE /api/auth/sessions/{id}": signedIn,
	"POST /api/auth/password/forgot": everyone,
	"POST /api/auth/password/reset":  everyone,
	"GET /api/auth/providers":        everyone,
	"GET /api/auth/google/start":     everyone,
	"GET /api/auth/google/callback":  everyone,
	// Two-step verification: the code step precedes any session.
	"POST /api/auth/two-step/verify":       everyone,
	"GET /api/auth/two-step":               signedIn,
	"POST /api/auth/two-step/totp":         signedIn,
	"POST /api/auth/two-step/totp/confirm": signedIn,
	"POST /api/auth/two-step/totp/disable": signedIn,
	"POST /api/auth/code":                  everyone,
	"POST /api/auth/code/verify":           everyone,
	"POST /api/auth/password/change":       signedIn,
	"GET /api/dev/mailbox":                 everyone,
	"GET /dev/mailbox":                     everyone,

	"GET /api/profile":              signedIn,
	"PUT /api/profile":              signedIn,
	"GET /api/profile/completeness": signedIn,
	"POST /api/profile/avatar":      signedIn,
	"GET /api/profiles/{id}":        everyone,
	"GET /api/specialties":          everyone,
	"GET /uploads/*":                everyone,
	"GET /api/admin/users":          superAdmin,
	"GET /api/admin/plugins":        superAdmin,

	// Backoffice role management
	"GET /api/admin/users/{id}":                 superAdmin,
	"GET /api/admin/users/{id}/role-changes":    superAdmin,
	"POST /api/admin/users/{id}/roles/{role}":   superAdmin,
	"DELETE /api/admin/users/{id}/roles/{role}": superAdmin,

	"GET /api/tools":                        signedIn,
	"GET /api/dashboard/cards":              signedIn,
	"GET /api/tools/{id}/offline.wasm":      signedIn,
	"GET /api/tools/offline/wasm_exec.js":   signedIn,
	"GET /api/tools/{id}/*":                 signedIn,
	"POST /api/tools/{id}/*":                signedIn,
	"PUT /api/tools/{id}/*":                 signedIn,
	"DELETE /api/tools/{id}/*":              signedIn,
	"POST /api/tools/{id}/files":            signedIn,
	"GET /api/tools/{id}/files":             signedIn,
	"GET /api/tools/{id}/files/{fileId}":    signedIn,
	"DELETE /api/tools/{id}/files/{fileId}": signedIn,

	// Content platform
	"GET /api/content/types":                                      everyone,
	"GET /api/content/{type}":                                     everyone,
	"GET /api/content/{type}/{idOrSlug}":                          everyone,
	"GET /api/preview/{token}":                                    everyone,
	"PUT /api/content/{type}/{idOrSlug}/favorite":                 signedIn,
	"DELETE /api/content/{type}/{idOrSlug}/favorite":              signedIn,
	"PUT /api/content/{type}/{idOrSlug}/reaction":                 signedIn,
	"POST /api/content/{type}/{idOrSlug}/view":                    signedIn,
	"PUT /api/content/{type}/{idOrSlug}/progress":                 signedIn,
	"PUT /api/content/{type}/{idOrSlug}/enrolment":                signedIn,
	"DELETE /api/content/{type}/{idOrSlug}/enrolment":             signedIn,
	"GET /api/admin/content/types":                                backoffice,
	"POST /api/admin/content/uploads":                             backoffice,
	"GET /api/admin/team":                                         backoffice,
	"GET /api/admin/content/{type}/{id}/reviewer":                 backoffice,
	"POST /api/admin/content/{type}/bulk/{action}":                backoffice,
	"GET /api/admin/content/{type}/{id}/editors":                  backoffice,
	"PUT /api/admin/content/{type}/{id}/editors/{userId}":         backoffice,
	"DELETE /api/admin/content/{type}/{id}/editors/{userId}":      backoffice,
	"GET /api/admin/agenda":                                       backoffice,
	"GET /api/admin/queue":                                        backoffice,
	"GET /api/admin/audit":                                        backoffice,
	"GET /api/admin/content/{type}":                               backoffice,
	"POST /api/admin/content/{type}":                              backoffice,
	"GET /api/admin/content/{type}/{id}":                          backoffice,
	"PUT /api/admin/content/{type}/{id}":                          backoffice,
	"POST /api/admin/content/{type}/{id}/actions/{action}":        backoffice,
	"GET /api/admin/content/{type}/{id}/revisions":                backoffice,
	"GET /api/admin/content/{type}/{id}/revisions/diff":           backoffice,
	"POST /api/admin/content/{type}/{id}/revisions/{rev}/restore": backoffice,
	"GET /api/admin/content/{type}/{id}/timeline":                 backoffice,
	"POST /api/admin/content/{type}/{id}/lock":                    backoffice,
	"POST /api/admin/content/{type}/{id}/lock/heartbeat":          backoffice,
	"POST /api/admin/content/{type}/{id}/lock/takeover":           backoffice,
	"DELETE /api/admin/content/{type}/{id}/lock":                  backoffice,
	"POST /api/admin/content/{type}/{id}/preview":                 backoffice,
	"PUT /api/admin/content/{type}/{id}/reviewer":                 backoffice,
	"GET /api/admin/content/{type}/{id}/comments":                 backoffice,
	"POST /api/admin/content/{type}/{id}/comments":                backoffice,
	"PUT /api/admin/content/{type}/{id}/unpublish_at":             backoffice,

	// Media library
	"POST /api/admin/media/uploads/*":   backoffice,
	"GET /api/admin/media/uploads/*":    backoffice,
	"PATCH /api/admin/media/uploads/*":  backoffice,
	"DELETE /api/admin/media/uploads/*": backoffice,
	"GET /api/admin/media":              backoffice,
	"GET /api/admin/media/{id}":         backoffice,
	"POST /api/admin/media/{id}/retry":  backoffice,
	"POST /api/admin/media/{id}/cancel": backoffice,
	"DELETE /api/admin/media/{id}":      backoffice,
	// Protected media by signed address: the token decides, not the role.
	"GET /api/media/stream/*": everyone,

	// Billing
	"GET /api/billing/plans":                                  everyone,
	"POST /api/billing/checkout":                              signedIn,
	"POST /api/billing/portal":                                signedIn,
	"POST /api/billing/check":                                 signedIn,
	"POST /api/billing/sync":                                  signedIn,
	"GET /api/billing/subscription":                           signedIn,
	"GET /api/billing/payments":                               signedIn,
	"GET /api/billing/diagnostics":                            superAdmin,
	"POST /api/billing/webhook":                               everyone,
	"GET /api/admin/billing/subscriptions":                    superAdmin,
	"GET /api/admin/billing/subscriptions/{user_id}/timeline": superAdmin,
	"GET /api/admin/billing/metrics":                          superAdmin,
	"GET /api/admin/billing/events":                           superAdmin,
	"POST /api/admin/billing/events/{id}/reprocess":           superAdmin,
	// Passkeys, e-mail change, recovery codes, build version.
	"GET /api/auth/passkeys":                 signedIn,
	"POST /api/auth/passkey/register":        signedIn,
	"POST /api/auth/passkeys":                signedIn,
	"PATCH /api/auth/passkeys/{id}":          signedIn,
	"DELETE /api/auth/passkeys/{id}":         signedIn,
	"POST /api/auth/passkey/login":           everyone,
	"POST /api/auth/passkey/login/verify":    everyone,
	"GET /api/auth/email":                    signedIn,
	"POST /api/auth/email/change":            signedIn,
	"DELETE /api/auth/email/change":          signedIn,
	"POST /api/auth/email/confirm":           everyone,
	"POST /api/auth/email/undo":              everyone,
	"POST /api/auth/two-step/recovery-codes": signedIn,
	"GET /api/version":                       signedIn,

	// The member's data (LGPD)
	"GET /api/me/data":                       signedIn,
	"POST /api/me/data-exports":              signedIn,
	"GET /api/me/data-exports/{id}/download": signedIn,
	"POST /api/me/account-deletion/code":     signedIn,
	"POST /api/me/account-deletion":          signedIn,
	"DELETE /api/me/account-deletion":        signedIn,
	"GET /api/admin/lgpd-requests":           superAdmin,
}

func registeredRoutes(t *testing.T, h http.Handler) []string {
	t.Helper()
	routes, ok := h.(chi.Routes)
	if !ok {
		t.Fatalf("root handler is %T, not a chi router", h)
	}
	var out []string
	err := chi.Walk(routes, func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		out = append(out, method+" "+route)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestAuthorisationMatrix(t *testing.T) {
	srv := apptest.Start(t, nil)
	az, err := authz.New()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, route := range registeredRoutes(t, srv.App.Handler) {
		seen[route] = true
		method, pattern, _ := strings.Cut(route, " ")
		if !az.HasPolicy(pattern, method) {
			t.Errorf("%s has no line in core/authz/policy.csv", route)
		}
		want, ok := authorisationMatrix[route]
		if !ok {
			t.Errorf("%s is missing from authorisationMatrix", route)
			continue
		}
		for _, role := range allRoles {
			got := az.Allowed([]string{role}, pattern, method)
			if got != slices.Contains(want, role) {
				t.Errorf("%s as %s: allowed=%v, want %v", route, role, got, !got)
			}
		}
	}
	for route := range authorisationMatrix {
		if !seen[route] {
			t.Errorf("authorisationMatrix lists %s, which is not registered", route)
		}
	}
}

var chiParam = regexp.MustCompile(`\{([a-zA-Z_]+)(:[^}]*)?\}`)

// openAPIPath turns a chi pattern into its OpenAPI form: {id:[0-9]+} → {id},
// a trailing /* → /{path}.
func openAPIPath(pattern string) string {
	p := chiParam.ReplaceAllString(pattern, "{$1}")
	if strings.HasSuffix(p, "/*") {
		p = strings.TrimSuffix(p, "*") + "{path}"
	}
	return p
}

func TestEveryRouteIsInOpenAPI(t *testing.T) {
	srv := apptest.Start(t, nil)
	res := srv.Client(t).Do("GET", "/api/openapi.json", nil)
	if res.Status != http.StatusOK {
		t.Fatalf("GET /api/openapi.json: %d", res.Status)
	}
	var doc struct {
		OpenAPI string                                `json:"openapi"`
		Paths   map[string]map[string]json.RawMessage `json:"paths"`
	}
	res.JSON(t, &doc)
	if !strings.HasPrefix(doc.OpenAPI, "3.1") {
		t.Errorf("openapi version %q, want 3.1.x", doc.OpenAPI)
	}
	documented := map[string]bool{}
	for path, ops := range doc.Paths {
		for method := range ops {
			documented[strings.ToUpper(method)+" "+path] = true
		}
	}
	for _, route := range registeredRoutes(t, srv.App.Handler) {
		method, pattern, _ := strings.Cut(route, " ")
		key := method + " " + openAPIPath(pattern)
		if !documented[key] {
			t.Errorf("%s is not documented in core/httpapi/openapi.json (as %s)", route, key)
		}
		delete(documented, key)
	}
	for op := range documented {
		t.Errorf("openapi.json documents %s, which is not registered", op)
	}
}
